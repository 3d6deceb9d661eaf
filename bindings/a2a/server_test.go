package a2a_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/service/servicetest"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

const adminToken = "test-admin"

// env is a collector serving HTTPS and A2A over one memory store, as `aqp serve` composes it, on a loopback server
// that speaks HTTP/1.1 and unencrypted HTTP/2 (for gRPC), with a gRPC client connected to it.
type env struct {
	ts   *httptest.Server
	c    *collector.Collector
	grpc a2apb.A2AServiceClient
}

func newService(t testing.TB) *env {
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
	ts.Config.Protocols = new(http.Protocols)
	ts.Config.Protocols.SetHTTP1(true)
	ts.Config.Protocols.SetUnencryptedHTTP2(true)
	ts.Start()
	t.Cleanup(ts.Close)
	conn, err := grpc.NewClient(a2ab.GRPCTarget(ts.URL), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(2*a2ab.MaxRequest)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &env{ts: ts, c: svc.Collector(), grpc: a2apb.NewA2AServiceClient(conn)}
}

// numberDraft asks for a number, so a response can carry 2^53 + 1 or a 30-digit integer.
const numberDraft = `{"binding":"a2a","type":"clarification","subject":{"kind":"task","id":"t1"},"prompt":"How many?",
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
  "subject":{"kind":"task","id":"t1"},"respondent":{"kind":"agent","provenance":"direct"},"answer":` + answer + `,"createdAt":"` + servicetest.CreatedAt + `"}`)
}

const rid = "0198c7d0-2180-7729-b005-d33c99fc7452"

// The transports a test runs over.
const (
	trJSONRPC  = "1.0-jsonrpc"
	trHTTPJSON = "1.0-http-json"
	trGRPC     = "1.0-grpc"
	trLegacy   = "0.3-jsonrpc"
)

var transports = []string{trJSONRPC, trHTTPJSON, trGRPC, trLegacy}

// call is one send request a test makes: the response carried in parts parts marked response (beside a text part),
// with the capability auth. noExt leaves out A2A-Extensions; version, when set, is the A2A-Version sent (1.0
// transports send "1.0" otherwise, 0.3 none). grpcData sends the response over gRPC as a data part (a protobuf
// Value) instead of a raw part.
type call struct {
	auth     string
	body     []byte
	parts    int
	noExt    bool
	version  string
	grpcData bool
}

// outcome is what came back: a receipt (a result), or an error in the transport's own form — code is the
// JSON-RPC code, "HTTP <status> <google.rpc status>", or the gRPC code's name.
type outcome struct {
	receipt []byte
	code    string
	message string
}

func (o outcome) String() string {
	if o.receipt != nil {
		return "receipt " + string(o.receipt)
	}
	return "error " + o.code + ": " + o.message
}

// errorCode is the code an A2A error is written with on transport tr, as outcome.code spells it.
func errorCode(tr string, err error) string {
	f := a2ab.ErrorFormFor(err)
	switch tr {
	case trHTTPJSON:
		return fmt.Sprintf("HTTP %d %s", f.HTTPStatus, f.Status)
	case trGRPC:
		return f.GRPC.String()
	}
	return strconv.Itoa(f.JSONRPC)
}

func params10(body []byte, n int) []byte {
	ps := []string{`{"text":"my answer"}`}
	for range n {
		ps = append(ps, `{"data":`+string(body)+`,"mediaType":"application/json","metadata":{"aqpObject":"response"}}`)
	}
	return []byte(`{"message":{"messageId":"m-1","role":"ROLE_USER","extensions":["` + spec.A2AExtension + `"],"parts":[` + strings.Join(ps, ",") + `]}}`)
}

func params03(body []byte, n int) []byte {
	ps := []string{`{"kind":"text","text":"my answer"}`}
	for range n {
		ps = append(ps, `{"kind":"data","data":`+string(body)+`,"metadata":{"aqpObject":"response"}}`)
	}
	return []byte(`{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[` + strings.Join(ps, ",") + `]}}`)
}

// headers are the service parameters c sends over a transport of generation v10.
func (c call) headers(v10 bool) map[string]string {
	h := map[string]string{}
	if c.auth != "" {
		h["Authorization"] = c.auth
	}
	if v10 {
		h[a2ab.VersionHeader] = a2ab.Version
		if !c.noExt {
			h[a2ab.ExtensionsHeader] = spec.A2AExtension
		}
	}
	if c.version != "" {
		h[a2ab.VersionHeader] = c.version
	}
	return h
}

