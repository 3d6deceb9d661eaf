package respondent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

const endpoint = "https://collector.example/aqp/v1/responses"

// query builds a valid QueryRequest JSON; mutate adjusts it.
func query(t *testing.T, ttl time.Duration, mutate func(m map[string]any)) []byte {
	t.Helper()
	m := map[string]any{
		"protocolVersion": "2026-07-30", "queryId": uuid.Must(uuid.NewV7()).String(), "type": "clarification",
		"subject": map[string]any{"kind": "tool_call", "id": "call_1", "protocol": "mcp"},
		"prompt":  "Did it work?", "response": map[string]any{"format": "choice", "choices": []string{"yes", "partly", "no"}},
		"timing": "immediate", "consentMode": "not_required",
		"delivery":  map[string]any{"binding": "https", "endpoint": endpoint, "authorization": "Bearer cap"},
		"expiresAt": time.Now().Add(ttl).UTC().Format("2006-01-02T15:04:05.000Z07:00"),
	}
	if mutate != nil {
		mutate(m)
	}
	b, _ := json.Marshal(m)
	return b
}

// fakeTransport answers each delivery from a script (a function of the attempt number) and records every body.
type fakeTransport struct {
	mu     sync.Mutex
	bodies [][]byte
	reply  func(n int, resp *aqp.QueryResponse) ([]byte, error)
}

func (f *fakeTransport) Binding() string { return "https" }

func (f *fakeTransport) Deliver(_ context.Context, d Delivery, body []byte) ([]byte, error) {
	f.mu.Lock()
	f.bodies = append(f.bodies, append([]byte(nil), body...))
	n := len(f.bodies)
	f.mu.Unlock()
	resp, errs := core.ParseResponse(body)
	if len(errs) > 0 {
		return nil, fmt.Errorf("fake: the runtime sent an invalid response: %v", errs)
	}
	if f.reply == nil {
		return receipt(resp, "accepted", "", nil), nil
	}
	return f.reply(n, resp)
}

func (f *fakeTransport) sent() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.bodies...)
}

