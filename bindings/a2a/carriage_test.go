package a2a_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// echoAgent answers every message with a fixed text message.
type echoAgent struct{}

func (echoAgent) Execute(ctx context.Context, reqCtx *a2asrv.RequestContext, q eventqueue.Queue) error {
	return q.Write(ctx, a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: "done"}))
}

func (echoAgent) Cancel(context.Context, *a2asrv.RequestContext, eventqueue.Queue) error { return nil }

const askDraft = `{"binding":"a2a","type":"feedback","subject":{"kind":"message","id":"m-1","protocol":"a2a"},
"prompt":"Did this answer help?","timing":"immediate","consentMode":"not_required","response":{"format":"choice","choices":["yes","no"]}}`

// askingReply runs an echo agent wrapped by AskingExecutor (issuing through c) and returns its reply to "hi", sent
// with a2a-go's own client.
func askingReply(ctx context.Context, t *testing.T, c collector.Issuer) *a2a.Message {
	t.Helper()
	asking := &a2ab.AskingExecutor{Agent: echoAgent{}, Issuer: c, OnError: func(err error) { t.Error(err) },
		Draft: func(context.Context, *a2asrv.RequestContext, a2a.Event) []byte { return []byte(askDraft) }}
	agent := httptest.NewServer(a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(asking)))
	defer agent.Close()
	client, err := a2aclient.NewFromEndpoints(ctx, []a2a.AgentInterface{{Transport: a2a.TransportProtocolJSONRPC, URL: agent.URL}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.SendMessage(ctx, &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: "hi"})})
	if err != nil {
		t.Fatal(err)
	}
	msg, ok := res.(*a2a.Message)
	if !ok {
		t.Fatalf("reply is %T", res)
	}
	return msg
}

// TestAskingExecutorEndToEnd: an existing agent wrapped by AskingExecutor returns its reply with a query attached;
// a2a-go's client receives it, QueriesFromMessage extracts it typed and valid, and the binding's client answers it.
func TestAskingExecutorEndToEnd(t *testing.T) {
	ts, c := newService(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg := askingReply(ctx, t, c)
	queries, dropped := a2ab.QueriesFromMessage(msg)
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
	body := []byte(`{"protocolVersion":"2026-07-30","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452","queryId":"` + q.Request.QueryID +
		`","subject":{"kind":"message","id":"m-1","protocol":"a2a"},"respondent":{"kind":"agent","provenance":"direct"},"answer":"yes","createdAt":"2026-01-01T00:00:00Z"}`)
	receipt, err := (&a2ab.Client{HTTP: ts.Client()}).Deliver(ctx, d, body)
	if err != nil || !strings.Contains(string(receipt), `"status":"accepted"`) {
		t.Fatalf("answering the carried query: %v %s", err, receipt)
	}
}

// TestCarriageOnTasksAndDrops: a query attached to a Task survives JSON; invalid entries are dropped with reasons;
// an invalid query is refused at attach time.
func TestCarriageOnTasksAndDrops(t *testing.T) {
	_, c := newService(t)
	req, err := c.Issue(context.Background(), []byte(askDraft))
	if err != nil {
		t.Fatal(err)
	}
	task := &a2a.Task{ID: "t-1", ContextID: "c-1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	if err := a2ab.AttachToTask(task, req); err != nil {
		t.Fatal(err)
	}
	if err := a2ab.AttachToTask(task, []byte(`{"type":"feedback"}`)); err == nil || !strings.Contains(err.Error(), "not a valid QueryRequest") {
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
	if qs, dropped := a2ab.QueriesFromTask(&back); len(qs) != 1 || len(dropped) != 0 || string(qs[0].JSON) == "" {
		t.Fatalf("task carriage: %d queries, dropped %v", len(qs), dropped)
	}

	var valid any
	_ = json.Unmarshal(req, &valid)
	for _, tc := range []struct {
		name  string
		value any
		want  []string
	}{
		{"not an array", "x", []string{"must be an array"}},
		{"mixed", []any{valid, 42.0, map[string]any{"type": "feedback"}}, []string{"float64, not a QueryRequest", "not a valid QueryRequest"}},
	} {
		qs, dropped := a2ab.Queries(map[string]any{a2ab.QueriesKey: tc.value})
		if len(dropped) != len(tc.want) {
			t.Fatalf("%s: dropped %v", tc.name, dropped)
		}
		for i, w := range tc.want {
			if !strings.Contains(dropped[i].Reason, w) {
				t.Errorf("%s: drop %d says %q, want %q", tc.name, i, dropped[i].Reason, w)
			}
		}
		if tc.name == "mixed" && (len(qs) != 1 || dropped[0].Index != 1 || dropped[1].Index != 2) {
			t.Errorf("mixed: %d queries, drops %v", len(qs), dropped)
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
	_, c := newService(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg := askingReply(ctx, t, c)
	r := newRuntime(t)
	qs, drops := a2ab.IntakeMessage(r, "a2a message "+msg.ID, msg)
	if len(qs) != 1 || len(drops) != 0 {
		t.Fatalf("want 1 query taken in, got %d, drops %v", len(qs), drops)
	}
	out, err := r.Respond(ctx, qs[0])
	if err != nil || !out.Accepted {
		t.Fatalf("answering the carried query over A2A: %v %+v", err, out)
	}

	// A Task carrying a valid query, an entry that is no query, and an expired one.
	task := &a2a.Task{ID: "t-1", ContextID: "c-1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	valid, err := c.Issue(ctx, []byte(askDraft))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(valid, &m)
	m["queryId"], m["expiresAt"] = "0198c7cb-1af1-7e79-bd7f-02f8a89b8857", "2020-01-01T00:00:00Z"
	short, _ := json.Marshal(m)
	if err := a2ab.AttachToTask(task, valid); err != nil {
		t.Fatal(err)
	}
	task.Metadata[a2ab.QueriesKey] = append(task.Metadata[a2ab.QueriesKey].([]any), 42.0)
	if err := a2ab.AttachToTask(task, short); err != nil {
		t.Fatal(err)
	}
	qs, drops = a2ab.IntakeTask(r, "a2a task t-1", task)
	if len(qs) != 1 || len(drops) != 2 {
		t.Fatalf("task: %d taken in, drops %v", len(qs), drops)
	}
	if drops[0].Source != "a2a task t-1, entry 1" || !strings.Contains(drops[0].Reason, "not a QueryRequest object") ||
		drops[1].QueryID != "0198c7cb-1af1-7e79-bd7f-02f8a89b8857" || !strings.Contains(drops[1].Reason, "expired") {
		t.Fatalf("task drops: %v", drops)
	}
	if qs, drops := a2ab.IntakeTask(r, "none", nil); len(qs)+len(drops) != 0 {
		t.Fatalf("a nil task: %v %v", qs, drops)
	}
	if _, drops := a2ab.IntakeMessage(nil, "x", msg); len(drops) != 1 {
		t.Fatalf("no runtime: %v", drops)
	}
}