// postRaw POSTs body with the given headers and returns the status, Content-Type and body.
func postRaw(t testing.TB, url string, headers map[string]string, body []byte) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func rpcEnvelope(id, method string, params []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + string(params) + `}`)
}

// send makes c over transport tr (the send method, not the streaming one) and returns what came back, checking
// the reply's wire form as it goes.
func (e *env) send(t testing.TB, tr string, c call) outcome {
	t.Helper()
	switch tr {
	case trJSONRPC, trLegacy:
		v10 := tr == trJSONRPC
		method, params := a2ab.SendMethod, params10(c.body, c.parts)
		if !v10 {
			method, params = a2ab.LegacySendMethod, params03(c.body, c.parts)
		}
		st, _, b := postRaw(t, e.ts.URL+spec.A2APath, c.headers(v10), rpcEnvelope(`"r-1"`, method, params))
		return rpcOutcome(t, st, b, v10)
	case trHTTPJSON:
		st, _, b := postRaw(t, e.ts.URL+spec.A2APath+a2ab.RESTSendPath, c.headers(true), params10(c.body, c.parts))
		return restOutcome(t, st, b)
	case trGRPC:
		return e.sendGRPC(t, c)
	}
	t.Fatalf("no transport %s", tr)
	return outcome{}
}

func rpcOutcome(t testing.TB, st int, b []byte, v10 bool) outcome {
	t.Helper()
	var r rpcResponse
	if st != http.StatusOK || json.Unmarshal(b, &r) != nil || r.JSONRPC != "2.0" || (r.Error == nil) == (r.Result == nil) {
		t.Fatalf("not a JSON-RPC response: HTTP %d %s", st, b)
	}
	if r.Error != nil {
		return outcome{code: strconv.Itoa(r.Error.Code), message: r.Error.Message}
	}
	msg := r.Result
	if v10 {
		var w struct{ Message json.RawMessage }
		if err := json.Unmarshal(r.Result, &w); err != nil || w.Message == nil {
			t.Fatalf("a 1.0 result is {\"message\": …}: %s", r.Result)
		}
		msg = w.Message
	}
	receipt, err := targets.A2AReceiptOf(msg, v10)
	if err != nil {
		t.Fatal(err)
	}
	return outcome{receipt: receipt}
}

func restOutcome(t testing.TB, st int, b []byte) outcome {
	t.Helper()
	if st != http.StatusOK {
		var e struct {
			Error struct {
				Code    int    `json:"code"`
				Status  string `json:"status"`
				Message string `json:"message"`
				Details []struct {
					Type   string `json:"@type"`
					Reason string `json:"reason"`
				} `json:"details"`
			} `json:"error"`
		}
		if json.Unmarshal(b, &e) != nil || e.Error.Code != st || len(e.Error.Details) == 0 ||
			!strings.HasSuffix(e.Error.Details[0].Type, "google.rpc.ErrorInfo") || e.Error.Details[0].Reason == "" {
			t.Fatalf("HTTP %d is not a google.rpc.Status with an ErrorInfo: %s", st, b)
		}
		return outcome{code: fmt.Sprintf("HTTP %d %s", st, e.Error.Status), message: e.Error.Message}
	}
	var w struct{ Message json.RawMessage }
	if err := json.Unmarshal(b, &w); err != nil || w.Message == nil {
		t.Fatalf("an HTTP+JSON send result is {\"message\": …}: %s", b)
	}
	receipt, err := targets.A2AReceiptOf(w.Message, true)
	if err != nil {
		t.Fatal(err)
	}
	return outcome{receipt: receipt}
}

func responseMeta() *structpb.Struct {
	m, _ := structpb.NewStruct(map[string]any{"aqpObject": "response"})
	return m
}