// receipt builds a receipt for resp: accepted, or rejected with code.
func receipt(resp *aqp.QueryResponse, status string, code core.Code, extra map[string]any) []byte {
	m := map[string]any{"protocolVersion": "2026-07-30", "queryId": resp.QueryID, "responseId": resp.ResponseID,
		"status": status, "retryable": code.Retryable(), "receivedAt": time.Now().UTC().Format(time.RFC3339Nano)}
	if status == "rejected" {
		m["error"] = map[string]any{"code": string(code), "message": "because"}
	}
	for k, v := range extra {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

type harness struct {
	r       *Respondent
	tr      *fakeTransport
	grants  string
	asked   []string
	answers int
	answer  any
	consent bool
	mu      sync.Mutex
}

func newHarness(t *testing.T, grantFile string) *harness {
	t.Helper()
	h := &harness{tr: &fakeTransport{}, grants: grantFile, answer: "yes", consent: true}
	if h.grants == "" {
		h.grants = filepath.Join(t.TempDir(), "grants.json")
	}
	h.start(t)
	return h
}

// start builds the runtime, as a host process starting (or restarting) would.
func (h *harness) start(t *testing.T) {
	t.Helper()
	g, err := OpenGrantFile(h.grants)
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := NewRegistry(h.tr)
	h.r, err = New(Config{Transports: reg, Grants: g,
		Respondent: aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKindAgent, Provenance: aqp.QueryResponseRespondentProvenanceDirect},
		Retry:      RetryConfig{Initial: 5 * time.Millisecond, Max: 20 * time.Millisecond, AttemptTimeout: time.Second},
		Answer: func(ctx context.Context, q *Query) (Answer, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.answers++
			return Answer{Value: h.answer, Explanation: "seen it"}, nil
		},
		Consent: func(ctx context.Context, q *Query) (bool, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.asked = append(h.asked, q.Request.QueryID)
			return h.consent, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (h *harness) intake(t *testing.T, raw []byte) *Query {
	t.Helper()
	q, err := h.r.Intake("test", raw)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func wantDrop(t *testing.T, err error, reason string) {
	t.Helper()
	var de *DropError
	if !errors.As(err, &de) || !strings.Contains(de.Error(), reason) {
		t.Fatalf("want a drop saying %q, got %v", reason, err)
	}
}

func TestIntakeDrops(t *testing.T) {
	h := newHarness(t, "")
	for _, tc := range []struct {
		name, reason string
		raw          []byte
	}{
		{"not JSON", "not a valid QueryRequest", []byte(`{`)},
		{"invalid", "not a valid QueryRequest", query(t, time.Hour, func(m map[string]any) { delete(m, "prompt") })},
		{"expired", "expired at", query(t, -time.Second, nil)},
		{"no transport", `delivery.binding "mcp" has no transport`, query(t, time.Hour, func(m map[string]any) { m["delivery"].(map[string]any)["binding"] = "mcp" })},
		{"no endpoint", "delivery.endpoint is absent", query(t, time.Hour, func(m map[string]any) { delete(m["delivery"].(map[string]any), "endpoint") })},
		{"refused destination", "rule http-loopback", query(t, time.Hour, func(m map[string]any) {
			m["delivery"].(map[string]any)["endpoint"] = "http://127.0.0.1:8080/aqp/v1/responses"
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.r.Intake("test", tc.raw)
			wantDrop(t, err, tc.reason)
		})
	}
	if len(h.tr.sent()) != 0 {
		t.Fatal("a dropped query was answered")
	}
}

func TestTimingImmediateAndDeferred(t *testing.T) {
	for _, timing := range []string{"immediate", "deferred"} {
		h := newHarness(t, "")
		q := h.intake(t, query(t, time.Hour, func(m map[string]any) { m["timing"] = timing }))
		res, err := h.r.Respond(context.Background(), q)
		if err != nil || !res.Accepted || len(h.tr.sent()) != 1 {
			t.Fatalf("%s: %v %+v", timing, err, res)
		}
	}
}

// TestTimingWaitsForTheHostSignal: after_outcome_known and after_task_complete wait for their own signal about
// their own subject; without it the query is dropped at expiry, never answered late.
func TestTimingWaitsForTheHostSignal(t *testing.T) {
	subject := aqp.QuerySubject{Kind: aqp.QuerySubjectKindToolCall, ID: "call_1", Protocol: ptr(aqp.QuerySubjectProtocolMCP)}
	other := aqp.QuerySubject{Kind: aqp.QuerySubjectKindToolCall, ID: "call_2", Protocol: ptr(aqp.QuerySubjectProtocolMCP)}
	for _, tc := range []struct {
		timing      string
		signal      func(r *Respondent, s aqp.QuerySubject)
		wrongSignal func(r *Respondent, s aqp.QuerySubject)
	}{
		{"after_outcome_known", (*Respondent).OutcomeKnown, (*Respondent).TaskComplete},
		{"after_task_complete", (*Respondent).TaskComplete, (*Respondent).OutcomeKnown},
	} {
		t.Run(tc.timing+"/signalled", func(t *testing.T) {
			h := newHarness(t, "")
			q := h.intake(t, query(t, time.Hour, func(m map[string]any) { m["timing"] = tc.timing }))
			done := make(chan error, 1)
			go func() { _, err := h.r.Respond(context.Background(), q); done <- err }()
			tc.wrongSignal(h.r, subject)
			tc.signal(h.r, other)
			time.Sleep(100 * time.Millisecond)
			if n := len(h.tr.sent()); n != 0 {
				t.Fatalf("answered before the signal (%d deliveries)", n)
			}
			tc.signal(h.r, subject)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if len(h.tr.sent()) != 1 {
				t.Fatal("not delivered after the signal")
			}
		})
		t.Run(tc.timing+"/signalled before", func(t *testing.T) {
			h := newHarness(t, "")
			tc.signal(h.r, subject)
			q := h.intake(t, query(t, time.Hour, func(m map[string]any) { m["timing"] = tc.timing }))
			if _, err := h.r.Respond(context.Background(), q); err != nil {
				t.Fatal(err)
			}
		})
		t.Run(tc.timing+"/never", func(t *testing.T) {
			h := newHarness(t, "")
			q := h.intake(t, query(t, 300*time.Millisecond, func(m map[string]any) { m["timing"] = tc.timing }))
			_, err := h.r.Respond(context.Background(), q)
			wantDrop(t, err, "while waiting for")
			if len(h.tr.sent()) != 0 || h.answers != 0 {
				t.Fatalf("answered late: %d deliveries, %d answers asked", len(h.tr.sent()), h.answers)
			}
		})
	}
	// A query that expires between intake and Respond is dropped too, whatever its timing.
	h := newHarness(t, "")
	q := h.intake(t, query(t, 50*time.Millisecond, func(m map[string]any) { m["timing"] = "deferred" }))
	time.Sleep(80 * time.Millisecond)
	_, err := h.r.Respond(context.Background(), q)
	wantDrop(t, err, "expired")
	if len(h.tr.sent()) != 0 {
		t.Fatal("a deferred query was answered after its expiry")
	}
}

func ptr[T any](v T) *T { return &v }

func sentResponse(t *testing.T, body []byte) *aqp.QueryResponse {
	t.Helper()
	resp, errs := core.ParseResponse(body)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return resp
}

// TestConsentAskOnce: asked once per scope; the grant survives a restart; the response carries the scope and the
// time the grant was obtained.
func TestConsentAskOnce(t *testing.T) {
	h := newHarness(t, "")
	askOnce := func(scope string) []byte {
		return query(t, time.Hour, func(m map[string]any) { m["consentMode"] = "ask_once"; m["consentScope"] = scope })
	}
	for range 2 {
		if _, err := h.r.Respond(context.Background(), h.intake(t, askOnce("deploys:prod"))); err != nil {
			t.Fatal(err)
		}
	}
	h.start(t) // a restart: a new runtime over the same grant file
	if _, err := h.r.Respond(context.Background(), h.intake(t, askOnce("deploys:prod"))); err != nil {
		t.Fatal(err)
	}
	if len(h.asked) != 1 {
		t.Fatalf("asked %d times for one scope, across a restart; want once", len(h.asked))
	}
	sent := h.tr.sent()
	first, last := sentResponse(t, sent[0]), sentResponse(t, sent[2])
	if last.Consent == nil || !last.Consent.Granted || deref(last.Consent.Scope) != "deploys:prod" || last.Consent.ObtainedAt != first.Consent.ObtainedAt {
		t.Fatalf("consent after the restart: %+v; want the grant of the first ask (%v)", last.Consent, first.Consent.ObtainedAt)
	}
	// Another scope is asked again.
	if _, err := h.r.Respond(context.Background(), h.intake(t, askOnce("deploys:staging"))); err != nil {
		t.Fatal(err)
	}
	if len(h.asked) != 2 {
		t.Fatalf("a new scope was not asked (asked %d)", len(h.asked))
	}
}

func TestConsentAskAlwaysAndNotRequired(t *testing.T) {
	h := newHarness(t, "")
	for range 2 {
		if _, err := h.r.Respond(context.Background(), h.intake(t, query(t, time.Hour, func(m map[string]any) { m["consentMode"] = "ask_always" }))); err != nil {
			t.Fatal(err)
		}
	}
	if len(h.asked) != 2 {
		t.Fatalf("ask_always asked %d times for two queries", len(h.asked))
	}
	for _, b := range h.tr.sent() {
		c := sentResponse(t, b).Consent
		if c == nil || !c.Granted || c.Scope != nil || c.ObtainedAt == "" {
			t.Fatalf("ask_always consent %+v", c)
		}
	}
	h2 := newHarness(t, "")
	if _, err := h2.r.Respond(context.Background(), h2.intake(t, query(t, time.Hour, nil))); err != nil {
		t.Fatal(err)
	}
	if len(h2.asked) != 0 || sentResponse(t, h2.tr.sent()[0]).Consent != nil {
		t.Fatal("not_required asked or sent consent")
	}
}

// TestConsentRefusal: a refusal sends nothing and is recorded, durably.
func TestConsentRefusal(t *testing.T) {
	for _, mode := range []string{"ask_once", "ask_always"} {
		h := newHarness(t, "")
		h.consent = false
		q := h.intake(t, query(t, time.Hour, func(m map[string]any) {
			m["consentMode"] = mode
			if mode == "ask_once" {
				m["consentScope"] = "scope:one"
			}
		}))
		_, err := h.r.Respond(context.Background(), q)
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("%s: want a refusal, got %v", mode, err)
		}
		if len(h.tr.sent()) != 0 || h.answers != 0 {
			t.Fatalf("%s: something was sent after a refusal", mode)
		}
		g, err := OpenGrantFile(h.grants)
		if err != nil {
			t.Fatal(err)
		}
		if rs := g.Refusals(); len(rs) != 1 || rs[0].QueryID != q.Request.QueryID {
			t.Fatalf("%s: refusals recorded: %+v", mode, rs)
		}
		if _, ok, _ := g.LookupGrant("https://collector.example", "scope:one"); ok {
			t.Fatalf("%s: a refusal was stored as a grant", mode)
		}
	}
}

// TestAnswerCheckedBeforeSending: a host answer outside the contract is not sent.
func TestAnswerCheckedBeforeSending(t *testing.T) {
	h := newHarness(t, "")
	h.answer = "maybe"
	_, err := h.r.Respond(context.Background(), h.intake(t, query(t, time.Hour, nil)))
	var ae *AnswerError
	if !errors.As(err, &ae) || !ae.Errors.Has(core.CodeAnswerInvalid) {
		t.Fatalf("want an answer_invalid AnswerError, got %v", err)
	}
	if len(h.tr.sent()) != 0 {
		t.Fatal("an answer outside the contract was sent")
	}
}

// TestRetries: transport failures and retryable receipts resend the same bytes; a non-retryable rejection stops
// at once; retrying stops at expiry.
func TestRetries(t *testing.T) {
	t.Run("transient then accepted", func(t *testing.T) {
		h := newHarness(t, "")
		h.tr.reply = func(n int, resp *aqp.QueryResponse) ([]byte, error) {
			switch n {
			case 1:
				return nil, &TransportError{Binding: "https", Endpoint: endpoint, Err: errors.New("connection reset")}
			case 2:
				return receipt(resp, "rejected", core.CodeRateLimited, nil), nil
			}
			return receipt(resp, "accepted", "", nil), nil
		}
		var events []RetryEvent
		h.r.cfg.OnRetry = func(e RetryEvent) { events = append(events, e) }
		res, err := h.r.Respond(context.Background(), h.intake(t, query(t, time.Hour, nil)))
		if err != nil || !res.Accepted || res.Attempts != 3 {
			t.Fatalf("%v %+v", err, res)
		}
		sent := h.tr.sent()
		for _, b := range sent[1:] {
			if !bytes.Equal(b, sent[0]) {
				t.Fatalf("a retry sent different bytes:\n%s\n%s", sent[0], b)
			}
		}
		if len(events) != 2 {
			t.Fatalf("retry events: %+v", events)
		}
	})
	t.Run("non-retryable stops", func(t *testing.T) {
		h := newHarness(t, "")
		h.tr.reply = func(n int, resp *aqp.QueryResponse) ([]byte, error) {
			return receipt(resp, "rejected", core.CodeAlreadyAnswered, nil), nil
		}
		res, err := h.r.Respond(context.Background(), h.intake(t, query(t, time.Hour, nil)))
		var re *RejectedError
		if !errors.As(err, &re) || re.Code != core.CodeAlreadyAnswered || res.Attempts != 1 {
			t.Fatalf("%v %+v", err, res)
		}
	})
	t.Run("problem stops", func(t *testing.T) {
		h := newHarness(t, "")
		h.tr.reply = func(int, *aqp.QueryResponse) ([]byte, error) {
			return nil, &ProblemError{Binding: "https", Endpoint: endpoint, Detail: "no ids"}
		}
		res, err := h.r.Respond(context.Background(), h.intake(t, query(t, time.Hour, nil)))
		var pe *ProblemError
		if !errors.As(err, &pe) || res.Attempts != 1 {
			t.Fatalf("%v %+v", err, res)
		}
	})
	t.Run("until expiry", func(t *testing.T) {
		h := newHarness(t, "")
		h.tr.reply = func(n int, resp *aqp.QueryResponse) ([]byte, error) {
			return receipt(resp, "rejected", core.CodeUnavailable, nil), nil
		}
		start := time.Now()
		res, err := h.r.Respond(context.Background(), h.intake(t, query(t, 400*time.Millisecond, nil)))
		var de *DeliveryError
		if !errors.As(err, &de) || !de.Expired || res.Attempts < 3 {
			t.Fatalf("%v %+v", err, res)
		}
		if time.Since(start) > 2*time.Second {
			t.Fatalf("kept retrying past expiry: %s", time.Since(start))
		}
	})
	t.Run("retryAfter honoured", func(t *testing.T) {
		h := newHarness(t, "")
		var at []time.Time
		h.tr.reply = func(n int, resp *aqp.QueryResponse) ([]byte, error) {
			at = append(at, time.Now())
			if n == 1 {
				return receipt(resp, "rejected", core.CodeRateLimited, map[string]any{"retryAfter": 1}), nil
			}
			return receipt(resp, "accepted", "", nil), nil
		}
		if _, err := h.r.Respond(context.Background(), h.intake(t, query(t, time.Hour, nil))); err != nil {
			t.Fatal(err)
		}
		if gap := at[1].Sub(at[0]); gap < 900*time.Millisecond {
			t.Fatalf("retried after %s despite retryAfter 1", gap)
		}
	})
	t.Run("receipt for another response", func(t *testing.T) {
		h := newHarness(t, "")
		h.tr.reply = func(n int, resp *aqp.QueryResponse) ([]byte, error) {
			other := *resp
			other.ResponseID = uuid.Must(uuid.NewV7()).String()
			return receipt(&other, "accepted", "", nil), nil
		}
		_, err := h.r.Respond(context.Background(), h.intake(t, query(t, time.Hour, nil)))
		var de *DeliveryError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), "not a valid receipt for this response") {
			t.Fatalf("%v", err)
		}
	})
}

// TestContinuationOffered: a continuation in an accepted receipt comes back as the next query.
func TestContinuationOffered(t *testing.T) {
	h := newHarness(t, "")
	var next []byte
	h.tr.reply = func(n int, resp *aqp.QueryResponse) ([]byte, error) {
		next = query(t, time.Hour, func(m map[string]any) {
			m["subject"] = map[string]any{"kind": "response", "id": resp.ResponseID, "protocol": "aqp"}
			m["response"] = map[string]any{"format": "text"}
		})
		var c map[string]any
		_ = json.Unmarshal(next, &c)
		return receipt(resp, "accepted", "", map[string]any{"continuation": c}), nil
	}
	res, err := h.r.Respond(context.Background(), h.intake(t, query(t, time.Hour, nil)))
	if err != nil || res.Continuation == nil {
		t.Fatalf("%v %+v", err, res)
	}
	h.tr.reply = nil
	h.answer = "more detail"
	if res2, err := h.r.Respond(context.Background(), res.Continuation); err != nil || !res2.Accepted {
		t.Fatalf("answering the continuation: %v", err)
	}
}

// TestOneResponsePerQueryID: a query carried three times — three intakes of the same QueryRequest, as three
// AQP-Query headers, _meta entries or metadata entries carry it — under ask_always is asked about once, answered
// once and delivered once; the other copies are drops (D34, issue 16 item 4). Before, each copy asked again and
// sent a response with its own responseId.
func TestOneResponsePerQueryID(t *testing.T) {
	for _, mode := range []string{"ask_always", "not_required"} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, "")
			raw := query(t, time.Hour, func(m map[string]any) { m["consentMode"] = mode })
			answered := 0
			for i := range 3 {
				_, err := h.r.Respond(context.Background(), h.intake(t, raw))
				if i == 0 && err != nil {
					t.Fatal(err)
				}
				if err == nil {
					answered++
				} else {
					wantDrop(t, err, "answered at most once")
				}
			}
			wantAsked := 0
			if mode == "ask_always" {
				wantAsked = 1
			}
			if answered != 1 || len(h.tr.sent()) != 1 || len(h.asked) != wantAsked || h.answers != 1 {
				t.Fatalf("three copies: %d answered, %d sent, asked %d times, %d answers", answered, len(h.tr.sent()), len(h.asked), h.answers)
			}
		})
	}
}

