// Package harness runs collector scenario vectors against a Target — the collector's core called directly, or a
// collector behind a binding — and checks every receipt. It imports no binding and no protocol SDK, like
// store/storetest: each binding supplies a Target from its own test package (how to issue, how to submit, how its
// wire form maps back to a receipt, checking its wire mapping as it goes) and calls Suite. The scenarios, the
// binding-neutral checks and the deterministic collector set-up are shared, so "core and a binding agree" means
// byte-identical receipts for the same scenario.
package harness

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// Target is a collector reachable some way: it issues drafts and takes submissions.
type Target interface {
	// Issue issues a draft and returns the QueryRequest JSON, capability included.
	Issue(ctx context.Context, draft []byte) ([]byte, error)
	// Submit submits a response body with an Authorization header value ("" for none).
	Submit(ctx context.Context, body []byte, authorization string) (Result, error)
	// Close releases the target.
	Close()
}

// Result is what a submission got, mapped back from the binding's wire form. A target checks its own wire
// mapping (status codes, headers, error objects) from its binding's table before returning, and returns an error
// when the wire form is wrong.
type Result struct {
	// Receipt is the receipt JSON exactly as received; nil when Problem.
	Receipt []byte
	// Problem: the target answered that no receipt can be formed.
	Problem bool
}

// Env is a deterministic collector set-up for one scenario: its clock, ids, randomness, rules and a store that can
// be made to fail. A Factory wraps the collector built from Config in its binding.
type Env struct {
	// Config is the collector configuration; a factory may wrap it but must keep its clock, ids and randomness.
	Config collector.Config
	// Store is the scenario's store (Config.Store), which a storeFails step turns off.
	Store *FailingStore
	// Clock is the scenario's clock (Config.Clock), which advance steps move.
	Clock *Clock
	// SchemaTimes holds the collector's timestamps (receivedAt, expiresAt) to the schemas' RFC 3339 date-time only,
	// not to this module's own form, UTC with milliseconds (D20, revised): set for a collector that is not this
	// module's, which D20 binds as a SHOULD.
	SchemaTimes bool
}

// Factory builds a Target for one scenario from its Env.
type Factory func(env *Env) (Target, error)

// NewEnv prepares the collector configuration a scenario asks for.
func NewEnv(sc conformance.Scenario) (*Env, error) {
	start, err := core.ParseDateTime(sc.Start)
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	clock := &Clock{t: start}
	ids := append([]string(nil), sc.QueryIDs...)
	var mu sync.Mutex
	seed := sha256.Sum256([]byte(sc.Name))
	env := &Env{Clock: clock, Store: &FailingStore{Store: memory.New()}}
	env.Config = collector.Config{
		Store:     env.Store,
		PublicURL: "http://collector.test",
		Endpoints: PinnedEndpoints(),
		Clock:     clock.Now,
		NewID: func() (string, error) {
			mu.Lock()
			defer mu.Unlock()
			if len(ids) == 0 {
				return "", fmt.Errorf("scenario %s: the collector asked for more queryIds than queryIds lists", sc.Name)
			}
			id := ids[0]
			ids = ids[1:]
			return id, nil
		},
		Random:    rand.NewChaCha8(seed),
		RateLimit: collector.RateLimit{Disabled: true},
		// Failure budgets are per client address, which differs between targets; collector tests cover them.
		FailureLimit: collector.RateLimit{Disabled: true},
	}
	if sc.RateLimit != nil {
		env.Config.RateLimit = collector.RateLimit{PerSecond: sc.RateLimit.PerSecond, Burst: sc.RateLimit.Burst}
	}
	if len(sc.Rules) > 0 {
		r, err := collector.ParseRules(sc.Rules)
		if err != nil {
			return nil, err
		}
		env.Config.Rules = r
	}
	return env, nil
}

// Transcript is what a scenario run produced: every submission's receipt (nil for a problem), in step order.
type Transcript struct {
	// Receipts holds one entry per submit step.
	Receipts [][]byte
}

