package aqp_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	aqp "github.com/agentqueryprotocol/aqp-go"
	"github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
	genaqp "github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
	wirepkg "github.com/agentqueryprotocol/aqp-go/wire"
)

// wire records what reached the collector: each request's path and JSON-RPC method, so a test can tell which
// column a delivery spoke.
type wire struct {
	mu   sync.Mutex
	seen []string
}

func (w *wire) note(r *http.Request) {
	note := r.Method + " " + r.URL.Path
	if r.Method == http.MethodPost && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 4<<20))
		r.Body = io.NopCloser(bytes.NewReader(b))
		if i := bytes.Index(b, []byte(`"method":"`)); i >= 0 {
			m := b[i+len(`"method":"`):]
			if j := bytes.IndexByte(m, '"'); j >= 0 {
				note += " " + string(m[:j])
			}
		}
	}
	w.mu.Lock()
	w.seen = append(w.seen, note)
	w.mu.Unlock()
}

// take returns what was recorded since the last take.
func (w *wire) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.seen
	w.seen = nil
	return out
}

type env struct {
	url  string
	c    *collector.Collector
	wire *wire
}

// newCollector serves every binding (every column of each) from one in-process collector on a loopback listener,
// with unencrypted HTTP/2 for A2A's gRPC, recording what reaches it.
func newCollector(t *testing.T) *env {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{url: "http://" + ln.Addr().String(), wire: &wire{}}
	svc, err := service.New(service.Config{
		Collector:  collector.Config{Store: memory.New(), PublicURL: e.url, RateLimit: collector.RateLimit{Disabled: true}},
		Bindings:   []service.Binding{https.Binding{}, mcp.Binding{}, a2a.Binding{}},
		AdminToken: "test-admin-token",
	})
	if err != nil {
		t.Fatal(err)
	}
	e.c = svc.Collector()
	h := svc.Handler()
	hs := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.wire.note(r)
		h.ServeHTTP(w, r)
	})}
	hs.Protocols = new(http.Protocols)
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetUnencryptedHTTP2(true)
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	return e
}

