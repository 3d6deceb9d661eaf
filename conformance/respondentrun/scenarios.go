package respondentrun

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// Check is one verdict on a run: Judge says whether it holds, with the evidence either way.
type Check struct {
	Name         string
	Requirements []string
	Judge        func(r *run) (evidence string, ok bool)
}

// Scenario is one query the carrier carries, shaped to test one behaviour, and the checks on what arrives.
type Scenario struct {
	Name string
	// ConsentMode is the query's consentMode.
	ConsentMode string
	// RefuseConsent makes the runner, as the principal, refuse consent ("n" on standard input).
	RefuseConsent bool
	// Expired issues the query already expired.
	Expired bool
	// Unauthorised points the query's delivery at an address no destination rule allows (unauthorisedHost).
	Unauthorised bool
	// FailOnce makes the collector answer the first submission with a retryable `unavailable` receipt.
	FailOnce bool
	// Type is the query's type; empty is feedback. continuationType gets a continuation when answered.
	Type string
	// Timing is the query's timing; empty is immediate.
	Timing string
	// TTLSeconds is the query's lifetime; 0 is 300. A short one is for a query the respondent must give up on.
	TTLSeconds int
	// Signals are the timing signals the runner, as the host, has given before the respondent starts: {signals}
	// in the command expands to them (or to none).
	Signals []HostSignal
	Checks  []Check
}

// HostSignal is a timing signal the runner gives as the respondent's host: Kind about the subject
// {kind: tool_result, id: "conformance-" + About, protocol: the binding}. About is the scenario's name for the
// subject of its own query.
type HostSignal struct {
	Kind  respondent.SignalKind
	About string
}

// subject is the subject of the query a scenario named name carries over binding.
func subject(name, binding string) aqp.QuerySubject {
	p := aqp.QuerySubjectProtocol(binding)
	return aqp.QuerySubject{Kind: aqp.QuerySubjectKindToolResult, ID: "conformance-" + name, Protocol: &p}
}

// needsHost says whether the scenario needs the runner to tell the respondent which signals its host gave: a
// timing that waits for one, or signals given.
func (sc Scenario) needsHost() bool {
	return (sc.Timing != "" && sc.Timing != "immediate") || len(sc.Signals) > 0
}

// signals is what {signals} expands to over binding: the signals' text forms (respondent.Signal), comma-separated,
// or none.
func (sc Scenario) signals(binding string) string {
	if len(sc.Signals) == 0 {
		return "none"
	}
	out := make([]string, len(sc.Signals))
	for i, hs := range sc.Signals {
		out[i] = respondent.Signal{Kind: hs.Kind, Subject: subject(hs.About, binding)}.String()
	}
	return strings.Join(out, ",")
}

// draft is the scenario's QueryDraft for binding: a choice question the respondent under test answers "yes"
// (give it --answer-text yes, or the equivalent).
func (sc Scenario) draft(binding string) []byte {
	typ, timing, ttl := cmp.Or(sc.Type, "feedback"), cmp.Or(sc.Timing, "immediate"), cmp.Or(sc.TTLSeconds, 300)
	return []byte(`{"type":"` + typ + `","binding":"` + binding + `","subject":{"kind":"tool_result","id":"conformance-` + sc.Name + `","protocol":"` + binding + `"},` +
		`"prompt":"Did this answer help? (answer yes)","response":{"format":"choice","choices":["yes","no"]},` +
		`"timing":"` + timing + `","consentMode":"` + sc.ConsentMode + `","ttlSeconds":` + strconv.Itoa(ttl) + `}`)
}

// unsignalledTTL is the lifetime of the query whose timing condition never comes: long enough for the respondent
// to take it in, short enough that the run waits for its expiry.
const unsignalledTTL = 5

// giveUpGrace is how long past the expiry of the query whose condition never comes the runner lets the respondent
// run before it is stopped and judged to have waited past expiry.
const giveUpGrace = 20 * time.Second