func (e *env) sendGRPC(t testing.TB, c call) outcome {
	t.Helper()
	parts := []*a2apb.Part{{Content: &a2apb.Part_Text{Text: "my answer"}}}
	for range c.parts {
		p := &a2apb.Part{Content: &a2apb.Part_Raw{Raw: c.body}, MediaType: "application/json", Metadata: responseMeta()}
		if c.grpcData {
			var v any
			if err := json.Unmarshal(c.body, &v); err != nil {
				t.Fatal(err)
			}
			pv, err := structpb.NewValue(v)
			if err != nil {
				t.Fatal(err)
			}
			p.Content = &a2apb.Part_Data{Data: pv}
		}
		parts = append(parts, p)
	}
	req := &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: "m-1", Role: a2apb.Role_ROLE_USER, Parts: parts}}
	md := metadata.MD{}
	for k, v := range c.headers(true) {
		md.Set(strings.ToLower(k), v)
	}
	ctx, cancel := context.WithTimeout(metadata.NewOutgoingContext(context.Background(), md), 10*time.Second)
	defer cancel()
	resp, err := e.grpc.SendMessage(ctx, req)
	if err != nil {
		st, ok := status.FromError(err)
		if !ok {
			t.Fatalf("not a gRPC status: %v", err)
		}
		return outcome{code: st.Code().String(), message: st.Message()}
	}
	m := resp.GetMessage()
	if m == nil || m.GetRole() != a2apb.Role_ROLE_AGENT || len(m.GetParts()) != 1 {
		t.Fatalf("the reply is not an agent Message with one part: %v", resp)
	}
	p := m.GetParts()[0]
	raw, ok := p.GetContent().(*a2apb.Part_Raw)
	if !ok || p.GetMediaType() != "application/json" || p.GetMetadata().GetFields()["aqpObject"].GetStringValue() != "receipt" {
		t.Fatalf("the receipt is not a raw application/json part marked receipt: %v", p)
	}
	return outcome{receipt: raw.Raw}
}

// overHTTPS submits body over the HTTPS binding and returns its receipt.
func (e *env) overHTTPS(t testing.TB, auth string, body []byte) []byte {
	t.Helper()
	reply, err := (&https.Client{HTTP: e.ts.Client()}).Post(context.Background(), e.ts.URL+"/aqp/v1/responses", auth, body)
	if err != nil || reply.Receipt == nil {
		t.Fatalf("HTTPS: %v %+v", err, reply)
	}
	return reply.Receipt
}

func receiptCode(receipt []byte) (core.Code, bool) {
	doc := core.Parse(core.KindReceipt, receipt)
	if !doc.Valid() {
		return "", false
	}
	e, _ := doc.Object()["error"].(map[string]any)
	c, _ := e["code"].(string)
	return core.Code(c), true
}

// TestAcceptedReceiptIsTheHTTPSReceipt: on every transport an accepted response's receipt is byte for byte the one
// the HTTPS binding gives for the same response (a duplicate), and the one stored; the response reaches the core
// as written (2^53 + 1 survives).
func TestAcceptedReceiptIsTheHTTPSReceipt(t *testing.T) {
	e := newService(t)
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			q := issueDraft(t, e.c, numberDraft)
			body := responseWith(q.QueryID, rid, "9007199254740993")
			out := e.send(t, tr, call{auth: q.Delivery.Authorization, body: body, parts: 1})
			if out.receipt == nil || !bytes.Contains(out.receipt, []byte(`"status":"accepted"`)) {
				t.Fatalf("not accepted: %s", out)
			}
			if h := e.overHTTPS(t, q.Delivery.Authorization, body); !bytes.Equal(h, out.receipt) {
				t.Fatalf("receipts differ:\nhttps %s\n  a2a %s", h, out.receipt)
			}
			st, err := e.c.Lookup(context.Background(), q.QueryID)
			if err != nil || st.Acceptance == nil || !bytes.Equal(st.Acceptance.Receipt, out.receipt) {
				t.Fatalf("the wire receipt is not the stored one: %v %+v", err, st)
			}
			if !bytes.Contains(st.Acceptance.Response, []byte(`"answer":9007199254740993`)) {
				t.Fatalf("the integer did not survive: %s", st.Acceptance.Response)
			}
		})
	}
}

