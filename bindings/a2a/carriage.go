package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"

	"iter"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// QueriesKey is the metadata key of a Message or Task that carries queries to a respondent (§6): an array of
// QueryRequest. It is the same in A2A 1.0 and 0.3: the AQP extension's URI followed by /queries, as A2A asks of
// an extension's metadata keys (D32); a Message carrying queries also lists the extension in its extensions.
const QueriesKey = spec.A2AQueriesMetadataKey

// MaxQueries bounds how many queries one Message or Task carries, as in every binding (core.MaxQueries, D34):
// Attach refuses more, and Queries drops the rest, each with a reason.
const MaxQueries = core.MaxQueries

// Carrier is what carries queries over A2A: a Message or a Task an agent returns (§6). Attach, Queries and
// Intake take either, so one name does the job for both, as it does in the other bindings.
type Carrier interface{ *a2a.Message | *a2a.Task }

// Attach adds issued queries (QueryRequest JSON) to a Message's or Task's metadata under QueriesKey, after any it
// already carries; on a Message it also lists the AQP extension in its extensions. Each must be valid — a
// respondent would drop an invalid one — and is kept as its compact text, so its numbers are sent as the issuer
// wrote them. An invalid request, or more than MaxQueries on the object, is an error and nothing is attached.
func Attach[C Carrier](carrier C, requests ...[]byte) error {
	switch c := any(carrier).(type) {
	case *a2a.Message:
		if c == nil {
			return errors.New("a2a: attaching queries to a nil Message")
		}
		if err := attach(&c.Metadata, requests); err != nil {
			return err
		}
		if !slices.Contains(c.Extensions, spec.A2AExtension) {
			c.Extensions = append(c.Extensions, spec.A2AExtension)
		}
		return nil
	case *a2a.Task:
		if c == nil {
			return errors.New("a2a: attaching queries to a nil Task")
		}
		return attach(&c.Metadata, requests)
	}
	return fmt.Errorf("a2a: attaching queries to a %T", carrier) // unreachable: Carrier admits only the two
}

func attach(meta *map[string]any, requests [][]byte) error {
	existing, err := asArray((*meta)[QueriesKey])
	if err != nil {
		return fmt.Errorf("a2a: metadata %q already holds something other than an array of queries: %w", QueriesKey, err)
	}
	if len(existing)+len(requests) > MaxQueries {
		return fmt.Errorf("a2a: %d queries on one object; at most %d are carried", len(existing)+len(requests), MaxQueries)
	}
	out := make([]any, 0, len(existing)+len(requests))
	out = append(out, existing...)
	for i, req := range requests {
		doc := core.Parse(core.KindRequest, req)
		if !doc.Valid() {
			return fmt.Errorf("a2a: query %d is not a valid QueryRequest: %w", i+1, doc.Errors.Err())
		}
		v, err := genericJSON(core.CompactJSON(doc.Value))
		if err != nil {
			return fmt.Errorf("a2a: query %d: %w", i+1, err)
		}
		out = append(out, v)
	}
	if *meta == nil {
		*meta = map[string]any{}
	}
	(*meta)[QueriesKey] = out
	return nil
}

// genericJSON decodes a query into the generic values every A2A transport can carry — maps, slices, strings,
// booleans, nil, and numbers as json.Number, which JSON writes with their exact text and protobuf's Struct (gRPC)
// takes as a number — rather than json.RawMessage, which gRPC's metadata conversion refuses.
func genericJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Queries reads the queries a Message or Task carries in its metadata under QueriesKey, in order: each valid one
// kept, typed, each other entry dropped with the rule it breaks (Index its position in the carried array; -1 when
// the metadata member itself is wrong). A respondent acts on the kept ones and may report the dropped; expiry is
// the respondent runtime's to judge (§7), not the carriage's. Metadata decoded by a2a-go holds numbers as
// float64, so a number beyond a double's precision inside a query (in a jsonSchema) is already rounded when it
// gets here; AQP's own members hold no such numbers, and QueriesFromJSON reads a carrier's bytes exactly.
func Queries[C Carrier](carrier C) ([]core.CarriedQuery, []core.Dropped) {
	switch c := any(carrier).(type) {
	case *a2a.Message:
		if c != nil {
			return queriesIn(c.Metadata)
		}
	case *a2a.Task:
		if c != nil {
			return queriesIn(c.Metadata)
		}
	}
	return nil, nil
}