// TestRespondentKindIsNotCopiedFromTheQuery: with no configured kind a respondent answers as an agent, whatever
// the query's requestedRespondent asks for (D40). A query asking for a human or a system is then not answered:
// the runtime's own paired check finds respondent_mismatch and sends nothing. A configured kind is used as is.
func TestRespondentKindIsNotCopiedFromTheQuery(t *testing.T) {
	for _, tc := range []struct {
		name, configured, requested string // "" requested: the query names none
		sent                        string // the respondent.kind sent; "" when nothing may be sent
	}{
		{"default, none requested", "", "", "agent"},
		{"default, any requested", "", "any", "agent"},
		{"default, agent requested", "", "agent", "agent"},
		{"default, human requested", "", "human", ""},
		{"default, system requested", "", "system", ""},
		{"human configured, human requested", "human", "human", "human"},
		{"human configured, agent requested", "human", "agent", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &fakeTransport{}
			reg, _ := NewRegistry(tr)
			g, err := OpenGrantFile(filepath.Join(t.TempDir(), "grants.json"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := New(Config{Transports: reg, Grants: g,
				Respondent: aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKind(tc.configured), Provenance: aqp.QueryResponseRespondentProvenanceDirect},
				Answer:     func(context.Context, *Query) (Answer, error) { return Answer{Value: "yes"}, nil }})
			if err != nil {
				t.Fatal(err)
			}
			q, err := r.Intake("test", query(t, time.Hour, func(m map[string]any) {
				if tc.requested != "" {
					m["requestedRespondent"] = tc.requested
				}
			}))
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Respond(context.Background(), q)
			sent := tr.sent()
			if tc.sent == "" {
				var ae *AnswerError
				if !errors.As(err, &ae) || !ae.Errors.Has(core.CodeRespondentMismatch) || len(sent) != 0 {
					t.Fatalf("want an AnswerError naming respondent_mismatch and nothing sent, got %v and %d sent", err, len(sent))
				}
				return
			}
			if err != nil || len(sent) != 1 {
				t.Fatalf("want one response sent, got %v and %d sent", err, len(sent))
			}
			resp, _ := core.ParseResponse(sent[0])
			if string(resp.Respondent.Kind) != tc.sent {
				t.Fatalf("respondent.kind %q, want %q", resp.Respondent.Kind, tc.sent)
			}
		})
	}
}

