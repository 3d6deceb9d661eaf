package respondent

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// Rule names the destination rule that refused a delivery, so a host's log says which rule to relax (or why
// not to).
type Rule string

// The destination rules, in the order they are applied.
const (
	// RuleURL: the endpoint is not an absolute URL with a host.
	RuleURL Rule = "url"
	// RuleScheme: only https is delivered to (plain http only under RuleHTTPLoopback).
	RuleScheme Rule = "scheme"
	// RuleHTTPLoopback: plain http goes only to a loopback address, and only when AllowHTTPLoopback is set.
	RuleHTTPLoopback Rule = "http-loopback"
	// RuleAllowlist: when AllowHosts is set, only those hosts are delivered to.
	RuleAllowlist Rule = "allowlist"
	// RuleAddress: the address actually dialled is private, loopback, link-local, multicast or otherwise not
	// public, and not allowed.
	RuleAddress Rule = "address"
	// RuleRedirect: the destination answered with a redirect; redirects are never followed.
	RuleRedirect Rule = "redirect"
)

// PolicyError is a delivery the destination policy refused before any connection was made.
type PolicyError struct {
	// Rule is the rule that refused it.
	Rule Rule
	// Target is the URL or the address (ip:port) refused.
	Target string
	// Reason says why, and what would allow it when something can.
	Reason string
}

// Error implements the error interface.
func (e *PolicyError) Error() string {
	return fmt.Sprintf("destination policy (rule %s) refused %s: %s", e.Rule, e.Target, e.Reason)
}

// Policy decides where a respondent may deliver responses. A query names its own delivery endpoint, so a
// respondent that followed it blindly could be made to POST into its own network (a cloud metadata service, an
// admin port on localhost): the policy refuses that. It is enforced on the address actually dialled — in the
// dialer's Control hook, for every connection — so a hostname that resolves (or re-resolves, DNS rebinding) to a
// forbidden address is refused, and redirects are never followed. Environment proxies are never used: through a
// proxy the dialled address would be the proxy's. The zero value is the strict policy: https to public addresses
// only.
type Policy struct {
	// AllowHTTPLoopback permits plain http to loopback addresses (and loopback addresses over https), for a
	// collector on the same machine. It never permits plain http anywhere else.
	AllowHTTPLoopback bool
	// AllowLoopback permits https to loopback addresses.
	AllowLoopback bool
	// AllowHosts, when not empty, is the only hosts delivered to (host names or IP literals, without port,
	// compared case-insensitively).
	AllowHosts []string
	// AllowPrefixes are non-public address ranges delivered to anyway (a collector on a private network).
	AllowPrefixes []netip.Prefix
	// TLSConfig, when set, configures TLS (for example a private root); nil uses the system roots.
	TLSConfig *tls.Config
	// Resolve turns a host name into addresses; nil uses net.DefaultResolver. Tests replace it to point names at
	// forbidden addresses without DNS.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// DialTimeout bounds connecting to one address; default 10 s.
	DialTimeout time.Duration

	// beforeConnect, when set (tests), runs after an address passed the policy and before connect(2); an error
	// stops the dial. It lets a test prove an address was (not) let through without any traffic leaving.
	beforeConnect func(network, address string) error
}

// guardian classifies addresses: the IANA special-purpose registries, as code.dny.dev/ssrf keeps them, on any
// port (collectors listen where they like) over TCP.
var guardian = ssrf.New(ssrf.WithAnyPort(), ssrf.WithNetworks("tcp4", "tcp6"))

// CheckURL applies the rules that need no address: scheme, plain http to loopback only when allowed, and the
// allowlist. The runtime calls it when a query arrives, so a query naming a refused endpoint is dropped before
// anything else happens; the client built by Client applies it again to every request.
func (p *Policy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Hostname() == "" {
		return &PolicyError{Rule: RuleURL, Target: raw, Reason: "not an absolute URL with a host"}
	}
	return p.checkURL(u)
}

func (p *Policy) checkURL(u *url.URL) error {
	host := strings.ToLower(u.Hostname())
	switch u.Scheme {
	case "https":
	case "http":
		if !p.AllowHTTPLoopback {
			return &PolicyError{Rule: RuleHTTPLoopback, Target: u.String(),
				Reason: "plain http is refused; it is allowed only to a loopback address, and only when explicitly allowed (--allow-http-loopback)"}
		}
		if !isLoopbackName(host) {
			return &PolicyError{Rule: RuleHTTPLoopback, Target: u.String(),
				Reason: "plain http is allowed only to localhost or a loopback address; use https"}
		}
	default:
		return &PolicyError{Rule: RuleScheme, Target: u.String(), Reason: fmt.Sprintf("scheme %q: responses are delivered only over https", u.Scheme)}
	}
	if len(p.AllowHosts) > 0 && !containsFold(p.AllowHosts, host) {
		return &PolicyError{Rule: RuleAllowlist, Target: u.String(),
			Reason: fmt.Sprintf("host %q is not on the allowlist (%s)", host, strings.Join(p.AllowHosts, ", "))}
	}
	return nil
}

func isLoopbackName(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(strings.TrimSuffix(x, "."), strings.TrimSuffix(s, ".")) {
			return true
		}
	}
	return false
}