// Run plays a scenario against the Target the factory builds and checks every expectation. A failed step is a
// *StepError naming the step and saying what differed; an error before the first step (the set-up) is not.
func Run(ctx context.Context, sc conformance.Scenario, factory Factory) (*Transcript, error) {
	env, err := NewEnv(sc)
	if err != nil {
		return nil, err
	}
	target, err := factory(env)
	if err != nil {
		return nil, err
	}
	defer target.Close()
	r := &run{sc: sc, env: env, target: target, auth: map[string]string{}, requests: map[string]*core.Document{},
		receipts: map[string][]byte{}, queryOf: map[string]string{}, bindings: map[string]string{}}
	tr := &Transcript{}
	for i, st := range sc.Steps {
		rec, err := r.step(ctx, st)
		if err != nil {
			return tr, &StepError{Index: i, Step: st, Requirements: sc.StepRequirements(st), Err: err}
		}
		if st.Do == "submit" {
			tr.Receipts = append(tr.Receipts, rec)
		}
	}
	return tr, nil
}

type run struct {
	sc       conformance.Scenario
	env      *Env
	target   Target
	auth     map[string]string         // query alias -> Authorization header value
	requests map[string]*core.Document // queryId -> issued request
	receipts map[string][]byte         // submit alias -> receipt
	queryOf  map[string]string         // query alias -> queryId
	bindings map[string]string         // query alias -> delivery.binding
}

func (r *run) step(ctx context.Context, st conformance.Step) ([]byte, error) {
	switch st.Do {
	case "issue":
		req, err := r.target.Issue(ctx, st.Draft)
		if st.Refused != nil {
			return nil, checkRefusal(st.Refused, req, err)
		}
		if err != nil {
			return nil, err
		}
		if err := r.remember(st.As, req); err != nil {
			return nil, err
		}
		if st.Binding != "" {
			if got := r.bindings[st.As]; got != st.Binding {
				return nil, fmt.Errorf("the issued request's delivery.binding is %q, want %q", got, st.Binding)
			}
		}
		return nil, nil
	case "race":
		return nil, r.race(ctx, st)
	case "advance":
		r.env.Clock.Advance(time.Duration(st.Seconds * float64(time.Second)))
		return nil, nil
	case "storeFails":
		r.env.Store.Fail(true)
		return nil, nil
	case "storeSlow":
		r.env.Store.Slow(time.Duration(st.Milliseconds * float64(time.Millisecond)))
		return nil, nil
	case "submit":
		return r.submit(ctx, st)
	}
	return nil, fmt.Errorf("unknown step %q", st.Do)
}

// remember records an issued request (or continuation) under its alias.
func (r *run) remember(alias string, req []byte) error {
	doc := core.Parse(core.KindRequest, req)
	if !doc.Valid() {
		return fmt.Errorf("the issued request is invalid: %v\n%s", doc.Errors, req)
	}
	obj := doc.Object()
	if err := r.checkTime("the issued request's expiresAt", obj["expiresAt"]); err != nil {
		return err
	}
	id, _ := obj["queryId"].(string)
	del, _ := obj["delivery"].(map[string]any)
	auth, _ := del["authorization"].(string)
	if !strings.HasPrefix(auth, "Bearer ") {
		return fmt.Errorf("the issued request's delivery.authorization is %q, want Bearer <capability>", auth)
	}
	binding, _ := del["binding"].(string)
	r.auth[alias], r.queryOf[alias], r.requests[id], r.bindings[alias] = auth, id, doc, binding
	return nil
}