// QueriesFromJSON reads the queries a Message or Task carries, of either generation, from its JSON: its metadata is
// kept as text, so the queries are exactly the carrier's (no number rounded through a float64), and nothing else of
// the object is decoded. A host that has the reply's bytes should read them with this rather than a decoded object.
func QueriesFromJSON(object []byte) ([]core.CarriedQuery, []core.Dropped) {
	var o struct {
		Metadata map[string]json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(object, &o); err != nil {
		return nil, []core.Dropped{{Index: -1, Rule: core.CarriageArray, Reason: "the carrier is not a JSON object with metadata: " + err.Error()}}
	}
	v, ok := o.Metadata[QueriesKey]
	if !ok {
		return nil, nil
	}
	return queriesIn(map[string]any{QueriesKey: v})
}

// queriesIn reads the queries carried in metadata under QueriesKey (see Queries).
func queriesIn(metadata map[string]any) ([]core.CarriedQuery, []core.Dropped) {
	v, ok := metadata[QueriesKey]
	if !ok {
		return nil, nil
	}
	entries, err := asArray(v)
	if v == nil {
		err = errors.New("it is null") // present but null: no array, so whatever was meant to be carried is lost
	}
	if err != nil {
		return nil, []core.Dropped{{Index: -1, Rule: core.CarriageArray, Reason: fmt.Sprintf("metadata %q must be an array of QueryRequest: %v", QueriesKey, err)}}
	}
	var out []core.CarriedQuery
	var dropped []core.Dropped
	for i, e := range entries {
		if i >= MaxQueries {
			dropped = append(dropped, core.Dropped{Index: i, Reason: fmt.Sprintf("more than %d queries on one object", MaxQueries)})
			continue
		}
		raw, err := entryJSON(e)
		if err != nil {
			dropped = append(dropped, core.Dropped{Index: i, Rule: core.CarriageObject, Reason: err.Error()})
			continue
		}
		q, d := core.CarriedEntry(i, raw)
		if d != nil {
			dropped = append(dropped, *d)
			continue
		}
		out = append(out, q)
	}
	return out, dropped
}

// asArray accepts the forms the carried array takes: decoded by a2a-go ([]any), attached in this process ([]any
// of json.RawMessage), or kept as text (json.RawMessage); nil is an empty array.
func asArray(v any) ([]any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return x, nil
	case json.RawMessage:
		if string(bytes.TrimSpace(x)) == "null" {
			return nil, errors.New("it is null")
		}
		var arr []json.RawMessage
		if err := json.Unmarshal(x, &arr); err != nil {
			return nil, errors.New("its JSON is not an array")
		}
		out := make([]any, len(arr))
		for i, a := range arr {
			out[i] = a
		}
		return out, nil
	}
	return nil, fmt.Errorf("it is a %T", v)
}

func entryJSON(e any) ([]byte, error) {
	if raw, ok := e.(json.RawMessage); ok {
		return raw, nil
	}
	if _, ok := e.(map[string]any); !ok {
		return nil, fmt.Errorf("a %T, not a QueryRequest object", e)
	}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	return b, nil
}

// DraftFunc decides whether to ask about one event an agent returns: it returns the query draft (QueryDraft JSON:
// a request without protocolVersion, queryId, delivery and expiresAt, plus binding and ttlSeconds), or nil to
// ask nothing. The event is the *a2a.Message or *a2a.Task about to be returned.
type DraftFunc func(ctx context.Context, execCtx *a2asrv.ExecutorContext, event a2a.Event) []byte