// TestConsentGrantsAreKeyedByIssuer: an ask_once grant is the principal's consent to one collector — the origin of
// the delivery endpoint — for one scope (D38). The same collector on another path, or spelled with its default
// port or in upper case, is the same issuer; another collector that copies the scope text is asked anew.
func TestConsentGrantsAreKeyedByIssuer(t *testing.T) {
	h := newHarness(t, "")
	askOnce := func(endpoint string) []byte {
		return query(t, time.Hour, func(m map[string]any) {
			m["consentMode"], m["consentScope"] = "ask_once", "deploys:prod"
			m["delivery"].(map[string]any)["endpoint"] = endpoint
		})
	}
	for _, tc := range []struct {
		endpoint string
		asked    int // how many times the principal has been asked after this query
	}{
		{"https://collector.example/aqp/v1/responses", 1},
		{"https://collector.example/aqp/v1/responses", 1},
		{"https://COLLECTOR.example:443/other/path", 1},
		{"https://other.example/aqp/v1/responses", 2},
		{"https://collector.example:8443/aqp/v1/responses", 3},
		{"https://other.example/mcp", 3},
	} {
		if _, err := h.r.Respond(context.Background(), h.intake(t, askOnce(tc.endpoint))); err != nil {
			t.Fatal(err)
		}
		if len(h.asked) != tc.asked {
			t.Fatalf("after a query delivered to %s the principal was asked %d times, want %d", tc.endpoint, len(h.asked), tc.asked)
		}
	}
}

