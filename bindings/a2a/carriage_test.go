package a2a_test

import (
	"context"
	"encoding/json"
	"iter"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/service/servicetest"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// echoAgent answers every message with a fixed text message.
type echoAgent struct{}

func (echoAgent) Execute(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("done")), nil)
	}
}

func (echoAgent) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(func(a2a.Event, error) bool) {}
}

const askDraft = `{"binding":"a2a","type":"feedback","subject":{"kind":"message","id":"m-1","protocol":"a2a"},
"prompt":"Did this answer help?","timing":"immediate","consentMode":"not_required","response":{"format":"choice","choices":["yes","no"]}}`

// askingReply runs an echo agent wrapped by AskingExecutor (issuing through c), served by a2a-go/v2's own
// handler and JSON-RPC transport, and returns its reply to "hi" as SendText reads it.
func askingReply(ctx context.Context, t *testing.T, c collector.Issuer) *a2a.Message {
	t.Helper()
	asking := &a2ab.AskingExecutor{Agent: echoAgent{}, Issuer: c, OnError: func(err error) { t.Error(err) },
		Draft: func(context.Context, *a2asrv.ExecutorContext, a2a.Event) []byte { return []byte(askDraft) }}
	agent := httptest.NewServer(a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(asking)))
	defer agent.Close()
	res, err := a2ab.SendText(ctx, agent.Client(), agent.URL, "hi")
	if err != nil {
		t.Fatal(err)
	}
	msg, ok := res.(*a2a.Message)
	if !ok {
		t.Fatalf("reply is %T", res)
	}
	return msg
}

// TestAskingExecutorEndToEnd: an existing a2a-go/v2 agent wrapped by AskingExecutor returns its reply with a query
// attached and the extension listed; SendText receives it, Queries extracts it typed and valid, and the
// binding's client answers it.
func TestAskingExecutorEndToEnd(t *testing.T) {
	e := newService(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg := askingReply(ctx, t, e.c)
	if !slices.Contains(msg.Extensions, spec.A2AExtension) {
		t.Errorf("the reply does not list the extension: %v", msg.Extensions)
	}
	queries, dropped := a2ab.Queries(msg)
	if len(queries) != 1 || len(dropped) != 0 {
		t.Fatalf("queries %d, dropped %v; metadata %v", len(queries), dropped, msg.Metadata)
	}
	q := queries[0]
	if q.Request.Prompt != "Did this answer help?" || q.Request.Delivery.Binding != "a2a" {
		t.Fatalf("query: %s", q.JSON)
	}
	d := respondent.Delivery{Binding: string(q.Request.Delivery.Binding), Endpoint: *q.Request.Delivery.Endpoint,
		Authorization: *q.Request.Delivery.Authorization}
	if q.Request.Delivery.Operation != nil {
		d.Operation = *q.Request.Delivery.Operation
	}
	if d.Operation != a2ab.SendMethod {
		t.Errorf("delivery.operation %q, want %s", d.Operation, a2ab.SendMethod)
	}
	body := []byte(`{"protocolVersion":"2026-07-30","responseId":"` + rid + `","queryId":"` + q.Request.QueryID +
		`","subject":{"kind":"message","id":"m-1","protocol":"a2a"},"respondent":{"kind":"agent","provenance":"direct"},"answer":"yes","createdAt":"` + servicetest.CreatedAt + `"}`)
	receipt, err := (&a2ab.Client{HTTP: e.ts.Client()}).Deliver(ctx, d, body)
	if err != nil || !strings.Contains(string(receipt), `"status":"accepted"`) {
		t.Fatalf("answering the carried query: %v %s", err, receipt)
	}
}

// TestAttachToMessage: attaching to a Message lists the AQP extension in Message.Extensions once, however often queries are
// attached; queries accumulate in order and come back the same through JSON; an invalid one is refused.
func TestAttachToMessage(t *testing.T) {
	e := newService(t)
	r1, _ := e.c.Issue(context.Background(), []byte(askDraft))
	r2, _ := e.c.Issue(context.Background(), []byte(askDraft))
	msg := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("done"))
	msg.Extensions = []string{"https://example.test/other"}
	if err := a2ab.Attach(msg, r1); err != nil {
		t.Fatal(err)
	}
	if err := a2ab.Attach(msg, r2); err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://example.test/other", spec.A2AExtension}; !slices.Equal(msg.Extensions, want) {
		t.Errorf("extensions %v, want %v", msg.Extensions, want)
	}
	if err := a2ab.Attach(msg, []byte(`{"type":"feedback"}`)); err == nil || !strings.Contains(err.Error(), "not a valid QueryRequest") {
		t.Errorf("an invalid query was attached: %v", err)
	}
	if err := a2ab.Attach((*a2a.Message)(nil), r1); err == nil {
		t.Error("attached to a nil Message")
	}
	wire, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	var back a2a.Message
	if err := json.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	for name, qs := range map[string][]core.CarriedQuery{"decoded": first(a2ab.Queries(&back)), "json": first(a2ab.QueriesFromJSON(wire))} {
		if len(qs) != 2 || string(qs[0].JSON) != string(core.CompactJSON(core.Parse(core.KindRequest, r1).Value)) ||
			string(qs[1].JSON) != string(core.CompactJSON(core.Parse(core.KindRequest, r2).Value)) {
			t.Errorf("%s: %d queries back from %s", name, len(qs), wire)
		}
	}
}