// Client returns the *http.Client transports are built with: every request is checked by CheckURL, every
// connection by the address rules in the dialer's Control hook, and no redirect is followed. Plain http
// connections go through a dialer that admits loopback addresses only, whatever else is allowed.
func (p *Policy) Client() *http.Client {
	cp := *p
	cp.AllowHosts = append([]string(nil), p.AllowHosts...)
	cp.AllowPrefixes = append([]netip.Prefix(nil), p.AllowPrefixes...)
	return &http.Client{
		Transport: &policyTransport{p: &cp,
			https: cp.transport(cp.controlSecure),
			http:  cp.transport(cp.controlPlain)},
		CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			return &PolicyError{Rule: RuleRedirect, Target: req.URL.String(),
				Reason: "the destination answered with a redirect; a response goes only to the endpoint the query names"}
		},
	}
}

// Dialer returns the dialer the policy's Client dials with, for a transport that opens its own connections (A2A's
// gRPC): every connection it makes is judged by the address rules on the address actually dialled. plain is for a
// connection without TLS, which — like plain http — may reach only a loopback address.
func (p *Policy) Dialer(plain bool) func(ctx context.Context, addr string) (net.Conn, error) {
	cp := *p
	cp.AllowHosts = append([]string(nil), p.AllowHosts...)
	cp.AllowPrefixes = append([]netip.Prefix(nil), p.AllowPrefixes...)
	control := cp.controlSecure
	if plain {
		control = cp.controlPlain
	}
	timeout := cp.DialTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	dial := cp.dialContext(&net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: control})
	return func(ctx context.Context, addr string) (net.Conn, error) { return dial(ctx, "tcp", addr) }
}

// policyTransport applies the URL rules to each request and sends it through the transport of its scheme.
type policyTransport struct {
	p           *Policy
	https, http *http.Transport
}

func (t *policyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.p.checkURL(req.URL); err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	if req.URL.Scheme == "http" {
		return t.http.RoundTrip(req)
	}
	return t.https.RoundTrip(req)
}

func (p *Policy) transport(control func(network, address string, _ syscall.RawConn) error) *http.Transport {
	timeout := p.DialTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	d := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, Control: control}
	var tc *tls.Config
	if p.TLSConfig != nil {
		tc = p.TLSConfig.Clone()
	}
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           p.dialContext(d),
		TLSClientConfig:       tc,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
	}
}

// dialContext resolves the host itself (through Resolve) and dials each address in turn through d, whose Control
// hook judges the address about to be connected to.
func (p *Policy) dialContext(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		var addrs []netip.Addr
		if a, err := netip.ParseAddr(host); err == nil {
			addrs = []netip.Addr{a}
		} else if addrs, err = p.resolve(ctx, host); err != nil {
			return nil, err
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("%s resolves to no address", host)
		}
		var first error
		for _, a := range addrs {
			conn, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
			if err == nil {
				return conn, nil
			}
			var pe *PolicyError
			if first == nil || (errors.As(err, &pe) && !errors.As(first, &pe)) {
				first = err
			}
			if ctx.Err() != nil {
				break
			}
		}
		return nil, first
	}
}

func (p *Policy) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if p.Resolve != nil {
		return p.Resolve(ctx, host)
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// controlSecure judges an https connection's address: public, or loopback when allowed, or in AllowPrefixes.
func (p *Policy) controlSecure(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &PolicyError{Rule: RuleAddress, Target: address, Reason: "not an ip:port address"}
	}
	ip := ap.Addr().Unmap()
	allowed := (ip.IsLoopback() && (p.AllowLoopback || p.AllowHTTPLoopback)) || p.inAllowedPrefix(ip)
	if !allowed {
		if err := guardian.Safe(network, address, nil); err != nil {
			return &PolicyError{Rule: RuleAddress, Target: address, Reason: addressReason(ip)}
		}
	}
	return p.connect(network, address)
}

// controlPlain judges a plain http connection's address: loopback only, and only when allowed.
func (p *Policy) controlPlain(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &PolicyError{Rule: RuleHTTPLoopback, Target: address, Reason: "not an ip:port address"}
	}
	if !p.AllowHTTPLoopback || !ap.Addr().Unmap().IsLoopback() {
		return &PolicyError{Rule: RuleHTTPLoopback, Target: address,
			Reason: "plain http is allowed only to a loopback address, and only when explicitly allowed"}
	}
	return p.connect(network, address)
}

func (p *Policy) connect(network, address string) error {
	if p.beforeConnect != nil {
		return p.beforeConnect(network, address)
	}
	return nil
}

func (p *Policy) inAllowedPrefix(ip netip.Addr) bool {
	for _, pr := range p.AllowPrefixes {
		if pr.Contains(ip) {
			return true
		}
	}
	return false
}

// addressReason names the class of a refused address, so the log says more than "prohibited".
func addressReason(ip netip.Addr) string {
	class := "not a public address"
	switch {
	case ip.IsLoopback():
		class = "a loopback address"
	case ip.IsPrivate():
		class = "a private address"
	case ip.IsLinkLocalUnicast():
		class = "a link-local address (such as a cloud metadata service)"
	case ip.IsMulticast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast():
		class = "a multicast address"
	case ip.IsUnspecified():
		class = "the unspecified address"
	}
	return fmt.Sprintf("%s is %s; only public addresses are delivered to unless allowed", ip, class)
}
