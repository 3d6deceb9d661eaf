package a2a_test

import (
	"context"
	"encoding/json"
	"github.com/agentqueryprotocol/aqp-go/bindings/a2a/a2atest"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

const adminToken = "test-admin"

// newService serves HTTPS and A2A over one memory store, as `aqp serve` does.
func newService(t testing.TB) (*httptest.Server, *collector.Collector) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	svc, err := service.New(service.Config{Collector: collector.Config{Store: memory.New(), PublicURL: url,
		RateLimit: collector.RateLimit{Disabled: true}},
		Bindings: []service.Binding{https.Binding{}, a2ab.Binding{}}, AdminToken: adminToken})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = svc.Handler()
	ts.Start()
	t.Cleanup(ts.Close)
	return ts, svc.Collector()
}

// structuredDraft asks for an integer answer, so a response can carry 2^53 + 1.
const structuredDraft = `{"binding":"a2a","type":"clarification","subject":{"kind":"task","id":"t1"},"prompt":"How many?",
"timing":"immediate","consentMode":"not_required","response":{"format":"number"}}`

type issued struct {
	QueryID  string
	Delivery struct{ Binding, Endpoint, Operation, Authorization string }
}

func issueDraft(t testing.TB, c *collector.Collector, draft string) issued {
	t.Helper()
	req, err := c.Issue(context.Background(), []byte(draft))
	if err != nil {
		t.Fatal(err)
	}
	var q issued
	if err := json.Unmarshal(req, &q); err != nil {
		t.Fatal(err)
	}
	return q
}