// TestRejectedReceiptsAreResults: a wrong capability and an unknown query get rejected receipts as results — a
// JSON-RPC result, an HTTP+JSON 200, a gRPC OK — never errors, on every transport.
func TestRejectedReceiptsAreResults(t *testing.T) {
	e := newService(t)
	for _, tr := range transports {
		q := issueDraft(t, e.c, numberDraft)
		for _, tc := range []struct {
			name string
			c    call
			want core.Code
		}{
			{"wrong capability", call{auth: "Bearer not-the-capability", body: responseWith(q.QueryID, rid, "1"), parts: 1}, core.CodeUnauthorized},
			{"unknown query", call{auth: q.Delivery.Authorization, body: responseWith("0198c7cb-1af1-7e79-bd7f-02f8a89b8857", rid, "1"), parts: 1}, ""},
		} {
			out := e.send(t, tr, tc.c)
			code, ok := receiptCode(out.receipt)
			if out.receipt == nil || !ok || (tc.want != "" && code != tc.want) || code == "" {
				t.Errorf("%s %s: %s, want a rejected receipt %s as a result", tr, tc.name, out, tc.want)
			}
		}
	}
}

// TestInvalidParams: a message without a response part, or with two, is invalid params on every transport, the
// message saying what was expected and what came; a response without readable ids is invalid params saying no
// receipt can be formed; nothing is accepted.
func TestInvalidParams(t *testing.T) {
	e := newService(t)
	q := issueDraft(t, e.c, numberDraft)
	body := responseWith(q.QueryID, rid, "1")
	for _, tr := range transports {
		expected := `exactly one part with metadata {"aqpObject": "response"}`
		if tr == trLegacy {
			expected = `exactly one part of kind "data" with metadata {"aqpObject": "response"}`
		}
		for _, tc := range []struct {
			name  string
			c     call
			wants []string
		}{
			{"no response part", call{auth: q.Delivery.Authorization, body: body, parts: 0}, []string{expected, "it carries none"}},
			{"two response parts", call{auth: q.Delivery.Authorization, body: body, parts: 2}, []string{expected, "it carries 2 (parts [1 2])"}},
			{"no ids", call{auth: q.Delivery.Authorization, body: []byte(`{"hello":1}`), parts: 1}, []string{"no receipt can be formed"}},
		} {
			out := e.send(t, tr, tc.c)
			if out.receipt != nil || out.code != errorCode(tr, a2a.ErrInvalidParams) {
				t.Errorf("%s %s: %s, want invalid params (%s)", tr, tc.name, out, errorCode(tr, a2a.ErrInvalidParams))
				continue
			}
			for _, w := range tc.wants {
				if !strings.Contains(out.message, w) {
					t.Errorf("%s %s: the message %q does not say %q", tr, tc.name, out.message, w)
				}
			}
		}
	}
	if st, _ := e.c.Lookup(context.Background(), q.QueryID); st.Acceptance != nil {
		t.Fatalf("a malformed call was accepted: %s", st.Acceptance.Response)
	}
}

// TestServiceParams: on every 1.0 transport a request that does not activate the AQP extension is refused with
// ExtensionSupportRequired and one of another A2A-Version with VersionNotSupported, before anything is submitted;
// a 0.3 request needs no extension but a 1.0 A2A-Version on it is refused.
func TestServiceParams(t *testing.T) {
	e := newService(t)
	q := issueDraft(t, e.c, numberDraft)
	body := responseWith(q.QueryID, rid, "1")
	for _, tc := range []struct {
		tr   string
		c    call
		want error
		says string
	}{
		{trJSONRPC, call{noExt: true}, a2a.ErrExtensionSupportRequired, spec.A2AExtension},
		{trHTTPJSON, call{noExt: true}, a2a.ErrExtensionSupportRequired, spec.A2AExtension},
		{trGRPC, call{noExt: true}, a2a.ErrExtensionSupportRequired, spec.A2AExtension},
		{trJSONRPC, call{version: "0.3"}, a2a.ErrVersionNotSupported, `A2A-Version "0.3"`},
		{trHTTPJSON, call{version: "2.0"}, a2a.ErrVersionNotSupported, `A2A-Version "2.0"`},
		{trGRPC, call{version: "0.9"}, a2a.ErrVersionNotSupported, `A2A-Version "0.9"`},
		{trLegacy, call{version: "1.0"}, a2a.ErrVersionNotSupported, `A2A-Version "1.0"`},
	} {
		tc.c.auth, tc.c.body, tc.c.parts = q.Delivery.Authorization, body, 1
		out := e.send(t, tc.tr, tc.c)
		if out.receipt != nil || out.code != errorCode(tc.tr, tc.want) || !strings.Contains(out.message, tc.says) {
			t.Errorf("%s %+v: %s, want %s saying %q", tc.tr, tc.c, out, errorCode(tc.tr, tc.want), tc.says)
		}
	}
	if st, _ := e.c.Lookup(context.Background(), q.QueryID); st.Acceptance != nil {
		t.Fatal("a refused request was submitted")
	}
	// 0.3 without any service parameter is served.
	if out := e.send(t, trLegacy, call{auth: q.Delivery.Authorization, body: body, parts: 1}); out.receipt == nil {
		t.Fatalf("0.3 without the extension: %s", out)
	}
}

