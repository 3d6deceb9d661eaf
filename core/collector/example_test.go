package collector_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/gen/api"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// An application embedding a collector asks a question from a typed draft, and decides the answer a binding
// hands it: the receipt, typed, says what was decided, and Lookup gives back the accepted answer.
func Example() {
	ctx := context.Background()
	c, err := collector.New(collector.Config{
		Store:     memory.New(),
		PublicURL: "https://collector.example",
		Endpoints: []collector.Endpoint{https.Endpoint()},
		NewID:     func() (string, error) { return "0198c7cb-1af1-7e79-bd7f-02f8a89b8857", nil },
	})
	if err != nil {
		panic(err)
	}
	req, err := collector.IssueRequest(ctx, c, api.QueryDraft{
		Type: aqp.QueryRequestTypeFeedback, Prompt: "Did the search answer the question?",
		Subject:     aqp.QuerySubject{Kind: aqp.QuerySubjectKindToolCall, ID: "call_1"},
		ConsentMode: aqp.QueryRequestConsentModeNotRequired, Timing: aqp.QueryRequestTimingImmediate,
		Response: aqp.QueryRequestResponse{Format: aqp.QueryRequestResponseFormatBoolean},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(req.QueryID, req.Delivery.Binding, *req.Delivery.Endpoint)

	// What a binding does with a submission: the body as received and the Authorization header.
	resp, _ := core.NewResponse(req, aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKindAgent,
		Provenance: aqp.QueryResponseRespondentProvenanceDirect}, true)
	body, _ := json.Marshal(resp)
	out := c.Submit(ctx, collector.Submission{Body: body, Authorization: *req.Delivery.Authorization, Binding: https.Name})
	rec, err := out.ParseReceipt()
	if err != nil {
		panic(err)
	}
	fmt.Println(rec.Status, rec.ResponseID == resp.ResponseID)

	st, _ := c.Lookup(ctx, req.QueryID)
	answer, _ := st.Acceptance.ParseResponse()
	fmt.Println(st.State, string(answer.Answer))
	// Output:
	// 0198c7cb-1af1-7e79-bd7f-02f8a89b8857 https https://collector.example/aqp/v1/responses
	// accepted true
	// answered true
}

// A draft the collector cannot issue is an *IssueError naming each member at fault, with the request's pointers.
func ExampleIssueRequest() {
	c, _ := collector.New(collector.Config{Store: memory.New(), PublicURL: "https://collector.example",
		Endpoints: []collector.Endpoint{https.Endpoint()}})
	_, err := collector.IssueRequest(context.Background(), c, map[string]any{
		"binding": "mcp", "ttlSeconds": 2 * 24 * time.Hour / time.Second,
		"type": "feedback", "subject": map[string]any{"kind": "task", "id": "t1"}, "prompt": "Was it right?",
		"timing": "immediate", "consentMode": "not_required", "response": map[string]any{"format": "boolean"},
	})
	var ie *collector.IssueError
	if errors.As(err, &ie) {
		for _, e := range ie.Errors {
			fmt.Println(e.Pointer, e.Message)
		}
	}
	// Output:
	// /binding this collector does not serve the mcp binding; it serves https
	// /ttlSeconds must be at most 86400 (one day), got 172800
}

// An Outcome with a Problem has no receipt to read: the submission did not even name a query.
func ExampleOutcome_ParseReceipt() {
	c, _ := collector.New(collector.Config{Store: memory.New(), PublicURL: "https://collector.example",
		Endpoints: []collector.Endpoint{https.Endpoint()}})
	out := c.Submit(context.Background(), collector.Submission{Body: []byte(`{"answer": true}`), Binding: https.Name})
	_, err := out.ParseReceipt()
	fmt.Println(out.Problem != nil, err != nil)
	// Output:
	// true true
}
