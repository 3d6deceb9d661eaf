// Package workload is the submission workload the collector's benchmarks and load run share: the Quickstart's
// query as a draft, and a fresh Quickstart-shaped response to any query issued from it.
package workload

import (
	"time"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// Draft is the Quickstart's query as a QueryDraft (with the consentMode the published example omits).
const Draft = `{"type":"clarification","subject":{"kind":"tool_call","id":"call_01JQ8QY3EJX9","idScope":"local","protocol":"mcp"},
"requestedRespondent":"agent","prompt":"Did this tool result fully answer the user's request?","timing":"after_outcome_known",
"consentMode":"not_required","response":{"format":"choice","choices":["yes","partly","no"]}}`

// Response returns the Quickstart's response to queryID, with a fresh responseId and createdAt now: a submission
// the collector accepts.
func Response(queryID string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","responseId":"` + uuid.Must(uuid.NewV7()).String() + `","queryId":"` + queryID + `",` +
		`"subject":{"kind":"tool_call","id":"call_01JQ8QY3EJX9","protocol":"mcp"},"respondent":{"kind":"agent","provenance":"direct"},` +
		`"answer":"partly","explanation":"The result answered the question after one retry.","confidence":0.92,"createdAt":"` +
		collector.FormatTime(time.Now()) + `"}`)
}

// FixedReceipt is what a baseline server answers every submission with.
var FixedReceipt = []byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452","status":"accepted","retryable":false,"receivedAt":"2026-07-30T17:05:13Z"}`)