func first(qs []core.CarriedQuery, _ []core.Dropped) []core.CarriedQuery { return qs }

// TestQueriesFromJSON: queries are read from a Message or Task of either generation as JSON writes it — 1.0's
// role and state enums, 0.3's kind-tagged objects — and from nothing else.
func TestQueriesFromJSON(t *testing.T) {
	e := newService(t)
	req, err := e.c.Issue(context.Background(), []byte(askDraft))
	if err != nil {
		t.Fatal(err)
	}
	meta := `"metadata":{"` + a2ab.QueriesKey + `":[` + string(req) + `]}`
	for _, tc := range []struct {
		name, object string
		queries      int
		dropped      int
	}{
		{"1.0 message", `{"messageId":"m-1","role":"ROLE_AGENT","parts":[{"text":"done"}],` + meta + `}`, 1, 0},
		{"1.0 task", `{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"},` + meta + `}`, 1, 0},
		{"0.3 message", `{"kind":"message","messageId":"m-1","role":"agent","parts":[{"kind":"text","text":"done"}],` + meta + `}`, 1, 0},
		{"0.3 task", `{"kind":"task","id":"t-1","contextId":"c-1","status":{"state":"completed"},` + meta + `}`, 1, 0},
		{"no metadata", `{"messageId":"m-1","role":"ROLE_AGENT","parts":[]}`, 0, 0},
		{"null", `{"messageId":"m-1","metadata":{"` + a2ab.QueriesKey + `":null}}`, 0, 1},
		{"not an object", `[1]`, 0, 1},
	} {
		qs, dropped := a2ab.QueriesFromJSON([]byte(tc.object))
		if len(qs) != tc.queries || len(dropped) != tc.dropped {
			t.Errorf("%s: %d queries, dropped %v", tc.name, len(qs), dropped)
			continue
		}
		if tc.queries == 1 && (qs[0].Request.Prompt != "Did this answer help?" || string(qs[0].JSON) != string(core.CompactJSON(core.Parse(core.KindRequest, req).Value))) {
			t.Errorf("%s: query %s", tc.name, qs[0].JSON)
		}
	}
}

// TestCarriageOnTasksAndDrops: a query attached to a Task survives JSON; invalid entries are dropped with reasons
// and their index; an invalid query is refused at attach time.
func TestCarriageOnTasksAndDrops(t *testing.T) {
	e := newService(t)
	req, err := e.c.Issue(context.Background(), []byte(askDraft))
	if err != nil {
		t.Fatal(err)
	}
	task := &a2a.Task{ID: "t-1", ContextID: "c-1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	if err := a2ab.Attach(task, req); err != nil {
		t.Fatal(err)
	}
	if err := a2ab.Attach(task, []byte(`{"type":"feedback"}`)); err == nil || !strings.Contains(err.Error(), "not a valid QueryRequest") {
		t.Fatalf("an invalid query was attached: %v", err)
	}
	wire, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	var back a2a.Task
	if err := json.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	if qs, dropped := a2ab.Queries(&back); len(qs) != 1 || len(dropped) != 0 || string(qs[0].JSON) == "" {
		t.Fatalf("task carriage: %d queries, dropped %v", len(qs), dropped)
	}

	var valid any
	_ = json.Unmarshal(req, &valid)
	many := make([]any, a2ab.MaxQueries+1)
	for i := range many {
		many[i] = valid
	}
	for _, tc := range []struct {
		name  string
		value any
		want  []string
		index []int
	}{
		{"not an array", "x", []string{"must be an array"}, []int{-1}},
		{"mixed", []any{valid, 42.0, map[string]any{"type": "feedback"}}, []string{"float64, not a QueryRequest", "not a valid QueryRequest"}, []int{1, 2}},
		{"too many", many, []string{"more than 16 queries"}, []int{a2ab.MaxQueries}},
	} {
		qs, dropped := a2ab.Queries(&a2a.Message{Metadata: map[string]any{a2ab.QueriesKey: tc.value}})
		if len(dropped) != len(tc.want) {
			t.Fatalf("%s: dropped %v", tc.name, dropped)
		}
		for i, w := range tc.want {
			if !strings.Contains(dropped[i].Reason, w) || dropped[i].Index != tc.index[i] {
				t.Errorf("%s: drop %d is %+v, want index %d saying %q", tc.name, i, dropped[i], tc.index[i], w)
			}
		}
		if tc.name == "mixed" && len(qs) != 1 {
			t.Errorf("mixed: %d queries", len(qs))
		}
	}
}