// TestMethods: over JSON-RPC every A2A method the collector does not serve (1.0's and 0.3's) is
// UnsupportedOperation, a method A2A does not define is method-not-found; HTTP+JSON answers its task paths with
// UnsupportedOperation; gRPC answers its other methods with UnsupportedOperation's code and an undefined method
// with Unimplemented.
func TestMethods(t *testing.T) {
	e := newService(t)
	for _, tc := range []struct {
		method string
		want   error
	}{
		{"GetTask", a2a.ErrUnsupportedOperation},
		{"CancelTask", a2a.ErrUnsupportedOperation},
		{"ListTasks", a2a.ErrUnsupportedOperation},
		{"SubscribeToTask", a2a.ErrUnsupportedOperation},
		{"CreateTaskPushNotificationConfig", a2a.ErrUnsupportedOperation},
		{"GetExtendedAgentCard", a2a.ErrUnsupportedOperation},
		{"tasks/get", a2a.ErrUnsupportedOperation},
		{"tasks/cancel", a2a.ErrUnsupportedOperation},
		{"tasks/pushNotificationConfig/set", a2a.ErrUnsupportedOperation},
		{"agent/getAuthenticatedExtendedCard", a2a.ErrUnsupportedOperation},
		{"NoSuchMethod", a2a.ErrMethodNotFound},
		{"tasks/explode", a2a.ErrMethodNotFound},
		{"sendMessage", a2a.ErrMethodNotFound},
	} {
		st, _, b := postRaw(t, e.ts.URL+spec.A2APath, call{}.headers(true), rpcEnvelope(`7`, tc.method, []byte(`{"id":"t-1"}`)))
		out := rpcOutcome(t, st, b, true)
		if out.code != errorCode(trJSONRPC, tc.want) {
			t.Errorf("JSON-RPC %s: %s, want %s", tc.method, out, errorCode(trJSONRPC, tc.want))
		}
	}
	for _, path := range []string{"/tasks/t-1", "/tasks/t-1:cancel", "/extendedAgentCard"} {
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+spec.A2APath+path, nil)
		if strings.HasSuffix(path, ":cancel") {
			req.Method = http.MethodPost
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if out := restOutcome(t, resp.StatusCode, b); out.code != errorCode(trHTTPJSON, a2a.ErrUnsupportedOperation) {
			t.Errorf("HTTP+JSON %s: %s, want %s", path, out, errorCode(trHTTPJSON, a2a.ErrUnsupportedOperation))
		}
	}
	md := metadata.Pairs("a2a-version", a2ab.Version, "a2a-extensions", spec.A2AExtension)
	ctx, cancel := context.WithTimeout(metadata.NewOutgoingContext(context.Background(), md), 10*time.Second)
	defer cancel()
	_, err := e.grpc.GetTask(ctx, &a2apb.GetTaskRequest{Id: "t-1"})
	if st, _ := status.FromError(err); st.Code() != a2ab.ErrorFormFor(a2a.ErrUnsupportedOperation).GRPC {
		t.Errorf("gRPC GetTask: %v, want %s", err, a2ab.ErrorFormFor(a2a.ErrUnsupportedOperation).GRPC)
	}
	_, err = e.grpc.CancelTask(ctx, &a2apb.CancelTaskRequest{Id: "t-1"})
	if st, _ := status.FromError(err); st.Code() != a2ab.ErrorFormFor(a2a.ErrUnsupportedOperation).GRPC {
		t.Errorf("gRPC CancelTask: %v, want %s", err, a2ab.ErrorFormFor(a2a.ErrUnsupportedOperation).GRPC)
	}
	conn, _ := grpc.NewClient(a2ab.GRPCTarget(e.ts.URL), grpc.WithTransportCredentials(insecure.NewCredentials()))
	defer conn.Close()
	err = conn.Invoke(ctx, "/"+a2ab.GRPCService+"/NoSuchMethod", &a2apb.GetTaskRequest{}, &a2apb.Task{})
	if st, _ := status.FromError(err); st.Code().String() != "Unimplemented" {
		t.Errorf("gRPC NoSuchMethod: %v, want Unimplemented", err)
	}
}