// Scenarios are the respondent scenarios, each check naming the requirements of conformance/requirements.json it
// proves.
var Scenarios = []Scenario{
	{Name: "answer", ConsentMode: "not_required", Checks: []Check{
		{"a response arrives over the query's binding", []string{"AQP-RESP-DELIVER"}, deliveredAccepted},
		{"the response is a valid QueryResponse", []string{"AQP-OBJ-RESPONSE"}, eachValid},
		{"queryId is the query's", []string{"AQP-PAIR-QUERY-MISMATCH"}, queryIDRight},
		{"subject is copied from the query", []string{"AQP-PAIR-SUBJECT-MISMATCH", "AQP-D3"}, subjectCopied},
		{"the capability travels as the Authorization header", []string{"AQP-BIND-AUTH-HEADER"}, authorizationHeader},
	}},
	{Name: "retry-after-unavailable", ConsentMode: "not_required", FailOnce: true, Checks: []Check{
		{"retried after a retryable receipt", []string{"AQP-RESP-RETRY"}, retried},
		{"the retry has the same responseId", []string{"AQP-RESP-RETRY"}, sameResponseID},
		{"the retry has the same bytes", []string{"AQP-RESP-RETRY"}, sameBytes},
	}},
	{Name: "expired-query", ConsentMode: "not_required", Expired: true, Checks: []Check{
		{"nothing is sent for an expired query", []string{"AQP-RESP-VALIDATE"}, absent(nothingSent)},
	}},
	{Name: "unauthorised-destination", ConsentMode: "not_required", Unauthorised: true, Checks: []Check{
		{"nothing is sent to " + unauthorisedHost, []string{"AQP-RESP-DESTINATION", "AQP-D29"}, absent(nothingSent)},
	}},
	{Name: "consent-refused", ConsentMode: "ask_always", RefuseConsent: true, Checks: []Check{
		{"nothing is sent when consent is refused", []string{"AQP-RESP-CONSENT"}, absent(nothingSent)},
	}},
	{Name: "consent-granted", ConsentMode: "ask_always", Checks: []Check{
		{"the principal's grant travels as consent, accepted", []string{"AQP-RESP-CONSENT", "AQP-PAIR-CONSENT-REQUIRED"}, consentGranted},
	}},
	{Name: "outcome-signalled", ConsentMode: "not_required", Timing: "after_outcome_known",
		Signals: []HostSignal{{respondent.SignalOutcomeKnown, "outcome-signalled"}}, Checks: []Check{
			{"answered: the host signalled the outcome before the query arrived", []string{"AQP-RESP-TIMING", "AQP-D28"}, answeredAfterSignal},
		}},
	{Name: "task-signalled", ConsentMode: "not_required", Timing: "after_task_complete",
		Signals: []HostSignal{{respondent.SignalTaskComplete, "task-signalled"}}, Checks: []Check{
			{"answered: the host signalled the task done before the query arrived", []string{"AQP-RESP-TIMING", "AQP-D28"}, answeredAfterSignal},
		}},
	// The host signals the other kind for this subject, and this kind for another subject: neither is the query's.
	{Name: "outcome-unsignalled", ConsentMode: "not_required", Timing: "after_outcome_known", TTLSeconds: unsignalledTTL,
		Signals: []HostSignal{{respondent.SignalTaskComplete, "outcome-unsignalled"}, {respondent.SignalOutcomeKnown, "outcome-unsignalled-other"}}, Checks: []Check{
			{"nothing is sent: no outcome signal for the query's subject", []string{"AQP-RESP-TIMING", "AQP-D28"}, absent(nothingSentUnsignalled)},
			{"the respondent gives the query up at its expiry", []string{"AQP-D28"}, gaveUp},
		}},
	{Name: "continuation", ConsentMode: "not_required", Type: continuationType, Checks: []Check{
		{"the continuation in the accepted receipt is answered, accepted", []string{"AQP-RESP-CONTINUATION"}, continuationAnswered},
	}},
}

// answeredAfterSignal: a response to the query arrived and was accepted (the host's signal released it).
// answeredAfterSignal: an answer was accepted, over whatever binding (which binding is AQP-RESP-DELIVER's check).
func answeredAfterSignal(r *run) (string, bool) {
	ev, ok := answered(r)
	if !ok {
		return ev + " although the host gave the query's signal (" + r.signals + ") before it arrived", false
	}
	return ev + ", after the host's signal " + r.signals, true
}

// nothingSentUnsignalled: nothing arrived, although the host gave other signals (another kind for this subject,
// this kind for another subject).
func nothingSentUnsignalled(r *run) (string, bool) {
	ev, ok := nothingSent(r)
	return ev + "; the host gave only " + r.signals, ok
}

// gaveUp: the respondent waited for the signal until the query expired — it did not end before — and then ended by
// itself, rather than being stopped giveUpGrace after the expiry.
func gaveUp(r *run) (string, bool) {
	switch {
	case r.timedOut:
		return fmt.Sprintf("the respondent was still running %s after the query expired at %s (stopped by the runner)", giveUpGrace, r.query.ExpiresAt.Format(time.RFC3339Nano)), false
	case r.ended.Before(r.query.ExpiresAt):
		return fmt.Sprintf("the respondent ended (%s) %s before the query expired: it gave the query up while its host's signal could still come, instead of at expiry",
			r.exit, r.query.ExpiresAt.Sub(r.ended).Round(time.Millisecond)), false
	}
	return fmt.Sprintf("the respondent waited until the query expired, then ended by itself (%s, %s after the expiry)", r.exit, r.ended.Sub(r.query.ExpiresAt).Round(100*time.Millisecond)), true
}

