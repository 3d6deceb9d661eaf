package mcp

import (
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// Wire is how a receipt code surfaces on the MCP binding. A tool result has no status code and no headers, so the
// receipt itself says everything: its error.code and — for a retryable code — its retryable and retryAfter members
// travel in structuredContent (and, as the same JSON, in the text content). What the binding adds is isError.
type Wire struct {
	// IsError is the tool result's isError: true for every rejection, so an agent that reads only isError never
	// takes a rejected answer for an accepted one.
	IsError bool
	// RetryAfter says the receipt carries retryable: true and an integer retryAfter (seconds) in
	// structuredContent: the respondent sends the same response again after that long. It is the only retry
	// signal; MCP has no Retry-After header for a tool call.
	RetryAfter bool
}

// wireOf is the binding's one table from receipt code to its wire form. A test fails when a receipt code of
// core.ReceiptCodes has no entry, so a new code cannot reach the wire unmapped.
var wireOf = map[core.Code]Wire{
	core.CodeInvalidResponse:    {IsError: true},
	core.CodeUnsupportedVersion: {IsError: true},
	core.CodeUnauthorized:       {IsError: true},
	core.CodeUnknownQuery:       {IsError: true},
	core.CodeAlreadyAnswered:    {IsError: true},
	core.CodeResponseIDConflict: {IsError: true},
	core.CodeExpired:            {IsError: true},
	core.CodeSubjectMismatch:    {IsError: true},
	core.CodeRespondentMismatch: {IsError: true},
	core.CodeAnswerInvalid:      {IsError: true},
	core.CodeConsentRequired:    {IsError: true},
	core.CodeConsentMismatch:    {IsError: true},
	core.CodeRateLimited:        {IsError: true, RetryAfter: true},
	core.CodeUnavailable:        {IsError: true, RetryAfter: true},
}

// WireFor maps a receipt's error code to its wire form; "" (accepted) is not an error. A code outside the table —
// which the table test rules out for every receipt code — is an error, never a guess.
func WireFor(code core.Code) Wire {
	if code == "" {
		return Wire{}
	}
	if w, ok := wireOf[code]; ok {
		return w
	}
	return Wire{IsError: true}
}

// result turns a collector outcome into the tool's result: the receipt as structuredContent and the same bytes as
// the text content, isError from the table; or, when no receipt could be formed, a tool error (isError, no
// structuredContent) whose text says what the arguments lack.
func result(out collector.Outcome) *mcp.CallToolResult {
	if out.Problem != nil {
		msg := "no receipt can be formed: " + out.Problem.Detail
		if len(out.Problem.Errors) > 0 {
			parts := make([]string, 0, len(out.Problem.Errors))
			for _, e := range out.Problem.Errors {
				parts = append(parts, e.Error())
			}
			msg += " (" + strings.Join(parts, "; ") + ")"
		}
		return toolError(msg)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(string(out.Receipt))},
		StructuredContent: json.RawMessage(out.Receipt),
		IsError:           WireFor(out.Code).IsError,
	}
}

// expected is appended to every tool error, so that the caller learns what the tool takes.
const expected = "; " + toolName + " takes the QueryResponse object itself as its arguments (with its queryId and responseId) and the query's delivery.authorization as the HTTP Authorization header"

func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(msg + expected)}, IsError: true}
}