// TestRequestTooLarge: a body over MaxRequest is refused with 413 on JSON-RPC and HTTP+JSON, and gRPC refuses a
// message over it; nothing is submitted.
func TestRequestTooLarge(t *testing.T) {
	e := newService(t)
	q := issueDraft(t, e.c, numberDraft)
	huge := responseWith(q.QueryID, rid, `"`+strings.Repeat("x", a2ab.MaxRequest)+`"`)
	h := call{auth: q.Delivery.Authorization}.headers(true)
	for _, tc := range []struct{ url string }{{e.ts.URL + spec.A2APath}, {e.ts.URL + spec.A2APath + a2ab.RESTSendPath}} {
		st, _, b := postRaw(t, tc.url, h, rpcEnvelope("1", a2ab.SendMethod, params10(huge, 1)))
		if st != http.StatusRequestEntityTooLarge || !bytes.Contains(b, []byte(strconv.Itoa(a2ab.MaxRequest))) {
			t.Errorf("%s: HTTP %d %.300s, want 413 naming the bound", tc.url, st, b)
		}
	}
	if out := e.send(t, trGRPC, call{auth: q.Delivery.Authorization, body: huge, parts: 1}); out.receipt != nil || out.code != "ResourceExhausted" {
		t.Errorf("gRPC: %s, want ResourceExhausted", out)
	}
	if st, _ := e.c.Lookup(context.Background(), q.QueryID); st.Acceptance != nil {
		t.Fatal("an oversized request was submitted")
	}
}

// TestJSONRPCIDEchoed: a JSON-RPC id comes back exactly as written — a number past 2^64, a string, null — on a
// result, an error and a streaming send's event, in both generations.
func TestJSONRPCIDEchoed(t *testing.T) {
	e := newService(t)
	for _, id := range []string{`12345678901234567890123`, `"req-\u00e9"`, `-0.5e3`, `null`} {
		for _, tc := range []struct {
			method string
			v10    bool
		}{{a2ab.SendMethod, true}, {a2ab.StreamMethod, true}, {a2ab.LegacySendMethod, false}, {a2ab.LegacyStreamMethod, false}, {"GetTask", true}} {
			q := issueDraft(t, e.c, numberDraft)
			body := responseWith(q.QueryID, rid, "1")
			params := params10(body, 1)
			if !tc.v10 {
				params = params03(body, 1)
			}
			st, ct, b := postRaw(t, e.ts.URL+spec.A2APath, call{auth: q.Delivery.Authorization}.headers(tc.v10), rpcEnvelope(id, tc.method, params))
			if strings.HasPrefix(ct, "text/event-stream") {
				data, ok := bytes.CutPrefix(bytes.TrimSpace(b[bytes.Index(b, []byte("data: ")):]), []byte("data: "))
				if !ok {
					t.Fatalf("%s: no event: %s", tc.method, b)
				}
				b = data
			}
			var r rpcResponse
			if st != http.StatusOK || json.Unmarshal(b, &r) != nil {
				t.Fatalf("%s %s: HTTP %d %s", tc.method, id, st, b)
			}
			want := id
			if id == `"req-\u00e9"` {
				want = `"req-\u00e9"` // the id's text, not re-encoded
			}
			if string(r.ID) != want {
				t.Errorf("%s: id %s came back as %s", tc.method, id, r.ID)
			}
			if tc.method != "GetTask" && r.Result == nil {
				t.Errorf("%s: no result: %s", tc.method, b)
			}
		}
	}
}

