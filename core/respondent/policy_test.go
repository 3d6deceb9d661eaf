package respondent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// countingListener is a loopback listener that counts the connections made to it: a refusal "before any
// connection" must leave it at zero.
type countingListener struct {
	ln    net.Listener
	count atomic.Int64
}

func newCountingListener(t *testing.T) *countingListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &countingListener{ln: ln}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.count.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return c
}

func (c *countingListener) port() string {
	_, p, _ := net.SplitHostPort(c.ln.Addr().String())
	return p
}

// resolver maps names to fixed addresses, so a test can point a name anywhere without DNS.
func resolver(m map[string]string) func(context.Context, string) ([]netip.Addr, error) {
	return func(_ context.Context, host string) ([]netip.Addr, error) {
		a, ok := m[host]
		if !ok {
			return nil, fmt.Errorf("test resolver: no address for %q", host)
		}
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
}

// dialRecorder is a beforeConnect hook: it records every address the policy let through and stops the dial, so
// no packet leaves even when a rule under test is missing.
type dialRecorder struct {
	mu    sync.Mutex
	addrs []string
}

var errStopped = errors.New("test: the dial was stopped before connect")

func (d *dialRecorder) hook(_, address string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.addrs = append(d.addrs, address)
	return errStopped
}

func (d *dialRecorder) passed() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.addrs...)
}

func post(c *http.Client, url string) error {
	resp, err := c.Post(url, "application/json", strings.NewReader("{}"))
	if err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return err
}

func wantRule(t *testing.T, err error, rule Rule) {
	t.Helper()
	var pe *PolicyError
	if !errors.As(err, &pe) {
		t.Fatalf("want a refusal by rule %s, got %v", rule, err)
	}
	if pe.Rule != rule {
		t.Fatalf("want rule %s, got %s: %v", rule, pe.Rule, pe)
	}
}

// TestPolicyRefusesNamesResolvingToForbiddenAddresses: a hostname that resolves to 127.0.0.1 or 169.254.169.254
// is refused on the address dialled, without any connection being made.
func TestPolicyRefusesNamesResolvingToForbiddenAddresses(t *testing.T) {
	ln := newCountingListener(t)
	for _, tc := range []struct{ name, addr string }{
		{"loopback", "127.0.0.1"},
		{"metadata", "169.254.169.254"},
		{"private", "10.1.2.3"},
		{"mapped loopback", "::ffff:127.0.0.1"},
		{"ipv6 loopback", "::1"},
		{"ipv6 link-local", "fe80::1"},
		{"multicast", "224.0.0.1"},
		{"unspecified", "0.0.0.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &dialRecorder{}
			p := &Policy{Resolve: resolver(map[string]string{"collector.example": tc.addr})}
			if tc.addr == "127.0.0.1" {
				// The real listener: proves no connection, not only that the hook was not reached.
			} else {
				p.beforeConnect = rec.hook
			}
			err := post(p.Client(), "https://collector.example:"+ln.port()+"/aqp/v1/responses")
			wantRule(t, err, RuleAddress)
			if got := rec.passed(); len(got) > 0 {
				t.Fatalf("the policy let %v through to connect", got)
			}
			if n := ln.count.Load(); n != 0 {
				t.Fatalf("%d connection(s) were made to the loopback listener", n)
			}
		})
	}
}

// TestPolicyRebinding: the URL rules pass a public-looking name; the name re-resolves to a forbidden address at
// dial time, and the dial is refused there.
func TestPolicyRebinding(t *testing.T) {
	var calls atomic.Int64
	rec := &dialRecorder{}
	p := &Policy{beforeConnect: rec.hook, Resolve: func(context.Context, string) ([]netip.Addr, error) {
		if calls.Add(1) == 1 {
			return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
		}
		return []netip.Addr{netip.MustParseAddr("169.254.169.254")}, nil
	}}
	c := p.Client()
	if err := post(c, "https://rebind.example/"); !errors.Is(err, errStopped) {
		t.Fatalf("first dial (public address) should reach the connect step, got %v", err)
	}
	wantRule(t, post(c, "https://rebind.example/"), RuleAddress)
	if got := rec.passed(); len(got) != 1 {
		t.Fatalf("addresses let through: %v; want only the public one", got)
	}
}

// TestPolicyAllowsWhatItMay: the allowances open exactly what they name.
func TestPolicyAllowsWhatItMay(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Policy
		addr string
	}{
		{"public", Policy{}, "93.184.215.14"},
		{"allowed prefix", Policy{AllowPrefixes: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, "10.1.2.3"},
		{"allowed loopback", Policy{AllowLoopback: true}, "127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &dialRecorder{}
			p := tc.p
			p.beforeConnect, p.Resolve = rec.hook, resolver(map[string]string{"c.example": tc.addr})
			if err := post(p.Client(), "https://c.example/"); !errors.Is(err, errStopped) {
				t.Fatalf("want the dial to reach connect, got %v", err)
			}
		})
	}
	// An allowed prefix does not open other private ranges.
	rec := &dialRecorder{}
	p := Policy{AllowPrefixes: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, beforeConnect: rec.hook,
		Resolve: resolver(map[string]string{"c.example": "192.168.1.1"})}
	wantRule(t, post(p.Client(), "https://c.example/"), RuleAddress)
}