// continuationAnswered: the first answer was accepted with a continuation (the embedded collector's rule), and a
// response to the continuation's queryId arrived and was accepted too.
func continuationAnswered(r *run) (string, bool) {
	var first *arrival
	for i, a := range r.arrivals {
		if m, _ := parseResponse(a); m["queryId"] == r.query.QueryID && a.Accepted {
			first = &r.arrivals[i]
			break
		}
	}
	if first == nil {
		return fmt.Sprintf("no answer to query %s was accepted (%d submission(s)), so no continuation was offered", r.query.QueryID, len(r.arrivals)), false
	}
	var rec struct {
		Continuation *struct {
			QueryID string `json:"queryId"`
			Prompt  string `json:"prompt"`
		} `json:"continuation"`
	}
	if err := json.Unmarshal(first.Receipt, &rec); err != nil || rec.Continuation == nil {
		return "the accepted receipt carried no continuation: the runner's continuation rule did not apply", false
	}
	cont := rec.Continuation.QueryID
	var answers []arrival
	for _, a := range r.arrivals {
		if m, _ := parseResponse(a); m["queryId"] == cont {
			answers = append(answers, a)
		}
	}
	switch {
	case len(answers) == 0:
		return fmt.Sprintf("the accepted receipt carried continuation %s (%q); no response to it arrived", cont, rec.Continuation.Prompt), false
	case !answers[len(answers)-1].Accepted:
		return fmt.Sprintf("continuation %s: %d response(s), the last answered %s", cont, len(answers), answers[len(answers)-1].Code), false
	}
	return fmt.Sprintf("continuation %s (%q) answered over %s, accepted", cont, rec.Continuation.Prompt, answers[len(answers)-1].Binding), true
}

// authorizationHeader: every submission carried the query's delivery.authorization as its Authorization header.
func authorizationHeader(r *run) (string, bool) {
	if len(r.arrivals) == 0 {
		return "no response reached the collector", false
	}
	for i, a := range r.arrivals {
		if a.Authorization != r.query.Delivery.Authorization {
			return fmt.Sprintf("submission %d carried Authorization %q, not the query's delivery.authorization", i+1, a.Authorization), false
		}
	}
	return fmt.Sprintf("%d submission(s), each with the query's capability in its Authorization header", len(r.arrivals)), true
}

// consentGranted: the principal granted consent ("y"), so exactly one response arrived, carrying consent with
// granted true, and it was accepted.
func consentGranted(r *run) (string, bool) {
	if len(r.arrivals) == 0 {
		return "nothing reached the collector although the principal granted consent", false
	}
	last := r.arrivals[len(r.arrivals)-1]
	m, errs := parseResponse(last)
	if len(errs) > 0 {
		return fmt.Sprintf("the response is not a valid QueryResponse: %v", errs), false
	}
	c, _ := m["consent"].(map[string]any)
	if c["granted"] != true {
		return fmt.Sprintf("the response carries consent %v, want granted true", m["consent"]), false
	}
	if !last.Accepted {
		return fmt.Sprintf("the response with consent was answered %s", last.Code), false
	}
	return fmt.Sprintf("consent granted at %v, accepted", c["obtainedAt"]), true
}

func deliveredAccepted(r *run) (string, bool) {
	if len(r.arrivals) == 0 {
		return "no response reached the collector", false
	}
	for i, a := range r.arrivals {
		if a.Binding != r.binding {
			return fmt.Sprintf("submission %d arrived over %s, but the query's delivery names %s", i+1, a.Binding, r.binding), false
		}
	}
	last := r.arrivals[len(r.arrivals)-1]
	if !last.Accepted {
		return fmt.Sprintf("%d submission(s) over %s, none accepted (last: %s)", len(r.arrivals), r.binding, last.Code), false
	}
	return fmt.Sprintf("%d submission(s) over %s, accepted", len(r.arrivals), r.binding), true
}

// answered: the last submission was accepted, whichever binding carried it.
func answered(r *run) (string, bool) {
	if len(r.arrivals) == 0 {
		return "no response reached the collector", false
	}
	last := r.arrivals[len(r.arrivals)-1]
	if !last.Accepted {
		return fmt.Sprintf("%d submission(s), none accepted (last: %s)", len(r.arrivals), last.Code), false
	}
	return fmt.Sprintf("%d submission(s), the last accepted", len(r.arrivals)), true
}