// TestAgentCard: the card a collector composed as `aqp serve` composes it serves lists JSON-RPC, HTTP+JSON and
// gRPC at 1.0 and JSON-RPC at 0.3, gRPC at host:port, declares the AQP extension required and the bearer scheme as
// 1.0 writes it, and a2a-go/v2's resolver reads it.
func TestAgentCard(t *testing.T) {
	ts := servicetest.New(t, memory.New(), https.Binding{}, a2ab.Binding{})
	resp, err := http.Get(ts.URL + spec.A2AAgentCardPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var card struct {
		SupportedInterfaces []struct{ URL, ProtocolBinding, ProtocolVersion string }
		Capabilities        struct {
			Extensions []struct {
				URI      string
				Required bool
			}
		}
		SecuritySchemes map[string]struct {
			HTTPAuthSecurityScheme *struct{ Scheme string } `json:"httpAuthSecurityScheme"`
		}
		Skills []struct{ ID string }
	}
	if err := json.Unmarshal(body, &card); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(ts.URL, "http://")
	want := []string{"JSONRPC 1.0 " + ts.URL + "/a2a", "HTTP+JSON 1.0 " + ts.URL + "/a2a", "GRPC 1.0 " + host, "JSONRPC 0.3 " + ts.URL + "/a2a"}
	var got []string
	for _, in := range card.SupportedInterfaces {
		got = append(got, in.ProtocolBinding+" "+in.ProtocolVersion+" "+in.URL)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("interfaces:\n got %q\nwant %q", got, want)
	}
	if len(card.Capabilities.Extensions) != 1 || card.Capabilities.Extensions[0].URI != spec.A2AExtension || !card.Capabilities.Extensions[0].Required {
		t.Errorf("extensions: %+v", card.Capabilities.Extensions)
	}
	if s := card.SecuritySchemes[a2ab.SecurityScheme].HTTPAuthSecurityScheme; s == nil || s.Scheme != "Bearer" {
		t.Errorf("security scheme: %s", body)
	}
	if len(card.Skills) != 1 {
		t.Errorf("skills: %+v", card.Skills)
	}
	parsed, err := agentcard.NewResolver(http.DefaultClient).Resolve(context.Background(), ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	if len(parsed.SupportedInterfaces) != 4 || parsed.SupportedInterfaces[2].ProtocolBinding != a2a.TransportProtocolGRPC ||
		parsed.SupportedInterfaces[2].URL != host || len(parsed.Capabilities.Extensions) != 1 || !parsed.Capabilities.Extensions[0].Required {
		t.Errorf("a2a-go/v2's resolver read: %+v", parsed)
	}
	if _, ok := parsed.SecuritySchemes[a2ab.SecurityScheme].(a2a.HTTPAuthSecurityScheme); !ok {
		t.Errorf("a2a-go/v2 read the security scheme as %T", parsed.SecuritySchemes[a2ab.SecurityScheme])
	}
	// A 0.3 client reads the same document: the scheme's 0.3 members are beside the 1.0 one.
	var v03 struct {
		URL             string
		SecuritySchemes map[string]struct{ Type, Scheme string }
	}
	if json.Unmarshal(body, &v03) != nil || v03.URL != ts.URL+"/a2a" || v03.SecuritySchemes[a2ab.SecurityScheme].Type != "http" ||
		v03.SecuritySchemes[a2ab.SecurityScheme].Scheme != "Bearer" {
		t.Errorf("the 0.3 members: %+v", v03)
	}
	old, err := a2av0.NewAgentCardParser()(body)
	if err != nil {
		t.Fatalf("a2a-go/v2's 0.3 parser: %v", err)
	}
	if s, ok := old.SecuritySchemes[a2ab.SecurityScheme].(a2a.HTTPAuthSecurityScheme); !ok || s.Scheme != "Bearer" {
		t.Errorf("a2a-go/v2's 0.3 parser read the scheme as %#v", old.SecuritySchemes[a2ab.SecurityScheme])
	}
	// Discovery lists the A2A binding with its endpoint and operation.
	resp, err = http.Get(ts.URL + "/.well-known/aqp")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), ts.URL+"/a2a") || !strings.Contains(string(body), `"`+a2ab.SendMethod+`"`) {
		t.Fatalf("discovery lacks the a2a binding: %s", body)
	}
}

// thirtyDigits is a number no double holds: over gRPC it can travel only as a raw part (D33).
const thirtyDigits = "123456789012345678901234567890"