// issue issues a yes/no question for binding, from a typed draft.
func (e *env) issue(t *testing.T, binding string) *aqp.QueryRequest {
	t.Helper()
	b := api.QueryDraftBinding(binding)
	req, err := aqp.Issue(context.Background(), e.c, &aqp.QueryDraft{
		Binding: &b, Type: genaqp.QueryRequestTypeFeedback, Prompt: "Did the search answer the question?",
		Subject:     aqp.QuerySubject{Kind: genaqp.QuerySubjectKindToolCall, ID: "call_1"},
		ConsentMode: genaqp.QueryRequestConsentModeNotRequired, Timing: genaqp.QueryRequestTimingImmediate,
		Response: genaqp.QueryRequestResponse{Format: genaqp.QueryRequestResponseFormatBoolean},
	})
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func ptr[T any](v T) *T { return &v }

var agent = aqp.Respondent{Kind: genaqp.QueryResponseRespondentKindAgent, Provenance: genaqp.QueryResponseRespondentProvenanceDirect}

func answer(t *testing.T, req *aqp.QueryRequest, v any) *aqp.QueryResponse {
	t.Helper()
	resp, err := aqp.NewResponse(req, agent, v)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

var loopback = aqp.WithPolicy(&aqp.Policy{AllowHTTPLoopback: true})

// columns are every binding at every generation and transport this module delivers over, with the options that
// pin the client to it and what the collector sees when a response is delivered over it (and must not see).
var columns = []struct {
	name, binding string
	opts          []aqp.Option
	want, not     string
}{
	{"https", https.Name, nil, "POST " + spec.HTTPSPath, ""},
	{"mcp-" + mcp.ProtocolVersionModern, mcp.Name, []aqp.Option{aqp.WithMCPVersion(mcp.ProtocolVersionModern)},
		"POST " + spec.MCPPath + " server/discover", "POST " + spec.MCPPath + " initialize"},
	{"mcp-" + mcp.ProtocolVersionLegacy, mcp.Name, []aqp.Option{aqp.WithMCPVersion(mcp.ProtocolVersionLegacy)},
		"POST " + spec.MCPPath + " initialize", "POST " + spec.MCPPath + " server/discover"},
	{"a2a-1.0-jsonrpc", a2a.Name, []aqp.Option{aqp.WithA2A(a2a.Version, "JSONRPC")},
		"POST " + spec.A2APath + " " + a2a.SendMethod, a2a.LegacySendMethod},
	{"a2a-1.0-http-json", a2a.Name, []aqp.Option{aqp.WithA2A(a2a.Version, "HTTP+JSON")},
		"POST " + spec.A2APath + a2a.RESTSendPath, "POST " + spec.A2APath + " "},
	{"a2a-1.0-grpc", a2a.Name, []aqp.Option{aqp.WithA2A(a2a.Version, "GRPC")},
		"POST /" + a2a.GRPCService + "/" + a2a.SendMethod, "POST " + spec.A2APath},
	{"a2a-0.3-jsonrpc", a2a.Name, []aqp.Option{aqp.WithA2A(a2a.LegacyVersion, "JSONRPC")},
		"POST " + spec.A2APath + " " + a2a.LegacySendMethod, a2a.SendMethod},
}

// TestSubmitEveryColumn: one Submit, pinned to each column, delivers an answer the collector accepts over exactly
// that column (the collector saw the column's request and not the other era's or transport's), and the receipt
// returned is the one the collector stored; a wrong answer over the same column is a *RejectedError holding the
// rejected receipt, and a response whose ids cannot be read is a *ProblemError with no receipt.
func TestSubmitEveryColumn(t *testing.T) {
	e := newCollector(t)
	for _, col := range columns {
		t.Run(col.name, func(t *testing.T) {
			client, err := aqp.NewClient(append([]aqp.Option{loopback}, col.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			req := e.issue(t, col.binding)
			e.wire.take()
			rec, err := client.Submit(ctx, req, answer(t, req, true))
			if err != nil {
				t.Fatalf("Submit: %v", err)
			}
			seen := strings.Join(e.wire.take(), "\n")
			if !strings.Contains(seen, col.want) || (col.not != "" && strings.Contains(seen, col.not)) {
				t.Fatalf("the collector saw\n%s\nwant %q and not %q", seen, col.want, col.not)
			}
			st, err := e.c.Lookup(ctx, req.QueryID)
			if err != nil || st.Acceptance == nil {
				t.Fatalf("the query is not answered: %v %+v", err, st)
			}
			if rec.Status != genaqp.QueryReceiptStatusAccepted || rec.ResponseID != st.Acceptance.ResponseID {
				t.Fatalf("receipt %+v, stored acceptance of %s", rec, st.Acceptance.ResponseID)
			}
			if stored, _ := st.Acceptance.ParseResponse(); stored == nil || string(stored.Answer) != "true" {
				t.Fatalf("stored answer %+v", stored)
			}

			other := e.issue(t, col.binding)
			rec, err = client.Submit(ctx, other, answer(t, other, "maybe"))
			var re *aqp.RejectedError
			if !errors.As(err, &re) || re.Code != core.CodeAnswerInvalid || re.Receipt == nil || rec != re.Receipt ||
				re.Receipt.Status != genaqp.QueryReceiptStatusRejected || aqp.Retryable(err) {
				t.Fatalf("a wrong answer: %v (receipt %+v); want a non-retryable *RejectedError %s holding the receipt", err, rec, core.CodeAnswerInvalid)
			}

			// A response that breaks its own schema is still decided: its rejected receipt comes back.
			third := e.issue(t, col.binding)
			invalid := answer(t, third, true)
			invalid.Confidence = ptr(wirepkg.Number("2"))
			rec, err = client.Submit(ctx, third, invalid)
			if !errors.As(err, &re) || re.Code != core.CodeInvalidResponse || rec == nil || rec != re.Receipt {
				t.Fatalf("a response with confidence 2: %v (receipt %+v); want a *RejectedError %s", err, rec, core.CodeInvalidResponse)
			}

			bad := answer(t, other, false)
			bad.QueryID, bad.ResponseID = "not-a-uuid", "not-a-uuid"
			rec, err = client.Submit(ctx, other, bad)
			var pe *aqp.ProblemError
			if !errors.As(err, &pe) || rec != nil || pe.Binding != col.binding || aqp.Retryable(err) {
				t.Fatalf("a response without readable ids: %v (receipt %+v); want a *ProblemError over %s", err, rec, col.binding)
			}
		})
	}
}

// TestSubmitTransportFailure: a collector that is not there is a *TransportError over every binding — nothing was
// decided, so Retryable says the same response may go again.
func TestSubmitTransportFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + ln.Addr().String()
	ln.Close()
	client, err := aqp.NewClient(loopback)
	if err != nil {
		t.Fatal(err)
	}
	e := newCollector(t)
	for _, binding := range []string{https.Name, mcp.Name, a2a.Name} {
		t.Run(binding, func(t *testing.T) {
			req := e.issue(t, binding)
			*req.Delivery.Endpoint = strings.Replace(*req.Delivery.Endpoint, e.url, gone, 1)
			rec, err := client.Submit(context.Background(), req, answer(t, req, true))
			var te *aqp.TransportError
			if !errors.As(err, &te) || rec != nil || te.Binding != binding || !aqp.Retryable(err) {
				t.Fatalf("%v (receipt %+v); want a retryable *TransportError over %s", err, rec, binding)
			}
		})
	}
}

// TestSubmitSendsNothing: a query whose delivery is unusable, or names a destination the policy refuses, is an
// error before anything is sent, naming the member or the rule — never a panic on an absent endpoint.
func TestSubmitSendsNothing(t *testing.T) {
	e := newCollector(t)
	strict, err := aqp.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	lenient, err := aqp.NewClient(loopback)
	if err != nil {
		t.Fatal(err)
	}
	rebound, err := aqp.NewClient(aqp.WithPolicy(&aqp.Policy{AllowHTTPLoopback: true,
		Resolve: func(context.Context, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("169.254.169.254")}, nil // "localhost" names the metadata service
		}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		client *aqp.Client
		edit   func(*genaqp.QueryRequestDelivery)
		check  func(error) bool
	}{
		{"other binding", lenient, func(d *genaqp.QueryRequestDelivery) { d.Binding = genaqp.QueryRequestDeliveryBindingOther }, func(err error) bool {
			var ue *aqp.UndeliverableError
			return errors.As(err, &ue) && ue.Pointer == "/delivery/binding"
		}},
		{"no endpoint", lenient, func(d *genaqp.QueryRequestDelivery) { d.Endpoint = nil }, func(err error) bool {
			var ue *aqp.UndeliverableError
			return errors.As(err, &ue) && ue.Pointer == "/delivery/endpoint"
		}},
		{"plain http under the strict policy", strict, func(*genaqp.QueryRequestDelivery) {}, func(err error) bool {
			var pe *aqp.PolicyError
			return errors.As(err, &pe) && pe.Rule == "http-loopback"
		}},
		{"a name resolving to a forbidden address", rebound, func(d *genaqp.QueryRequestDelivery) {
			*d.Endpoint = strings.Replace(*d.Endpoint, "127.0.0.1", "localhost", 1)
		}, func(err error) bool {
			var pe *aqp.PolicyError
			var te *aqp.TransportError
			return errors.As(err, &te) && errors.As(err, &pe) && pe.Rule == "http-loopback"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := e.issue(t, https.Name)
			tc.edit(&req.Delivery)
			e.wire.take()
			rec, err := tc.client.Submit(context.Background(), req, answer(t, req, true))
			if !tc.check(err) || rec != nil || aqp.Retryable(err) {
				t.Fatalf("%v (receipt %+v)", err, rec)
			}
			if seen := e.wire.take(); len(seen) > 0 {
				t.Fatalf("sent %q", seen)
			}
		})
	}
	if _, err := lenient.Submit(context.Background(), nil, nil); err == nil {
		t.Fatal("Submit(nil, nil) succeeded")
	}
}

// TestNewClientRefusesUnknownColumns: a pin that names no column is refused when the client is built, not on
// every delivery.
func TestNewClientRefusesUnknownColumns(t *testing.T) {
	for _, opt := range []aqp.Option{aqp.WithMCPVersion("2099-01-01"), aqp.WithA2A("2.0", ""), aqp.WithA2A("", "SOAP"),
		aqp.WithA2A(a2a.LegacyVersion, "GRPC"), aqp.WithPolicy(nil)} {
		if _, err := aqp.NewClient(opt); err == nil {
			t.Errorf("an invalid option was accepted")
		}
	}
}

// TestTransportsServeTheRuntime: the client's transports are the respondent runtime's too, so a host that embeds
// the runtime delivers exactly as Submit does — here over A2A's gRPC, pinned by the client's option.
func TestTransportsServeTheRuntime(t *testing.T) {
	e := newCollector(t)
	policy := &aqp.Policy{AllowHTTPLoopback: true}
	client, err := aqp.NewClient(aqp.WithPolicy(policy), aqp.WithA2A(a2a.Version, "GRPC"))
	if err != nil {
		t.Fatal(err)
	}
	grants, err := respondent.OpenGrantFile(filepath.Join(t.TempDir(), "grants.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := respondent.New(respondent.Config{Transports: client.Transports(), Policy: policy, Grants: grants, Respondent: agent,
		Answer: func(context.Context, *respondent.Query) (respondent.Answer, error) {
			return respondent.Answer{Value: true}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	req := e.issue(t, a2a.Name)
	q, err := r.IntakeRequest("test", req)
	if err != nil {
		t.Fatal(err)
	}
	e.wire.take()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := r.Respond(ctx, q)
	if err != nil || !res.Accepted {
		t.Fatalf("%v %+v", err, res)
	}
	if seen := strings.Join(e.wire.take(), "\n"); !strings.Contains(seen, "/"+a2a.GRPCService+"/"+a2a.SendMethod) {
		t.Fatalf("the collector saw\n%s\nwant the gRPC SendMessage", seen)
	}
}

// TestSubmitDistrustsAnotherReceipt: a reply that is a valid receipt, but for another response, is not taken as
// this response's decision: a retryable *TransportError saying so.
func TestSubmitDistrustsAnotherReceipt(t *testing.T) {
	e := newCollector(t)
	req := e.issue(t, https.Name)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"protocolVersion":"2026-07-30","queryId":"` + req.QueryID +
			`","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452","status":"accepted","retryable":false,"receivedAt":"2026-07-30T17:05:13Z"}`))
	})}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	*req.Delivery.Endpoint = "http://" + ln.Addr().String() + spec.HTTPSPath
	client, err := aqp.NewClient(loopback)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := client.Submit(context.Background(), req, answer(t, req, true))
	var te *aqp.TransportError
	if !errors.As(err, &te) || rec != nil || !strings.Contains(err.Error(), "names response 0198c7d0-2180-7729-b005-d33c99fc7452") || !aqp.Retryable(err) {
		t.Fatalf("%v (receipt %+v); want a retryable *TransportError naming the other response", err, rec)
	}
}

// TestSubmitOverTLS: a collector behind TLS with a private root is reached over every column when the policy
// trusts that root (Policy.TLSConfig) — A2A's gRPC, which opens its own connections, included.
func TestSubmitOverTLS(t *testing.T) {
	ts := httptest.NewUnstartedServer(nil)
	ts.EnableHTTP2 = true
	svc, err := service.New(service.Config{
		Collector:  collector.Config{Store: memory.New(), PublicURL: "https://" + ts.Listener.Addr().String(), RateLimit: collector.RateLimit{Disabled: true}},
		Bindings:   []service.Binding{https.Binding{}, mcp.Binding{}, a2a.Binding{}},
		AdminToken: "test-admin-token",
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := &wire{}
	ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.note(r)
		svc.Handler().ServeHTTP(w, r)
	})
	ts.StartTLS()
	defer ts.Close()
	roots := x509.NewCertPool()
	roots.AddCert(ts.Certificate())
	e := &env{url: ts.URL, c: svc.Collector(), wire: seen}
	for _, col := range columns {
		t.Run(col.name, func(t *testing.T) {
			client, err := aqp.NewClient(append([]aqp.Option{aqp.WithPolicy(&aqp.Policy{AllowLoopback: true,
				TLSConfig: &tls.Config{RootCAs: roots}})}, col.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			req := e.issue(t, col.binding)
			e.wire.take()
			if rec, err := client.Submit(ctx, req, answer(t, req, true)); err != nil || rec.Status != genaqp.QueryReceiptStatusAccepted {
				t.Fatalf("Submit: %v %+v", err, rec)
			}
			if seen := strings.Join(e.wire.take(), "\n"); !strings.Contains(seen, col.want) {
				t.Fatalf("the collector saw\n%s\nwant %q", seen, col.want)
			}
		})
	}
}