func eachValid(r *run) (string, bool) {
	if len(r.arrivals) == 0 {
		return "no response reached the collector", false
	}
	for i, a := range r.arrivals {
		if _, errs := parseResponse(a); len(errs) > 0 {
			return fmt.Sprintf("submission %d is not a valid QueryResponse: %v", i+1, errs), false
		}
	}
	return fmt.Sprintf("%d submission(s), each a valid QueryResponse", len(r.arrivals)), true
}

func queryIDRight(r *run) (string, bool) {
	if len(r.arrivals) == 0 {
		return "no response reached the collector", false
	}
	for i, a := range r.arrivals {
		m, _ := parseResponse(a)
		if got, _ := m["queryId"].(string); got != r.query.QueryID {
			return fmt.Sprintf("submission %d names queryId %q, the query is %s", i+1, got, r.query.QueryID), false
		}
	}
	return "queryId " + r.query.QueryID, true
}

func subjectCopied(r *run) (string, bool) {
	if len(r.arrivals) == 0 {
		return "no response reached the collector", false
	}
	for i, a := range r.arrivals {
		m, _ := parseResponse(a)
		if !reflect.DeepEqual(m["subject"], r.query.Subject) {
			return fmt.Sprintf("submission %d has subject %v, the query's is %v", i+1, m["subject"], r.query.Subject), false
		}
	}
	return fmt.Sprintf("subject %v", r.query.Subject), true
}

// retried: the first submission got the injected unavailable receipt and a later one was accepted.
func retried(r *run) (string, bool) {
	switch {
	case len(r.arrivals) == 0:
		return "no response reached the collector", false
	case r.arrivals[0].Code != core.CodeUnavailable:
		return fmt.Sprintf("the first submission was answered %q, not the injected unavailable", r.arrivals[0].Code), false
	case len(r.arrivals) == 1:
		return "the response was not sent again after the retryable unavailable receipt", false
	case !r.arrivals[len(r.arrivals)-1].Accepted:
		return fmt.Sprintf("%d submissions, the last answered %q", len(r.arrivals), r.arrivals[len(r.arrivals)-1].Code), false
	}
	return fmt.Sprintf("unavailable, then %d more submission(s), the last accepted", len(r.arrivals)-1), true
}

func responseID(a arrival) string {
	m, _ := parseResponse(a)
	id, _ := m["responseId"].(string)
	return id
}

func sameResponseID(r *run) (string, bool) {
	if len(r.arrivals) < 2 {
		return fmt.Sprintf("%d submission(s): nothing to compare", len(r.arrivals)), false
	}
	first := responseID(r.arrivals[0])
	for i, a := range r.arrivals[1:] {
		if id := responseID(a); id != first || id == "" {
			return fmt.Sprintf("submission %d has responseId %q, the first had %q", i+2, id, first), false
		}
	}
	return "every submission has responseId " + first, true
}

func sameBytes(r *run) (string, bool) {
	if len(r.arrivals) < 2 {
		return fmt.Sprintf("%d submission(s): nothing to compare", len(r.arrivals)), false
	}
	for i, a := range r.arrivals[1:] {
		if !bytes.Equal(a.Body, r.arrivals[0].Body) {
			return fmt.Sprintf("submission %d differs from the first (%d bytes, first %d)", i+2, len(a.Body), len(r.arrivals[0].Body)), false
		}
	}
	return fmt.Sprintf("%d submissions of the same %d bytes", len(r.arrivals), len(r.arrivals[0].Body)), true
}

// absent wraps a check that passes because something did not happen: it counts only once the respondent has shown,
// over the same column in the same run, that it is alive and able to deliver (an answer the collector accepted,
// or a control query answered now); otherwise the check is inconclusive, never a pass — a respondent that never
// started sends nothing too.
func absent(judge func(r *run) (string, bool)) func(r *run) (string, bool) {
	return func(r *run) (string, bool) {
		ev, ok := judge(r)
		if ok && (r.alive == nil || !r.alive()) {
			r.inconclusive = true
			return "inconclusive: " + ev + ", but the respondent has not shown over this column that it delivers at all " +
				"(no answer of its was accepted here, not even a control query's), so nothing being sent proves nothing", false
		}
		return ev, ok
	}
}

func nothingSent(r *run) (string, bool) {
	if n := len(r.arrivals); n > 0 {
		return fmt.Sprintf("%d submission(s) reached the collector (first: %.200s)", n, r.arrivals[0].Body), false
	}
	return "nothing reached the collector", true
}