// TestPolicyURLRules: scheme, plain http only to loopback and only when allowed, the allowlist — each refused
// before any name is resolved or any connection made.
func TestPolicyURLRules(t *testing.T) {
	ln := newCountingListener(t)
	port := ln.port()
	for _, tc := range []struct {
		name string
		p    Policy
		url  string
		rule Rule
	}{
		{"ftp", Policy{}, "ftp://collector.example/", RuleScheme},
		{"ws", Policy{AllowHTTPLoopback: true}, "ws://127.0.0.1:" + port + "/", RuleScheme},
		{"http loopback not allowed", Policy{}, "http://127.0.0.1:" + port + "/", RuleHTTPLoopback},
		{"http localhost not allowed", Policy{}, "http://localhost:" + port + "/", RuleHTTPLoopback},
		{"http elsewhere even when allowed", Policy{AllowHTTPLoopback: true}, "http://collector.example:" + port + "/", RuleHTTPLoopback},
		{"http private even when allowed", Policy{AllowHTTPLoopback: true, AllowPrefixes: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}, "http://10.0.0.1:" + port + "/", RuleHTTPLoopback},
		{"not on the allowlist", Policy{AllowHosts: []string{"good.example"}}, "https://collector.example:" + port + "/", RuleAllowlist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var resolved atomic.Int64
			p := tc.p
			p.Resolve = func(context.Context, string) ([]netip.Addr, error) {
				resolved.Add(1)
				return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
			}
			wantRule(t, p.CheckURL(tc.url), tc.rule)
			wantRule(t, post(p.Client(), tc.url), tc.rule)
			if resolved.Load() != 0 || ln.count.Load() != 0 {
				t.Fatalf("resolved %d times, %d connections: the refusal came too late", resolved.Load(), ln.count.Load())
			}
		})
	}
	// The allowlist admits what it lists (case-insensitively), and http to loopback works when allowed.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	p := Policy{AllowHTTPLoopback: true, AllowHosts: []string{"127.0.0.1"}}
	if err := post(p.Client(), srv.URL); err != nil {
		t.Fatalf("http to loopback, allowed and on the allowlist: %v", err)
	}
	if err := p.CheckURL("https://127.0.0.1/"); err != nil {
		t.Fatal(err)
	}
	if err := (&Policy{AllowHosts: []string{"Good.Example"}}).CheckURL("https://good.example/x"); err != nil {
		t.Fatal(err)
	}
	wantRule(t, (&Policy{}).CheckURL("/relative"), RuleURL)
}

// TestPolicyPlainHTTPDialsLoopbackOnly: even if a plain http URL passed the URL rules, its dialer admits only
// loopback addresses (the second line of defence: a name that resolves elsewhere).
func TestPolicyPlainHTTPDialsLoopbackOnly(t *testing.T) {
	rec := &dialRecorder{}
	p := &Policy{AllowHTTPLoopback: true, AllowPrefixes: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")},
		beforeConnect: rec.hook, Resolve: resolver(map[string]string{"localhost": "10.0.0.1"})}
	wantRule(t, post(p.Client(), "http://localhost:8080/"), RuleHTTPLoopback)
	if got := rec.passed(); len(got) != 0 {
		t.Fatalf("let through %v", got)
	}
}

// TestPolicyRefusesRedirects: a destination that redirects — to a forbidden address or anywhere — is refused,
// and the redirect target is never contacted.
func TestPolicyRefusesRedirects(t *testing.T) {
	target := newCountingListener(t)
	for _, to := range []string{
		"http://127.0.0.1:" + target.port() + "/",
		"http://169.254.169.254/latest/meta-data/",
		"https://collector.example/elsewhere",
	} {
		t.Run(to, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, to, http.StatusTemporaryRedirect)
			}))
			defer srv.Close()
			rec := &dialRecorder{}
			// Loopback is allowed here, so the redirect rule alone stands between the client and the target.
			p := &Policy{AllowHTTPLoopback: true, AllowLoopback: true, beforeConnect: func(network, address string) error {
				if address == srv.Listener.Addr().String() {
					return nil
				}
				return rec.hook(network, address)
			}, Resolve: resolver(map[string]string{"collector.example": "127.0.0.1"})}
			wantRule(t, post(p.Client(), srv.URL), RuleRedirect)
			if got := rec.passed(); len(got) != 0 || target.count.Load() != 0 {
				t.Fatalf("the redirect target was dialled: %v, %d connections", got, target.count.Load())
			}
		})
	}
}