func responseWith(queryID, responseID, answer string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","responseId":"` + responseID + `","queryId":"` + queryID + `",
  "subject":{"kind":"task","id":"t1"},"respondent":{"kind":"agent","provenance":"direct"},"answer":` + answer + `,"createdAt":"2026-01-01T00:00:00Z"}`)
}

const rid = "0198c7d0-2180-7729-b005-d33c99fc7452"

// TestBigIntegerReachesTheCoreExactly: an answer of 2^53 + 1 in the data part is stored as written — a2a-go's
// float64 decoding would have made it 2^53 — and the receipt comes back byte for byte as the core wrote it.
func TestBigIntegerReachesTheCoreExactly(t *testing.T) {
	ts, c := newService(t)
	q := issueDraft(t, c, structuredDraft)
	if q.Delivery.Binding != "a2a" || q.Delivery.Endpoint != ts.URL+"/a2a" || q.Delivery.Operation != "message/send" {
		t.Fatalf("delivery: %+v", q.Delivery)
	}
	body := responseWith(q.QueryID, rid, "9007199254740993")
	reply, err := a2atest.Call(context.Background(), ts.Client(), q.Delivery.Endpoint, q.Delivery.Authorization, a2ab.SendMethod, a2atest.SendParams(body))
	if err != nil {
		t.Fatal(err)
	}
	receipt, err := a2atest.ReceiptOf(reply.Result)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(receipt), `"status":"accepted"`) {
		t.Fatalf("not accepted: %s", receipt)
	}
	st, err := c.Lookup(context.Background(), q.QueryID)
	if err != nil || st.Acceptance == nil {
		t.Fatalf("lookup: %v %+v", err, st)
	}
	if string(st.Acceptance.Response) != string(body) {
		t.Fatalf("the stored response is not the bytes sent:\n got %s\nwant %s", st.Acceptance.Response, body)
	}
	if string(st.Acceptance.Receipt) != string(receipt) {
		t.Fatalf("the receipt on the wire differs from the stored one:\n wire %s\nstore %s", receipt, st.Acceptance.Receipt)
	}
}

// TestMalformedSubmissionsAreInvalidParams: no AQP response part, or two, or no params at all, get JSON-RPC invalid
// params saying what was expected; a body whose ids cannot be read gets the problem code; nothing is submitted.
func TestMalformedSubmissionsAreInvalidParams(t *testing.T) {
	ts, c := newService(t)
	q := issueDraft(t, c, structuredDraft)
	resp := string(responseWith(q.QueryID, rid, "1"))
	part := `{"kind":"data","data":` + resp + `,"metadata":{"aqpObject":"response"}}`
	for _, tc := range []struct {
		name, params, want string
	}{
		{"no response part", `{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"hi"},{"kind":"data","data":` + resp + `}]}}`, "it carries none"},
		{"two response parts", `{"message":{"kind":"message","messageId":"m","role":"user","parts":[` + part + `,` + part + `]}}`, "it carries 2 (parts [0 1])"},
		{"no params", ``, `"params" is missing`},
		{"no message", `{}`, `"params.message" is missing`},
		{"part without data", `{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"data","metadata":{"aqpObject":"response"}}]}}`, `"params.message.parts[0].data" is missing`},
		{"no ids", `{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"data","data":{"hello":1},"metadata":{"aqpObject":"response"}}]}}`, "no receipt can be formed"},
	} {
		for _, method := range []string{a2ab.SendMethod, a2ab.StreamMethod} {
			var params []byte
			if tc.params != "" {
				params = []byte(tc.params)
			}
			reply, err := a2atest.Call(context.Background(), ts.Client(), ts.URL+"/a2a", q.Delivery.Authorization, method, params)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.name, method, err)
			}
			if reply.Error == nil || reply.Error.Code != a2ab.CodeInvalidParams || !strings.Contains(reply.Error.Message, tc.want) {
				t.Errorf("%s %s: got %+v, want invalid params saying %q", tc.name, method, reply.Error, tc.want)
			}
			if tc.name != "no ids" && !strings.Contains(reply.Error.Message, `exactly one part of kind "data" with metadata {"aqpObject": "response"}`) && !strings.Contains(reply.Error.Message, "MessageSendParams") {
				t.Errorf("%s %s: the message does not say what was expected: %s", tc.name, method, reply.Error.Message)
			}
		}
	}
	if st, _ := c.Lookup(context.Background(), q.QueryID); st.Acceptance != nil {
		t.Fatalf("a malformed call was accepted: %s", st.Acceptance.Response)
	}
}

// TestOtherMethodsAreUnsupported: a collector keeps no tasks and sends no push notifications.
func TestOtherMethodsAreUnsupported(t *testing.T) {
	ts, _ := newService(t)
	for _, m := range []struct{ method, params string }{
		{"tasks/get", `{"id":"t-1"}`},
		{"tasks/cancel", `{"id":"t-1"}`},
		{"tasks/pushNotificationConfig/set", `{"taskId":"t-1","pushNotificationConfig":{"url":"https://x.test/"}}`},
		{"tasks/pushNotificationConfig/get", `{"id":"t-1"}`},
		{"tasks/pushNotificationConfig/list", `{"id":"t-1"}`},
		{"tasks/pushNotificationConfig/delete", `{"id":"t-1","pushNotificationConfigId":"c"}`},
	} {
		reply, err := a2atest.Call(context.Background(), ts.Client(), ts.URL+"/a2a", "", m.method, []byte(m.params))
		if err != nil {
			t.Fatalf("%s: %v", m.method, err)
		}
		if reply.Error == nil || reply.Error.Code != a2ab.CodeUnsupportedOperation {
			t.Errorf("%s: got %+v, want A2A's unsupported operation (%d)", m.method, reply.Error, a2ab.CodeUnsupportedOperation)
		}
	}
}

// TestAgentCard: the card declares the extension, the one skill, the JSON-RPC transport at the public URL and the
// bearer scheme.
func TestAgentCard(t *testing.T) {
	ts, _ := newService(t)
	resp, err := ts.Client().Get(ts.URL + spec.A2AAgentCardPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var card struct {
		URL                string
		PreferredTransport string
		Capabilities       struct{ Extensions []struct{ URI string } }
		Skills             []struct{ ID string }
		SecuritySchemes    map[string]struct{ Type, Scheme string }
		Security           []map[string][]string
	}
	if err := json.Unmarshal(body, &card); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if card.URL != ts.URL+"/a2a" || card.PreferredTransport != "JSONRPC" || len(card.Capabilities.Extensions) != 1 ||
		card.Capabilities.Extensions[0].URI != spec.A2AExtension || len(card.Skills) != 1 ||
		card.SecuritySchemes["aqpCapability"].Type != "http" || card.SecuritySchemes["aqpCapability"].Scheme != "Bearer" ||
		len(card.Security) != 1 {
		t.Fatalf("agent card: %s", body)
	}
	// Discovery lists the A2A binding with its endpoint and operation.
	resp, err = ts.Client().Get(ts.URL + "/.well-known/aqp")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ = io.ReadAll(resp.Body)
	if !strings.Contains(string(body), ts.URL+"/a2a") || !strings.Contains(string(body), `"message/send"`) {
		t.Fatalf("discovery lacks the a2a binding: %s", body)
	}
	// A method other than POST on the endpoint is an A2A error, not a submission.
	resp, err = ts.Client().Get(ts.URL + "/a2a")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK && resp.Header.Get("Content-Type") == "" {
		t.Fatal("GET /a2a answered with nothing")
	}
}
