package core_test

import (
	"encoding/json"
	"fmt"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/wire"
)

// A query as a collector issues it (the Quickstart's, with consentMode and a distant expiry).
const exampleQuery = `{
  "protocolVersion": "2026-07-30",
  "queryId": "0198c7cb-1af1-7e79-bd7f-02f8a89b8857",
  "type": "clarification",
  "subject": {"kind": "tool_call", "id": "call_01JQ8QY3EJX9", "idScope": "local", "protocol": "mcp"},
  "requestedRespondent": "agent",
  "prompt": "Did this tool result fully answer the user's request?",
  "consentMode": "not_required",
  "timing": "after_outcome_known",
  "response": {"format": "choice", "choices": ["yes", "partly", "no"]},
  "delivery": {"binding": "https", "endpoint": "https://queries.example/responses", "authorization": "Bearer <scoped-capability>"},
  "expiresAt": "2099-07-30t19:00:00z"
}`

// ParseRequest validates the bytes and hands back the typed query; its date-time keeps the text as written
// (lowercase "t" and "z" are RFC 3339), and Time reads the instant.
func ExampleParseRequest() {
	req, errs := core.ParseRequest([]byte(exampleQuery))
	if errs != nil {
		fmt.Println(errs)
		return
	}
	expires, _ := req.ExpiresAt.Time()
	fmt.Println(req.QueryID, req.Response.Format, req.Response.Choices)
	fmt.Println(req.ExpiresAt, expires.UTC())

	// The Quickstart's request as published omits consentMode: no typed object, and the errors say why.
	_, errs = core.ParseRequest([]byte(`{"protocolVersion": "2026-07-30", "queryId": "0198c7cb-1af1-7e79-bd7f-02f8a89b8857",
	  "type": "clarification", "subject": {"kind": "tool_call", "id": "call_01JQ8QY3EJX9"}, "prompt": "Did it work?",
	  "timing": "immediate", "response": {"format": "boolean"}, "delivery": {"binding": "https"},
	  "expiresAt": "2026-07-30T19:00:00Z"}`))
	fmt.Println(errs)
	// Output:
	// 0198c7cb-1af1-7e79-bd7f-02f8a89b8857 choice [yes partly no]
	// 2099-07-30t19:00:00z 2099-07-30 19:00:00 +0000 UTC
	// /consentMode: missing required member "consentMode" [required, invalid_request]
	// /consentScope: missing required member "consentScope" when consentMode is "ask_once" [required, invalid_request]
}

// ParseResponse keeps numbers exact: confidence is a wire.Number holding "0.90", and the answer is raw JSON.
func ExampleParseResponse() {
	resp, errs := core.ParseResponse([]byte(`{"protocolVersion": "2026-07-30",
	  "responseId": "0198c7d0-2180-7729-b005-d33c99fc7452", "queryId": "0198c7cb-1af1-7e79-bd7f-02f8a89b8857",
	  "subject": {"kind": "tool_call", "id": "call_01JQ8QY3EJX9", "protocol": "mcp"},
	  "respondent": {"kind": "agent", "provenance": "direct"},
	  "answer": {"count": 9007199254740993}, "confidence": 0.90, "createdAt": "2026-12-31T23:59:60Z"}`))
	if errs != nil {
		fmt.Println(errs)
		return
	}
	fmt.Println(string(resp.Answer), *resp.Confidence, resp.CreatedAt)
	out, _ := json.Marshal(resp.Answer)
	fmt.Println(string(out))
	// Output:
	// {"count": 9007199254740993} 0.90 2026-12-31T23:59:60Z
	// {"count":9007199254740993}
}

// ParseReceipt accepts any integer-valued number where the schema says integer: retryAfter 60.0 is 60.
func ExampleParseReceipt() {
	rec, errs := core.ParseReceipt([]byte(`{"protocolVersion": "2026-07-30",
	  "queryId": "0198c7cb-1af1-7e79-bd7f-02f8a89b8857", "responseId": "0198c7d0-2180-7729-b005-d33c99fc7452",
	  "status": "rejected", "retryable": true, "retryAfter": 60.0, "receivedAt": "2026-07-30T17:05:13Z",
	  "error": {"code": "rate_limited", "message": "too many submissions for this query; retry after 60 seconds"}}`))
	if errs != nil {
		fmt.Println(errs)
		return
	}
	fmt.Println(rec.Status, rec.Error.Code, *rec.RetryAfter)
	// Output:
	// rejected rate_limited 60
}

// ValidateObject judges any Go value by the JSON it encodes to; a mistake in a hand-built object is reported at
// its member, and a value with no JSON form is an error, not a panic.
func ExampleValidateObject() {
	rec := aqp.QueryReceipt{
		ProtocolVersion: wire.ProtocolVersion(spec.ProtocolVersion),
		QueryID:         "0198c7cb-1af1-7e79-bd7f-02f8a89b8857",
		ResponseID:      "0198c7d0-2180-7729-b005-d33c99fc7452",
		Status:          aqp.QueryReceiptStatusAccepted,
		ReceivedAt:      "2026-07-30 17:05:13Z",
	}
	fmt.Println(core.ValidateObject(core.KindReceipt, rec))
	fmt.Println(core.ValidateObject(core.KindReceipt, map[string]string{"status": "accepted"})[0])
	fmt.Println(core.ValidateObject(core.KindReceipt, make(chan int)))
	// Output:
	// /receivedAt: "2026-07-30 17:05:13Z" is not a valid date-time: date and time must be separated by "T", got ' ' [format, invalid_receipt]
	// /protocolVersion: missing required member "protocolVersion" [required, invalid_receipt]
	// (root): the value cannot be encoded as JSON: json: unsupported type: chan int [json, invalid_receipt]
}

// NewResponse starts an answer to a query: ids, subject, version and createdAt are filled in; the answer is
// encoded as raw JSON.
func ExampleNewResponse() {
	req, _ := core.ParseRequest([]byte(exampleQuery))
	resp, err := core.NewResponse(req, aqp.QueryResponseRespondent{
		Kind:       aqp.QueryResponseRespondentKindAgent,
		Provenance: aqp.QueryResponseRespondentProvenanceDirect,
	}, "partly")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.QueryID, resp.Subject.ID, resp.ProtocolVersion, string(resp.Answer))
	fmt.Println(len(resp.ResponseID), resp.ResponseID[14:15], len(resp.CreatedAt))
	fmt.Println(core.CheckObjects(req, resp, nil) == nil)
	// Output:
	// 0198c7cb-1af1-7e79-bd7f-02f8a89b8857 call_01JQ8QY3EJX9 2026-07-30 "partly"
	// 36 7 24
	// true
}

// CheckObjects runs each document's own validation and then the paired checks over typed objects.
func ExampleCheckObjects() {
	req, _ := core.ParseRequest([]byte(exampleQuery))
	resp, _ := core.NewResponse(req, aqp.QueryResponseRespondent{
		Kind:       aqp.QueryResponseRespondentKindHuman,
		Provenance: aqp.QueryResponseRespondentProvenanceRelayed,
	}, "maybe")
	for _, e := range core.CheckObjects(req, resp, nil) {
		fmt.Println(e.Code, e.Pointer)
	}
	// Output:
	// respondent_mismatch /respondent/kind
	// answer_invalid /answer
}