func (r *run) submit(ctx context.Context, st conformance.Step) ([]byte, error) {
	body := []byte(st.Response)
	if st.ResponseText != nil {
		body = []byte(*st.ResponseText)
	}
	auth := st.Authorization
	if st.Capability != "" {
		auth = r.auth[st.Capability]
	}
	res, err := r.target.Submit(ctx, body, auth)
	if err != nil {
		return nil, err
	}
	e := st.Expect
	if e.Problem {
		if !res.Problem {
			return nil, fmt.Errorf("want no receipt (a problem), got %s", res.Receipt)
		}
		return nil, nil
	}
	if res.Problem {
		return nil, fmt.Errorf("want a receipt, got a problem")
	}
	rec := core.Parse(core.KindReceipt, res.Receipt)
	if !rec.Valid() {
		return nil, fmt.Errorf("the receipt is invalid: %v\n%s", rec.Errors, res.Receipt)
	}
	m := rec.Object()
	if err := r.checkTime("the receipt's receivedAt", m["receivedAt"]); err != nil {
		return nil, err
	}
	status, _ := m["status"].(string)
	retryable, _ := m["retryable"].(bool)
	errObj, _ := m["error"].(map[string]any)
	code, _ := errObj["code"].(string)
	if status != e.Status || code != e.Code || retryable != e.Retryable {
		return nil, fmt.Errorf("got status %q code %q retryable %v, want %q %q %v: %s", status, code, retryable, e.Status, e.Code, e.Retryable, res.Receipt)
	}
	if e.Pointer != nil {
		if p, _ := errObj["pointer"].(string); p != *e.Pointer {
			return nil, fmt.Errorf("error.pointer %q, want %q", p, *e.Pointer)
		}
	}
	if e.SameReceiptAs != "" && string(r.receipts[e.SameReceiptAs]) != string(res.Receipt) {
		return nil, fmt.Errorf("the receipt differs from %s's:\n got %s\nwant %s", e.SameReceiptAs, res.Receipt, r.receipts[e.SameReceiptAs])
	}
	// The receipt must pair with the response it answers, and an accepted one with the request too.
	resp := core.Parse(core.KindResponse, body)
	pair := core.Pair{Response: resp, Receipt: rec}
	if status == "accepted" {
		id, _ := m["queryId"].(string)
		pair.Request = r.requests[id]
	}
	if errs := core.CheckPair(pair); len(errs) > 0 {
		return nil, fmt.Errorf("the receipt does not pair with the submission: %v", errs)
	}
	cont, hasCont := m["continuation"]
	switch {
	case e.ContinuationAs != "" && !hasCont:
		return nil, fmt.Errorf("want a continuation, the receipt has none: %s", res.Receipt)
	case e.ContinuationAs != "":
		b, _ := json.Marshal(cont)
		if err := r.remember(e.ContinuationAs, b); err != nil {
			return nil, fmt.Errorf("continuation: %w", err)
		}
	case hasCont && e.SameReceiptAs == "":
		return nil, fmt.Errorf("the receipt carries an unexpected continuation: %s", res.Receipt)
	}
	if st.As != "" {
		r.receipts[st.As] = res.Receipt
	}
	return res.Receipt, nil
}

// PinnedEndpoints are the three bindings' endpoints as §6 pins them (from package spec, not from the bindings):
// the endpoints a scenario's collector serves unless a target says otherwise.
func PinnedEndpoints() []collector.Endpoint {
	return []collector.Endpoint{
		{Binding: spec.BindingHTTPS, Path: spec.HTTPSPath},
		{Binding: spec.BindingMCP, Path: spec.MCPPath, Operation: spec.MCPOperation},
		{Binding: spec.BindingA2A, Path: spec.A2APath, Operation: spec.A2AOperation},
	}
}

// Clock is a settable clock for a scenario.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now returns the scenario's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// ErrRefusalNotReadable is what Run returns when a scenario expects a draft refused and the target refused it
// without saying where: its error is not a *collector.IssueError listing {pointer, keyword}. A target that issues
// through a command (aqp conformance collector --issue-cmd) cannot tell; the runner skips such a scenario rather
// than fail the collector for what its issuer cannot report.
var ErrRefusalNotReadable = errors.New("the draft was refused, but the refusal lists no {pointer, keyword} errors to compare")

// checkRefusal holds an issue's outcome to the refusal a scenario expects: an *collector.IssueError whose set of
// {pointer, keyword} equals want.
func checkRefusal(want []conformance.IssueError, req []byte, err error) error {
	if err == nil {
		return fmt.Errorf("the draft was issued, want it refused with %v: %s", want, req)
	}
	var ie *collector.IssueError
	if !errors.As(err, &ie) {
		return fmt.Errorf("%w: %v", ErrRefusalNotReadable, err)
	}
	got := map[conformance.IssueError]bool{}
	for _, e := range ie.Errors {
		got[conformance.IssueError{Pointer: e.Pointer, Keyword: e.Keyword}] = true
	}
	exp := map[conformance.IssueError]bool{}
	for _, e := range want {
		exp[e] = true
	}
	if !maps.Equal(got, exp) {
		return fmt.Errorf("the draft was refused with %v, want exactly %v", ie.Errors, want)
	}
	return nil
}