// TestIssuer: the origin a grant is keyed by.
func TestIssuer(t *testing.T) {
	for _, tc := range []struct{ endpoint, want string }{
		{"https://collector.example/aqp/v1/responses", "https://collector.example"},
		{"HTTPS://Collector.Example:443/x", "https://collector.example"},
		{"https://collector.example:8443/x", "https://collector.example:8443"},
		{"http://127.0.0.1:80/x", "http://127.0.0.1"},
		{"http://[::1]:8080/mcp", "http://[::1]:8080"},
		{"collector.example/x", ""},
		{"", ""},
	} {
		got, err := Issuer(tc.endpoint)
		if tc.want == "" {
			if err == nil {
				t.Errorf("Issuer(%q) = %q, want an error", tc.endpoint, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Issuer(%q) = %q, %v; want %q", tc.endpoint, got, err, tc.want)
		}
	}
}

// TestGrantFileVersion1GrantsAreAskedAgain: a version 1 file keyed its grants by scope alone, so no grant in it
// says which collector it was given to; opening it drops them (the principal is asked again) and keeps the
// refusals (D38).
func TestGrantFileVersion1GrantsAreAskedAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grants.json")
	v1 := `{"version":1,"grants":{"deploys:prod":{"scope":"deploys:prod","obtainedAt":"2026-07-30T17:00:00.000Z"}},
"refusals":[{"queryId":"q","consentMode":"ask_once","scope":"x","at":"2026-07-30T17:00:00.000Z"}]}`
	if err := os.WriteFile(path, []byte(v1), 0o600); err != nil {
		t.Fatal(err)
	}
	g, err := OpenGrantFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := g.LookupGrant("https://collector.example", "deploys:prod"); ok {
		t.Fatal("a version 1 grant, of no known issuer, was kept")
	}
	if len(g.Refusals()) != 1 {
		t.Fatalf("refusals %+v, want the one recorded", g.Refusals())
	}
	if err := g.SaveGrant(Grant{Scope: "deploys:prod"}); err == nil {
		t.Fatal("a grant without its issuer was saved")
	}
}