// newRuntime is a respondent runtime that answers "yes" over the A2A binding's client, plain http to loopback
// allowed (the test collector's).
func newRuntime(t *testing.T) *respondent.Respondent {
	t.Helper()
	grants, err := respondent.OpenGrantFile(filepath.Join(t.TempDir(), "grants.json"))
	if err != nil {
		t.Fatal(err)
	}
	policy := &respondent.Policy{AllowHTTPLoopback: true}
	reg, _ := respondent.NewRegistry(&a2ab.Client{HTTP: policy.Client()})
	r, err := respondent.New(respondent.Config{Transports: reg, Policy: policy, Grants: grants,
		Respondent: aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKindAgent, Provenance: aqp.QueryResponseRespondentProvenanceDirect},
		Answer: func(context.Context, *respondent.Query) (respondent.Answer, error) {
			return respondent.Answer{Value: "yes"}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestIntakeMessageAndTask: a host hands an agent's reply to the runtime: the query AskingExecutor attached is
// taken in and answered over A2A; on a Task, the carriage's drop comes back with its reason and index, and the
// runtime's own drop (expired) with the query's id.
func TestIntakeMessageAndTask(t *testing.T) {
	e := newService(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg := askingReply(ctx, t, e.c)
	r := newRuntime(t)
	qs, drops := a2ab.Intake(r, "a2a message "+msg.ID, msg)
	if len(qs) != 1 || len(drops) != 0 {
		t.Fatalf("want 1 query taken in, got %d, drops %v", len(qs), drops)
	}
	out, err := r.Respond(ctx, qs[0])
	if err != nil || !out.Accepted {
		t.Fatalf("answering the carried query over A2A: %v %+v", err, out)
	}

	task := &a2a.Task{ID: "t-1", ContextID: "c-1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	valid, err := e.c.Issue(ctx, []byte(askDraft))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(valid, &m)
	m["queryId"], m["expiresAt"] = "0198c7cb-1af1-7e79-bd7f-02f8a89b8857", "2020-01-01T00:00:00Z"
	short, _ := json.Marshal(m)
	if err := a2ab.Attach(task, valid); err != nil {
		t.Fatal(err)
	}
	task.Metadata[a2ab.QueriesKey] = append(task.Metadata[a2ab.QueriesKey].([]any), 42.0)
	if err := a2ab.Attach(task, short); err != nil {
		t.Fatal(err)
	}
	qs, drops = a2ab.Intake(r, "a2a task t-1", task)
	if len(qs) != 1 || len(drops) != 2 {
		t.Fatalf("task: %d taken in, drops %v", len(qs), drops)
	}
	if drops[0].Source != "a2a task t-1, entry 1" || !strings.Contains(drops[0].Reason, "not a QueryRequest object") ||
		drops[1].QueryID != "0198c7cb-1af1-7e79-bd7f-02f8a89b8857" || !strings.Contains(drops[1].Reason, "expired") {
		t.Fatalf("task drops: %v", drops)
	}
	if qs, drops := a2ab.Intake(r, "none", (*a2a.Task)(nil)); len(qs)+len(drops) != 0 {
		t.Fatalf("a nil task: %v %v", qs, drops)
	}
	if _, drops := a2ab.Intake(nil, "x", msg); len(drops) != 1 {
		t.Fatalf("no runtime: %v", drops)
	}
}
