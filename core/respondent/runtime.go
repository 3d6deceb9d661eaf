package respondent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/wire"
)

// Query is a validated query the runtime has taken in: its typed form, where it came from and when it expires.
type Query struct {
	// Request is the QueryRequest, valid against its schema.
	Request *aqp.QueryRequest
	// Source says how the query arrived ("AQP-Query header", "file query.json", "continuation of <queryId>"),
	// for the host's log.
	Source string
	// ExpiresAt is Request.ExpiresAt as a time.
	ExpiresAt time.Time
}

// Delivery is the query's delivery member in the Transport's terms.
func (q *Query) Delivery() Delivery {
	d := q.Request.Delivery
	return Delivery{Binding: string(d.Binding), Endpoint: deref(d.Endpoint), Operation: deref(d.Operation), Authorization: deref(d.Authorization)}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// DropError is a query the runtime will not answer, with the reason a host logs: invalid, expired (on arrival
// or while waiting for its timing condition), or naming a delivery the runtime cannot or may not use.
type DropError struct {
	// QueryID is the query's id, when it could be read.
	QueryID string
	// Source is where the query came from.
	Source string
	// Reason says why it was dropped.
	Reason string
	// Err is the underlying error (validation errors, a *PolicyError), when there is one.
	Err error
}

// Error implements the error interface.
func (e *DropError) Error() string {
	id := e.QueryID
	if id == "" {
		id = "(no queryId)"
	}
	if e.Err != nil {
		return fmt.Sprintf("query %s from %s dropped: %s: %v", id, e.Source, e.Reason, e.Err)
	}
	return fmt.Sprintf("query %s from %s dropped: %s", id, e.Source, e.Reason)
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (e *DropError) Unwrap() error { return e.Err }

// RefusedError is a query whose consent the principal refused (or could not be asked): nothing was sent.
type RefusedError struct {
	QueryID, Mode, Scope string
	// Err is the consent callback's error, when asking failed rather than the principal saying no.
	Err error
}

// Error implements the error interface.
func (e *RefusedError) Error() string {
	s := fmt.Sprintf("consent for query %s (%s", e.QueryID, e.Mode)
	if e.Scope != "" {
		s += ", scope " + strconv.Quote(e.Scope)
	}
	s += ") was refused: nothing was sent"
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (e *RefusedError) Unwrap() error { return e.Err }

// AnswerError is an answer from the host that does not satisfy the query's response contract (or a response
// that could not be built from it): it was not sent, because the collector would only reject it.
type AnswerError struct {
	QueryID string
	// Errors are the checks the response failed, with their pointers; empty when Err says what failed.
	Errors core.Errors
	Err    error
}

// Error implements the error interface.
func (e *AnswerError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("the answer to query %s was not sent: %v", e.QueryID, e.Err)
	}
	return fmt.Sprintf("the answer to query %s was not sent: it breaks the query's contract: %v", e.QueryID, e.Errors)
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (e *AnswerError) Unwrap() error {
	if e.Err != nil {
		return e.Err
	}
	return e.Errors.Err()
}

// Answer is what the host answers a query with.
type Answer struct {
	// Value is the answer: any value encoding/json encodes (a json.RawMessage is kept as written).
	Value any
	// Explanation, when not empty, is the response's explanation.
	Explanation string
	// Confidence, when not nil, is the response's confidence (0–1).
	Confidence *float64
}

// Config is what a Respondent is built from. Transports, Answer and Respondent are required.
type Config struct {
	// Transports deliver responses, one per binding.
	Transports *Registry
	// Policy is the destination policy; CheckURL is applied on arrival (the transports apply the rest through the
	// client Policy.Client built). Nil is the strict zero policy.
	Policy *Policy
	// Respondent is who answers: respondent.kind, provenance and optional id of every response. An empty Kind is
	// agent (D40), whatever a query's requestedRespondent asks for: a query asking for another kind is then not
	// answered (an *AnswerError naming respondent_mismatch), rather than answered under a kind that is not true.
	Respondent aqp.QueryResponseRespondent
	// Answer asks the host for the answer to q. An error sends nothing.
	Answer func(ctx context.Context, q *Query) (Answer, error)
	// Consent asks the host's principal whether q may be answered; nil refuses every query that needs consent.
	Consent func(ctx context.Context, q *Query) (bool, error)
	// Grants remembers ask_once grants; nil opens the grant file at DefaultGrantPath.
	Grants GrantStore
	// Retry shapes the retries; the zero value uses the defaults.
	Retry RetryConfig
	// OnRetry, when set, is told of every failed attempt that will be retried (progress for a person watching).
	OnRetry func(RetryEvent)
	// Logger receives drops, refusals and retries; nil discards them.
	Logger *slog.Logger
}

// Respondent is the runtime an agent host embeds: it takes queries in from any carriage, waits for their timing
// condition, applies consent, gets the answer from the host, checks it, delivers it and retries it. It is safe for
// concurrent use; each query is answered by its own Respond call.
type Respondent struct {
	cfg     Config
	policy  *Policy
	grants  GrantStore
	log     *slog.Logger
	signals *signals
	mu      sync.Mutex // serialises ask_once asking, so one scope is asked once even under concurrency

	claimMu sync.Mutex
	claimed map[string]time.Time // queryId → expiresAt of every query Respond has taken up, until it expires
}

// New checks cfg and returns a Respondent.
func New(cfg Config) (*Respondent, error) {
	switch {
	case cfg.Transports == nil || len(cfg.Transports.Bindings()) == 0:
		return nil, errors.New("respondent: Config.Transports is required: at least one transport")
	case cfg.Answer == nil:
		return nil, errors.New("respondent: Config.Answer is required")
	}
	probe := cfg.Respondent
	if probe.Kind == "" {
		probe.Kind = aqp.QueryResponseRespondentKindAgent
	}
	if errs := core.ValidateObject(core.KindResponse, &aqp.QueryResponse{ProtocolVersion: wire.ProtocolVersion(spec.ProtocolVersion),
		ResponseID: "00000000-0000-4000-8000-000000000000", QueryID: "00000000-0000-4000-8000-000000000000",
		Subject: aqp.QuerySubject{Kind: aqp.QuerySubjectKindTask, ID: "x"}, Respondent: probe,
		Answer: json.RawMessage(`true`), CreatedAt: wire.NewDateTime(time.Now())}); len(errs) > 0 {
		return nil, fmt.Errorf("respondent: Config.Respondent is not a valid respondent: %w", errs.Err())
	}
	r := &Respondent{cfg: cfg, policy: cfg.Policy, grants: cfg.Grants, log: cfg.Logger, signals: newSignals(4096)}
	if r.policy == nil {
		r.policy = &Policy{}
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.grants == nil {
		path, err := DefaultGrantPath()
		if err != nil {
			return nil, err
		}
		if r.grants, err = OpenGrantFile(path); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Intake takes in a query as raw JSON bytes, from whatever carried it (a decoded AQP-Query header, a file,
// standard input): it is validated, and dropped — a *DropError the host can log — when it is invalid, expired,
// or names a delivery this respondent has no transport for or may not deliver to.
func (r *Respondent) Intake(source string, raw []byte) (*Query, error) {
	req, errs := core.ParseRequest(raw)
	if len(errs) > 0 {
		return nil, r.drop(&DropError{QueryID: peekQueryID(raw), Source: source, Reason: "not a valid QueryRequest", Err: errs.Err()})
	}
	return r.admit(source, req)
}

// IntakeRequest takes in a typed query, as the MCP and A2A carriages hand them over; it is validated and judged
// exactly as Intake judges bytes.
func (r *Respondent) IntakeRequest(source string, req *aqp.QueryRequest) (*Query, error) {
	if req == nil {
		return nil, r.drop(&DropError{Source: source, Reason: "no query (nil)"})
	}
	if errs := core.ValidateObject(core.KindRequest, req); len(errs) > 0 {
		return nil, r.drop(&DropError{QueryID: req.QueryID, Source: source, Reason: "not a valid QueryRequest", Err: errs.Err()})
	}
	return r.admit(source, req)
}

func (r *Respondent) admit(source string, req *aqp.QueryRequest) (*Query, error) {
	exp, err := req.ExpiresAt.Time()
	if err != nil { // a valid request's expiresAt parses; never trust that blindly
		return nil, r.drop(&DropError{QueryID: req.QueryID, Source: source, Reason: "expiresAt does not parse", Err: err})
	}
	q := &Query{Request: req, Source: source, ExpiresAt: exp}
	if !time.Now().Before(exp) {
		return nil, r.drop(&DropError{QueryID: req.QueryID, Source: source, Reason: "expired at " + string(req.ExpiresAt)})
	}
	d := q.Delivery()
	if _, ok := r.cfg.Transports.Get(d.Binding); !ok {
		return nil, r.drop(&DropError{QueryID: req.QueryID, Source: source,
			Reason: fmt.Sprintf("delivery.binding %q has no transport here (available: %v)", d.Binding, r.cfg.Transports.Bindings())})
	}
	if d.Endpoint == "" {
		return nil, r.drop(&DropError{QueryID: req.QueryID, Source: source, Reason: "delivery.endpoint is absent: nowhere to deliver"})
	}
	if err := r.policy.CheckURL(d.Endpoint); err != nil {
		return nil, r.drop(&DropError{QueryID: req.QueryID, Source: source, Reason: "the delivery endpoint is not an authorised destination", Err: err})
	}
	return q, nil
}

func (r *Respondent) drop(e *DropError) error {
	r.log.Warn("aqp query dropped", "query_id", e.QueryID, "source", e.Source, "reason", e.Reason, "err", e.Err)
	return e
}

// peekQueryID reads a queryId from a document that failed validation, for the drop's log line.
func peekQueryID(raw []byte) string {
	var v struct {
		QueryID string `json:"queryId"`
	}
	if len(raw) <= core.MaxDocumentBytes && json.Unmarshal(raw, &v) == nil && core.IsUUID(v.QueryID) {
		return v.QueryID
	}
	return ""
}

// OutcomeKnown signals that the outcome of subject is known: after_outcome_known queries about it may be
// answered. A signal given before the query arrives counts.
func (r *Respondent) OutcomeKnown(subject aqp.QuerySubject) {
	r.signals.fire("outcome\x00" + subjectKey(subject))
}

// TaskComplete signals that the task subject names is done: after_task_complete queries about it may be
// answered. A signal given before the query arrives counts.
func (r *Respondent) TaskComplete(subject aqp.QuerySubject) {
	r.signals.fire("task\x00" + subjectKey(subject))
}

func subjectKey(s aqp.QuerySubject) string {
	p := ""
	if s.Protocol != nil {
		p = string(*s.Protocol)
	}
	return string(s.Kind) + "\x00" + s.ID + "\x00" + p
}

// Result is what became of a delivered response.
type Result struct {
	// Query is the query answered.
	Query *Query
	// Response is the QueryResponse JSON as sent, every attempt the same bytes.
	Response []byte
	// ResponseID is its responseId.
	ResponseID string
	// Receipt is the collector's QueryReceipt JSON, and Parsed its typed form.
	Receipt []byte
	Parsed  *aqp.QueryReceipt
	// Accepted is true for an accepted receipt.
	Accepted bool
	// Attempts is how many deliveries were made.
	Attempts int
	// Continuation is the follow-up query an accepted receipt carried, taken in like any other query: the host's
	// next query to Respond to. ContinuationDrop says why one was carried but dropped.
	Continuation     *Query
	ContinuationDrop error
}

// RejectedError is a collector's receipt whose status is rejected: the collector read the response and decided
// against it (the code says why). Respond returns it for a rejection it will not retry, with the receipt in its
// Result too; aqp.Client.Submit returns it for every rejection, retryable or not (Receipt.Retryable says which, and
// Receipt.RetryAfter when).
type RejectedError struct {
	QueryID, ResponseID string
	// Code, Message and Pointer are the receipt's error member.
	Code             core.Code
	Message, Pointer string
	// Receipt is the rejected receipt, checked against the response it answers.
	Receipt *aqp.QueryReceipt
}

// Rejection is the RejectedError a rejected receipt says: its ids, and its error member's code, message and
// pointer. Both the runtime and aqp.Client.Submit report a rejection through it.
func Rejection(rec *aqp.QueryReceipt) *RejectedError {
	re := &RejectedError{QueryID: rec.QueryID, ResponseID: rec.ResponseID, Receipt: rec}
	if rec.Error != nil {
		re.Code, re.Message, re.Pointer = core.Code(rec.Error.Code), rec.Error.Message, deref(rec.Error.Pointer)
	}
	return re
}

// Error implements the error interface.
func (e *RejectedError) Error() string {
	s := fmt.Sprintf("response %s to query %s was rejected: %s: %s", e.ResponseID, e.QueryID, e.Code, e.Message)
	if e.Pointer != "" {
		s += " (at " + e.Pointer + ")"
	}
	return s
}

// Respond answers q: it waits for q's timing condition (until q expires: a query whose condition never comes is
// dropped at expiry, never answered late), applies consent, gets the answer from the host, checks it against the
// query's contract, and delivers it, retrying the same response until q expires. It returns the Result with the
// collector's receipt (and a *RejectedError when rejected), a *DropError, a *RefusedError, an *AnswerError or a
// *DeliveryError.
func (r *Respondent) Respond(ctx context.Context, q *Query) (*Result, error) {
	if q == nil || q.Request == nil {
		return nil, errors.New("respondent: Respond: no query")
	}
	req := q.Request
	// One queryId gets at most one response from a runtime (D34): a query carried several times, on one carrier or
	// on several, is asked about, answered and delivered once; every later Respond for it is a drop.
	if !r.claim(req.QueryID, q.ExpiresAt) {
		return nil, r.drop(&DropError{QueryID: req.QueryID, Source: q.Source,
			Reason: "already taken up by this runtime: a query is answered at most once, however often it is carried"})
	}
	if err := r.waitTiming(ctx, q); err != nil {
		r.unclaim(req.QueryID) // nothing was asked or sent: the host may take it up again
		return nil, err
	}
	consent, err := r.consent(ctx, q)
	if err != nil {
		return nil, err
	}
	if !time.Now().Before(q.ExpiresAt) {
		return nil, r.drop(&DropError{QueryID: req.QueryID, Source: q.Source, Reason: "expired while consent was asked"})
	}
	ans, err := r.cfg.Answer(ctx, q)
	if err != nil {
		return nil, &AnswerError{QueryID: req.QueryID, Err: fmt.Errorf("the host gave no answer: %w", err)}
	}
	who := r.cfg.Respondent
	if who.Kind == "" {
		// A program is an agent unless its host says otherwise (D40): the kind is what answers, never what the
		// query asked for, so a query for a human gets respondent_mismatch below and nothing is sent.
		who.Kind = aqp.QueryResponseRespondentKindAgent
	}
	resp, err := core.NewResponse(req, who, ans.Value)
	if err != nil {
		return nil, &AnswerError{QueryID: req.QueryID, Err: err}
	}
	resp.Consent = consent
	if ans.Explanation != "" {
		resp.Explanation = &ans.Explanation
	}
	if ans.Confidence != nil {
		n := wire.Number(strconv.FormatFloat(*ans.Confidence, 'g', -1, 64))
		resp.Confidence = &n
	}
	if errs := core.CheckObjects(req, resp, nil); len(errs) > 0 {
		if errs.Has(core.CodeExpired) {
			return nil, r.drop(&DropError{QueryID: req.QueryID, Source: q.Source, Reason: "expired before the answer was ready"})
		}
		return nil, &AnswerError{QueryID: req.QueryID, Errors: errs}
	}
	body, err := Encode(resp)
	if err != nil {
		return nil, &AnswerError{QueryID: req.QueryID, Err: err}
	}
	return r.deliver(ctx, q, resp, body)
}

// claim takes up queryID for Respond, reporting false when it already is; entries of expired queries are
// forgotten, so the set holds only queries that could still be answered.
func (r *Respondent) claim(queryID string, expiresAt time.Time) bool {
	r.claimMu.Lock()
	defer r.claimMu.Unlock()
	now := time.Now()
	if r.claimed == nil {
		r.claimed = map[string]time.Time{}
	}
	if exp, ok := r.claimed[queryID]; ok && now.Before(exp) {
		return false
	}
	if len(r.claimed) >= 1024 && len(r.claimed)%1024 == 0 {
		for id, exp := range r.claimed {
			if !now.Before(exp) {
				delete(r.claimed, id)
			}
		}
	}
	r.claimed[queryID] = expiresAt
	return true
}

func (r *Respondent) unclaim(queryID string) {
	r.claimMu.Lock()
	defer r.claimMu.Unlock()
	delete(r.claimed, queryID)
}

// Encode is a response's one wire encoding: compact, without HTML escaping (a collector quotes positions in it),
// sent unchanged on every attempt. aqp.Client.Submit encodes with it too.
func Encode(v *aqp.QueryResponse) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// waitTiming waits for q's timing condition, or drops q at its expiry.
func (r *Respondent) waitTiming(ctx context.Context, q *Query) error {
	var key, what string
	switch q.Request.Timing {
	case aqp.QueryRequestTimingImmediate, aqp.QueryRequestTimingDeferred:
		// immediate: now. deferred: the host chose this moment by calling Respond; any moment before expiry.
	case aqp.QueryRequestTimingAfterOutcomeKnown:
		key, what = "outcome\x00"+subjectKey(q.Request.Subject), "the host to signal the subject's outcome is known"
	case aqp.QueryRequestTimingAfterTaskComplete:
		key, what = "task\x00"+subjectKey(q.Request.Subject), "the host to signal the task is complete"
	default:
		return r.drop(&DropError{QueryID: q.Request.QueryID, Source: q.Source, Reason: fmt.Sprintf("unknown timing %q", q.Request.Timing)})
	}
	if key != "" {
		timer := time.NewTimer(time.Until(q.ExpiresAt))
		defer timer.Stop()
		select {
		case <-r.signals.wait(key):
		case <-timer.C:
			return r.drop(&DropError{QueryID: q.Request.QueryID, Source: q.Source, Reason: "expired at " + string(q.Request.ExpiresAt) + " while waiting for " + what})
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if !time.Now().Before(q.ExpiresAt) {
		return r.drop(&DropError{QueryID: q.Request.QueryID, Source: q.Source, Reason: "expired at " + string(q.Request.ExpiresAt)})
	}
	return nil
}

// consent applies q's consentMode: nil consent for not_required, else a granted consent or a *RefusedError.
func (r *Respondent) consent(ctx context.Context, q *Query) (*aqp.QueryResponseConsent, error) {
	req := q.Request
	switch req.ConsentMode {
	case aqp.QueryRequestConsentModeNotRequired:
		return nil, nil
	case aqp.QueryRequestConsentModeAskOnce:
		scope := deref(req.ConsentScope)
		// A grant is the principal's consent to one collector for one scope (D38): another issuer that copies
		// the scope text is asked for anew.
		issuer, err := Issuer(q.Delivery().Endpoint)
		if err != nil {
			return nil, r.drop(&DropError{QueryID: req.QueryID, Source: q.Source, Reason: err.Error()})
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if g, ok, err := r.grants.LookupGrant(issuer, scope); err != nil {
			return nil, fmt.Errorf("respondent: reading consent grants: %w", err)
		} else if ok {
			return &aqp.QueryResponseConsent{Granted: true, ObtainedAt: g.ObtainedAt, Scope: &scope}, nil
		}
		at, err := r.ask(ctx, q, scope)
		if err != nil {
			return nil, err
		}
		if err := r.grants.SaveGrant(Grant{Issuer: issuer, Scope: scope, ObtainedAt: at}); err != nil {
			return nil, fmt.Errorf("respondent: saving the consent grant (nothing was sent): %w", err)
		}
		return &aqp.QueryResponseConsent{Granted: true, ObtainedAt: at, Scope: &scope}, nil
	case aqp.QueryRequestConsentModeAskAlways:
		at, err := r.ask(ctx, q, "")
		if err != nil {
			return nil, err
		}
		return &aqp.QueryResponseConsent{Granted: true, ObtainedAt: at}, nil
	}
	return nil, r.drop(&DropError{QueryID: req.QueryID, Source: q.Source, Reason: fmt.Sprintf("unknown consentMode %q", req.ConsentMode)})
}

// ask asks the principal through the host's callback; a refusal (or a failure to ask) is recorded and returned.
func (r *Respondent) ask(ctx context.Context, q *Query, scope string) (wire.DateTime, error) {
	var granted bool
	var err error
	if r.cfg.Consent == nil {
		err = errors.New("the host has no way to ask its principal (no consent callback)")
	} else {
		granted, err = r.cfg.Consent(ctx, q)
	}
	at := wire.NewDateTime(now())
	if err == nil && granted {
		return at, nil
	}
	mode := string(q.Request.ConsentMode)
	refusal := &RefusedError{QueryID: q.Request.QueryID, Mode: mode, Scope: scope, Err: err}
	if rerr := r.grants.RecordRefusal(Refusal{QueryID: q.Request.QueryID, Mode: mode, Scope: scope, At: at}); rerr != nil {
		r.log.Error("aqp consent refusal not recorded", "query_id", q.Request.QueryID, "err", rerr)
	}
	r.log.Info("aqp consent refused: nothing sent", "query_id", q.Request.QueryID, "consent_mode", mode, "scope", scope, "err", err)
	return "", refusal
}

// signals are the host's timing signals: a channel per key, closed when the signal fires (before or after
// someone waits). At most max keys are remembered; the oldest are forgotten first.
type signals struct {
	mu    sync.Mutex
	m     map[string]chan struct{}
	fired []string
	max   int
}

func newSignals(max int) *signals { return &signals{m: map[string]chan struct{}{}, max: max} }

func (s *signals) ch(key string) chan struct{} {
	c, ok := s.m[key]
	if !ok {
		c = make(chan struct{})
		s.m[key] = c
	}
	return c
}

func (s *signals) wait(key string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch(key)
}

func (s *signals) fire(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.ch(key)
	select {
	case <-c:
		return
	default:
	}
	close(c)
	s.fired = append(s.fired, key)
	if len(s.fired) > s.max {
		delete(s.m, s.fired[0])
		s.fired = s.fired[1:]
	}
}
