package respondent

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/wire"
)

// SignalKind is the kind of a host's timing signal: what it says has happened to a subject, and so which queries
// about that subject it releases.
type SignalKind string

// The signal kinds, one per timing condition a host must signal (D28).
const (
	// SignalOutcomeKnown says the subject's outcome is known: it releases after_outcome_known queries.
	SignalOutcomeKnown SignalKind = "outcome_known"
	// SignalTaskComplete says the task the subject names is done: it releases after_task_complete queries.
	SignalTaskComplete SignalKind = "task_complete"
)

// SignalKinds lists the signal kinds, for messages and completion.
var SignalKinds = []SignalKind{SignalOutcomeKnown, SignalTaskComplete}

// Signal is one timing signal about one subject. Its text form, KIND:SUBJECTKIND[/PROTOCOL]:SUBJECTID (for example
// outcome_known:tool_result/mcp:call_01JQ8QY3EJX9), is how a host outside the process — a command line, the
// conformance runner playing the host — names it: the subject is matched by kind, id and protocol (D3), so the
// protocol must be given when the query's subject has one. The id is everything after the second colon and may
// itself hold colons; kinds and protocols are enum tokens that hold neither ':' nor '/'.
type Signal struct {
	Kind    SignalKind
	Subject aqp.QuerySubject
}

// String is the signal's text form, which ParseSignal reads back.
func (s Signal) String() string {
	sk := string(s.Subject.Kind)
	if s.Subject.Protocol != nil {
		sk += "/" + string(*s.Subject.Protocol)
	}
	return string(s.Kind) + ":" + sk + ":" + s.Subject.ID
}

// ParseSignal reads a signal's text form (see Signal). The subject is checked against the subject schema (kind
// and protocol in their enums, an id of 1–512 characters), so a misspelt signal is refused rather than waited on
// by a query that never matches it.
func ParseSignal(text string) (Signal, error) {
	kind, rest, ok := strings.Cut(text, ":")
	if !ok {
		return Signal{}, fmt.Errorf("signal %q: want KIND:SUBJECTKIND[/PROTOCOL]:SUBJECTID", text)
	}
	if SignalKind(kind) != SignalOutcomeKnown && SignalKind(kind) != SignalTaskComplete {
		return Signal{}, fmt.Errorf("signal %q: kind %q is not one of %s, %s", text, kind, SignalOutcomeKnown, SignalTaskComplete)
	}
	sk, id, ok := strings.Cut(rest, ":")
	if !ok || id == "" {
		return Signal{}, fmt.Errorf("signal %q: no subject id: want KIND:SUBJECTKIND[/PROTOCOL]:SUBJECTID", text)
	}
	subject := aqp.QuerySubject{ID: id}
	if k, p, hasP := strings.Cut(sk, "/"); hasP {
		proto := aqp.QuerySubjectProtocol(p)
		subject.Kind, subject.Protocol = aqp.QuerySubjectKind(k), &proto
	} else {
		subject.Kind = aqp.QuerySubjectKind(sk)
	}
	if errs := checkSubject(subject); len(errs) > 0 {
		return Signal{}, fmt.Errorf("signal %q: not a valid subject: %w", text, errs.Err())
	}
	return Signal{Kind: SignalKind(kind), Subject: subject}, nil
}

// checkSubject validates a subject by the schema, inside a probe response (the schema has no subject-only entry).
func checkSubject(s aqp.QuerySubject) core.Errors {
	return core.ValidateObject(core.KindResponse, &aqp.QueryResponse{ProtocolVersion: wire.ProtocolVersion(spec.ProtocolVersion),
		ResponseID: "00000000-0000-4000-8000-000000000000", QueryID: "00000000-0000-4000-8000-000000000000",
		Subject: s, Respondent: aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKindAgent, Provenance: aqp.QueryResponseRespondentProvenanceDirect},
		Answer: json.RawMessage(`true`), CreatedAt: wire.NewDateTime(time.Now())})
}

// Signal gives a timing signal: OutcomeKnown or TaskComplete for its subject, by its kind.
func (r *Respondent) Signal(s Signal) error {
	switch s.Kind {
	case SignalOutcomeKnown:
		r.OutcomeKnown(s.Subject)
	case SignalTaskComplete:
		r.TaskComplete(s.Subject)
	default:
		return fmt.Errorf("respondent: unknown signal kind %q", s.Kind)
	}
	return nil
}

// Awaits returns the signal q's timing waits for, and false for a query that waits for none (immediate,
// deferred), so a host can say what it is waiting on.
func (q *Query) Awaits() (Signal, bool) {
	switch q.Request.Timing {
	case aqp.QueryRequestTimingAfterOutcomeKnown:
		return Signal{Kind: SignalOutcomeKnown, Subject: q.Request.Subject}, true
	case aqp.QueryRequestTimingAfterTaskComplete:
		return Signal{Kind: SignalTaskComplete, Subject: q.Request.Subject}, true
	}
	return Signal{}, false
}