// AskingExecutor wraps an existing a2a-go/v2 agent so that the messages and tasks it returns carry a query: for
// each *a2a.Message or *a2a.Task the agent yields, Draft says what to ask, Issuer issues it (an in-process
// *collector.Collector or a service.AdminClient for a remote collector), and the issued query is attached under
// QueriesKey before the event goes on. Status and artifact updates pass unchanged. A failure to issue never fails
// the agent's reply: the event goes on without the query and OnError hears why.
type AskingExecutor struct {
	// Agent is the wrapped executor.
	Agent a2asrv.AgentExecutor
	// Issuer issues the drafts.
	Issuer collector.Issuer
	// Draft chooses what to ask about each returned message or task.
	Draft DraftFunc
	// OnError receives issuing failures; nil logs them with slog.Default().
	OnError func(error)
}

var _ a2asrv.AgentExecutor = (*AskingExecutor)(nil)

// Execute runs the agent and attaches queries to the messages and tasks it yields.
func (e *AskingExecutor) Execute(ctx context.Context, execCtx *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		for event, err := range e.Agent.Execute(ctx, execCtx) {
			if err == nil {
				e.ask(ctx, execCtx, event)
			}
			if !yield(event, err) {
				return
			}
		}
	}
}

// Cancel passes the cancelation to the agent unchanged.
func (e *AskingExecutor) Cancel(ctx context.Context, execCtx *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return e.Agent.Cancel(ctx, execCtx)
}

func (e *AskingExecutor) ask(ctx context.Context, execCtx *a2asrv.ExecutorContext, event a2a.Event) {
	var attach func([]byte) error
	switch ev := event.(type) {
	case *a2a.Message:
		attach = func(req []byte) error { return Attach(ev, req) }
	case *a2a.Task:
		attach = func(req []byte) error { return Attach(ev, req) }
	default:
		return
	}
	if e.Draft == nil {
		return
	}
	draft := e.Draft(ctx, execCtx, event)
	if draft == nil {
		return
	}
	e.report(e.issue(ctx, execCtx, draft, attach))
}

func (e *AskingExecutor) issue(ctx context.Context, execCtx *a2asrv.ExecutorContext, draft []byte, attach func([]byte) error) error {
	if e.Issuer == nil {
		return errors.New("a2a: AskingExecutor has no Issuer")
	}
	req, err := e.Issuer.Issue(ctx, draft)
	if err != nil {
		return fmt.Errorf("a2a: issuing the query for task %s: %w", execCtx.TaskID, err)
	}
	return attach(req)
}

func (e *AskingExecutor) report(err error) {
	if err == nil {
		return
	}
	if e.OnError != nil {
		e.OnError(err)
		return
	}
	slog.Default().Warn("the reply goes without its query", "err", err)
}

// Intake hands the queries a Message or Task carries to a respondent runtime, as a host does with every reply it
// receives: each query Queries keeps is taken in (and judged by the runtime: expiry, its transport, its
// destination policy), and every entry not kept comes back as a *respondent.DropError with the carriage's reason
// or the runtime's. source names the object in the host's log ("a2a message <messageId>").
func Intake[C Carrier](r *respondent.Respondent, source string, carrier C) ([]*respondent.Query, []*respondent.DropError) {
	if r == nil {
		return nil, []*respondent.DropError{{Source: source, Reason: "no respondent runtime to take the queries in"}}
	}
	qs, dropped := Queries(carrier)
	return r.IntakeCarried(source, qs, dropped)
}

// Fetch does what an agent host does before it answers a query carried over A2A: a message/send to the agent at
// url (SendText), whose reply — a message or a task — carries queries in its metadata, each taken in through r's
// intake (Intake). The error is a call that failed or a reply of neither kind; a broken or refused query is a
// DropError.
func Fetch(ctx context.Context, hc *http.Client, r *respondent.Respondent, url string) ([]*respondent.Query, []*respondent.DropError, error) {
	res, err := SendText(ctx, hc, url, "hello")
	if err != nil {
		return nil, nil, err
	}
	switch v := res.(type) {
	case *a2a.Message:
		qs, drops := Intake(r, "a2a message "+v.ID, v)
		return qs, drops, nil
	case *a2a.Task:
		qs, drops := Intake(r, "a2a task "+string(v.ID), v)
		return qs, drops, nil
	}
	return nil, nil, fmt.Errorf("SendMessage to %s: the agent replied with a %T, neither a message nor a task", url, res)
}