// raced is one submission of a race step and what it got.
type raced struct {
	body []byte
	res  Result
	err  error
}

// race submits every body of st at once and checks that exactly one distinct body won: each copy of it got the
// same accepted receipt byte for byte, and every other body a rejection that names the winner's answer
// (already_answered, or response_id_conflict for the winner's responseId with other content).
func (r *run) race(ctx context.Context, st conformance.Step) error {
	auth := r.auth[st.Capability]
	out := make([]raced, len(st.Responses))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, b := range st.Responses {
		out[i].body = []byte(b)
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i].res, out[i].err = r.target.Submit(ctx, out[i].body, auth)
		}()
	}
	close(start)
	wg.Wait()
	var winner []byte
	var winnerReceipt []byte
	var winnerID string
	recs := make([]map[string]any, len(out))
	for i, o := range out {
		if o.err != nil {
			return fmt.Errorf("racing submission %d: %w", i, o.err)
		}
		if o.res.Problem {
			return fmt.Errorf("racing submission %d got a problem, want a receipt", i)
		}
		rec := core.Parse(core.KindReceipt, o.res.Receipt)
		if !rec.Valid() {
			return fmt.Errorf("racing submission %d: the receipt is invalid: %v\n%s", i, rec.Errors, o.res.Receipt)
		}
		recs[i] = rec.Object()
		if err := r.checkTime(fmt.Sprintf("racing submission %d: the receipt's receivedAt", i), recs[i]["receivedAt"]); err != nil {
			return err
		}
		resp := core.Parse(core.KindResponse, o.body)
		pair := core.Pair{Response: resp, Receipt: rec}
		if recs[i]["status"] == "accepted" {
			id, _ := recs[i]["queryId"].(string)
			pair.Request = r.requests[id]
			switch {
			case winner == nil:
				winner, winnerReceipt = o.body, o.res.Receipt
				winnerID, _ = resp.Object()["responseId"].(string)
			case string(winner) != string(o.body):
				return fmt.Errorf("two different racing responses were accepted:\n%s\n%s", winner, o.body)
			case string(winnerReceipt) != string(o.res.Receipt):
				return fmt.Errorf("a racing duplicate's receipt differs from the first accepted copy's:\n got %s\nwant %s", o.res.Receipt, winnerReceipt)
			}
		}
		if errs := core.CheckPair(pair); len(errs) > 0 {
			return fmt.Errorf("racing submission %d: the receipt does not pair with the submission: %v", i, errs)
		}
	}
	if winner == nil {
		return fmt.Errorf("none of %d racing submissions was accepted", len(out))
	}
	for i, o := range out {
		if string(o.body) == string(winner) {
			if recs[i]["status"] != "accepted" {
				return fmt.Errorf("racing submission %d, a duplicate of the accepted response, got %s", i, o.res.Receipt)
			}
			continue
		}
		errObj, _ := recs[i]["error"].(map[string]any)
		code, _ := errObj["code"].(string)
		id, _ := core.Parse(core.KindResponse, o.body).Object()["responseId"].(string)
		want := core.CodeAlreadyAnswered
		if strings.EqualFold(id, winnerID) {
			want = core.CodeResponseIDConflict
		}
		if code != string(want) {
			return fmt.Errorf("racing submission %d lost to another response, want %s, got %s", i, want, o.res.Receipt)
		}
	}
	return nil
}

// checkTime holds a collector timestamp to D20's form, unless the collector under test is another implementation
// (Env.SchemaTimes), whose timestamps the receipt and request schemas already hold to RFC 3339.
func (r *run) checkTime(member string, v any) error {
	if r.env.SchemaTimes {
		return nil
	}
	return checkCollectorTime(member, v)
}
