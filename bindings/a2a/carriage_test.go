package a2a_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
)

// echoAgent answers every message with a fixed text message.
type echoAgent struct{}

func (echoAgent) Execute(ctx context.Context, reqCtx *a2asrv.RequestContext, q eventqueue.Queue) error {
	return q.Write(ctx, a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: "done"}))
}

func (echoAgent) Cancel(context.Context, *a2asrv.RequestContext, eventqueue.Queue) error { return nil }

const askDraft = `{"binding":"a2a","type":"feedback","subject":{"kind":"message","id":"m-1","protocol":"a2a"},
"prompt":"Did this answer help?","timing":"immediate","consentMode":"not_required","response":{"format":"choice","choices":["yes","no"]}}`

// TestAskingExecutorEndToEnd: an existing agent wrapped by AskingExecutor returns its reply with a query attached;
// a2a-go's client receives it, QueriesFromMessage extracts it typed and valid, and the binding's client answers it.
func TestAskingExecutorEndToEnd(t *testing.T) {
	ts, c := newService(t)
	asking := &a2ab.AskingExecutor{Agent: echoAgent{}, Issuer: c, OnError: func(err error) { t.Error(err) },
		Draft: func(context.Context, *a2asrv.RequestContext, a2a.Event) []byte { return []byte(askDraft) }}
	agent := httptest.NewServer(a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(asking)))
	defer agent.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
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
