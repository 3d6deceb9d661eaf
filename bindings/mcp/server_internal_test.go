package mcp

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// fixedSubmitter answers every submission with one outcome and keeps the last body and Authorization it saw.
type fixedSubmitter struct {
	out        collector.Outcome
	body, auth string
}

func (f *fixedSubmitter) WireRejected(string, string) {}

func (f *fixedSubmitter) Submit(_ context.Context, s collector.Submission) collector.Outcome {
	f.body, f.auth = string(s.Body), s.Authorization
	return f.out
}

const directArgs = `{ "queryId": "0198c7cb-1af1-7e79-bd7f-02f8a89b8857",
  "responseId": "0198c7d0-2180-7729-b005-d33c99fc7452", "answer": "<a & b>" }`

func directBody(id, meta, extra string) string {
	b := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"aqp_submit_response","arguments":` + directArgs + extra
	if meta != "" {
		b += `,"_meta":` + meta
	}
	return b + `}}`
}

const modernMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

var modernHeader = map[string]string{mcp.HeaderProtocolVersion: ProtocolVersionModern, mcp.HeaderMethod: "tools/call", mcp.HeaderName: toolName}

// TestDirectAnswersAsMCPGo: for every request the direct path takes — both eras, integer and string ids, receipts
// accepted and rejected with characters JSON encoders escape — the reply is byte for byte what mcp-go writes for it,
// and the tool saw the arguments exactly as sent; every request it must not take (malformed for its era, another
// method or tool, arguments that are not an object, a session id) goes to mcp-go, so its answer is mcp-go's too.
func TestDirectAnswersAsMCPGo(t *testing.T) {
	accepted := collector.Outcome{Accepted: true, Receipt: []byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","receivedAt":"2026-07-30T17:05:13.000Z","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452","retryable":false,"status":"accepted"}`)}
	rejected := collector.Outcome{Code: core.CodeAnswerInvalid, Receipt: []byte(`{"error":{"code":"answer_invalid","message":"the answer \"<a & b>\" is not one of the choices","pointer":"/answer"},"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","receivedAt":"2026-07-30T17:05:13.000Z","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452","retryable":false,"status":"rejected"}`)}
	with := func(base map[string]string, k, v string) map[string]string {
		out := map[string]string{}
		for a, b := range base {
			out[a] = b
		}
		if v == "" {
			delete(out, k)
		} else {
			out[k] = v
		}
		return out
	}
	for _, c := range []struct {
		name   string
		body   string
		header map[string]string
		direct bool
	}{
		{"2026-07-28", directBody("1", modernMeta, ""), modernHeader, true},
		{"2026-07-28, string id", directBody(`"call-7"`, modernMeta, ""), modernHeader, true},
		{"2026-07-28, clientInfo and a param header", directBody("2", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"x","version":"1"}}`, ""), with(modernHeader, "Mcp-Param-X", "1"), true},
		{"2025-11-25", directBody("3", "", ""), map[string]string{mcp.HeaderProtocolVersion: ProtocolVersionLegacy}, true},
		{"2025-06-18 with progressToken", directBody("4", `{"progressToken":"p"}`, ""), map[string]string{mcp.HeaderProtocolVersion: "2025-06-18"}, true},
		{"2025-03-26, no header", directBody("5", "", ""), nil, true},
		{"2026-07-28, Mcp-Name differs", directBody("6", modernMeta, ""), with(modernHeader, mcp.HeaderName, "other"), false},
		{"2026-07-28, no Mcp-Method", directBody("7", modernMeta, ""), with(modernHeader, mcp.HeaderMethod, ""), false},
		{"2026-07-28, no header version", directBody("8", modernMeta, ""), with(modernHeader, mcp.HeaderProtocolVersion, ""), false},
		{"2026-07-28, no client capabilities", directBody("9", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`, ""), modernHeader, false},
		{"2026-07-28, Last-Event-ID", directBody("10", modernMeta, ""), with(modernHeader, mcp.HeaderLastEventID, "e1"), false},
		{"header modern, body legacy", directBody("11", "", ""), modernHeader, false},
		{"unknown header version", directBody("12", "", ""), map[string]string{mcp.HeaderProtocolVersion: "2024-01-01"}, false},
		{"session id", directBody("13", "", ""), map[string]string{mcp.HeaderSessionID: "s-1"}, false},
		{"task augmentation", directBody("14", "", `,"task":{"ttl":1000}`), nil, false},
		{"fractional id", directBody("1.5", "", ""), nil, false},
		{"null id", directBody("null", "", ""), nil, false},
		{"another tool", strings.Replace(directBody("15", "", ""), `"aqp_submit_response"`, `"other"`, 1), nil, false},
		{"arguments not an object", `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"aqp_submit_response","arguments":[1]}}`, nil, false},
		{"tools/list", `{"jsonrpc":"2.0","id":17,"method":"tools/list","params":{}}`, nil, false},
		{"not JSON", `{"jsonrpc":`, nil, false},
	} {
		for _, out := range []collector.Outcome{accepted, rejected} {
			t.Run(c.name+"/"+string(out.Code), func(t *testing.T) {
				sub := &fixedSubmitter{out: out}
				s := NewServer(sub)
				request := func() *http.Request {
					r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(c.body))
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("Accept", "application/json, text/event-stream")
					r.Header.Set("Authorization", "Bearer cap")
					for k, v := range c.header {
						r.Header.Set(k, v)
					}
					return r
				}
				if got := s.direct(httptest.NewRecorder(), request(), []byte(c.body)); got != c.direct {
					t.Fatalf("direct took it: %v, want %v", got, c.direct)
				}
				ours, theirs := httptest.NewRecorder(), httptest.NewRecorder()
				sub.body = ""
				s.ServeHTTP(ours, request())
				seen := sub.body
				s.http.ServeHTTP(theirs, request())
				if ours.Code != theirs.Code || ours.Header().Get("Content-Type") != theirs.Header().Get("Content-Type") ||
					!bytes.Equal(ours.Body.Bytes(), theirs.Body.Bytes()) {
					t.Fatalf("ours %d %q\n%s\nmcp-go %d %q\n%s", ours.Code, ours.Header().Get("Content-Type"), ours.Body.Bytes(),
						theirs.Code, theirs.Header().Get("Content-Type"), theirs.Body.Bytes())
				}
				if c.direct && (seen != directArgs || sub.auth != "Bearer cap") {
					t.Fatalf("the tool saw %q with %q", seen, sub.auth)
				}
			})
		}
	}
}