// TestD33ExactNumbers: a response with a 30-digit number gets the same receipt over JSON-RPC (both generations),
// HTTP+JSON and gRPC's raw part as over HTTPS, and is stored with every digit; as a gRPC data part (a protobuf
// Value, a double) it is refused with InvalidArgument naming D33, never judged as a rounded answer; a data part
// whose numbers have at most 15 significant digits is accepted.
func TestD33ExactNumbers(t *testing.T) {
	e := newService(t)
	for _, tr := range transports {
		q := issueDraft(t, e.c, numberDraft)
		body := responseWith(q.QueryID, rid, thirtyDigits)
		out := e.send(t, tr, call{auth: q.Delivery.Authorization, body: body, parts: 1})
		if out.receipt == nil {
			t.Fatalf("%s: %s", tr, out)
		}
		if h := e.overHTTPS(t, q.Delivery.Authorization, body); !bytes.Equal(h, out.receipt) {
			t.Errorf("%s: receipts differ:\nhttps %s\n  a2a %s", tr, h, out.receipt)
		}
		if code, _ := receiptCode(out.receipt); code == "" {
			st, _ := e.c.Lookup(context.Background(), q.QueryID)
			if st.Acceptance == nil || !bytes.Contains(st.Acceptance.Response, []byte(`"answer":`+thirtyDigits)) {
				t.Errorf("%s: the 30 digits were not stored as sent: %+v", tr, st)
			}
		}
	}

	q := issueDraft(t, e.c, numberDraft)
	out := e.send(t, trGRPC, call{auth: q.Delivery.Authorization, body: responseWith(q.QueryID, rid, thirtyDigits), parts: 1, grpcData: true})
	if out.receipt != nil || out.code != "InvalidArgument" || !strings.Contains(out.message, "D33") || !strings.Contains(out.message, "/answer") {
		t.Fatalf("a 30-digit number in a gRPC data part: %s, want InvalidArgument naming D33 and /answer", out)
	}
	if st, _ := e.c.Lookup(context.Background(), q.QueryID); st.Acceptance != nil {
		t.Fatalf("a rounded answer was accepted: %s", st.Acceptance.Response)
	}
	out = e.send(t, trGRPC, call{auth: q.Delivery.Authorization, body: responseWith(q.QueryID, rid, "123456789012345"), parts: 1, grpcData: true})
	if !bytes.Contains(out.receipt, []byte(`"status":"accepted"`)) {
		t.Fatalf("a 15-digit number in a gRPC data part: %s, want accepted", out)
	}
	// The data part is written as JSON again (members sorted, numbers shortest): the same number.
	st, _ := e.c.Lookup(context.Background(), q.QueryID)
	var stored struct{ Answer json.Number }
	if st.Acceptance == nil || json.Unmarshal(st.Acceptance.Response, &stored) != nil {
		t.Fatalf("stored: %+v", st)
	}
	if f, err := stored.Answer.Float64(); err != nil || f != 123456789012345 {
		t.Fatalf("the stored answer is %s, want 123456789012345", stored.Answer)
	}
}

// TestRawPartBase64: over JSON-RPC and HTTP+JSON a 1.0 raw part (base64 of the response's JSON text) is taken like
// a data part: the receipt is the HTTPS one.
func TestRawPartBase64(t *testing.T) {
	e := newService(t)
	for _, path := range []string{"", a2ab.RESTSendPath} {
		q := issueDraft(t, e.c, numberDraft)
		body := responseWith(q.QueryID, rid, thirtyDigits)
		params := []byte(`{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"raw":"` + base64.StdEncoding.EncodeToString(body) +
			`","mediaType":"application/json","metadata":{"aqpObject":"response"}}]}}`)
		var out outcome
		if path == "" {
			st, _, b := postRaw(t, e.ts.URL+spec.A2APath, call{auth: q.Delivery.Authorization}.headers(true), rpcEnvelope("1", a2ab.SendMethod, params))
			out = rpcOutcome(t, st, b, true)
		} else {
			st, _, b := postRaw(t, e.ts.URL+spec.A2APath+path, call{auth: q.Delivery.Authorization}.headers(true), params)
			out = restOutcome(t, st, b)
		}
		if out.receipt == nil || !bytes.Equal(out.receipt, e.overHTTPS(t, q.Delivery.Authorization, body)) {
			t.Errorf("raw part over %q: %s", path, out)
		}
	}
}
