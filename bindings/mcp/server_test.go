package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

const adminToken = "test-admin-token"

// newService serves both bindings as `aqp serve` does.
func newService(t testing.TB) *httptest.Server {
	t.Helper()
	ts, _ := newServiceWith(t)
	return ts
}

func newServiceWith(t testing.TB) (*httptest.Server, *service.Service) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	svc, err := service.New(service.Config{Collector: collector.Config{Store: memory.New(), PublicURL: url},
		Bindings: []service.Binding{https.Binding{}, aqpmcp.Binding{}}, AdminToken: adminToken})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = svc.Handler()
	ts.Start()
	t.Cleanup(ts.Close)
	return ts, svc
}

// quickstartDraft is the Quickstart's query, delivered over MCP.
const quickstartDraft = `{"type":"clarification","binding":"mcp","subject":{"kind":"tool_call","id":"call_01JQ8QY3EJX9","idScope":"local","protocol":"mcp"},
"prompt":"Did this tool result fully answer the user's request?","timing":"after_outcome_known","consentMode":"not_required",
"requestedRespondent":"agent","response":{"format":"choice","choices":["yes","partly","no"]}}`

type issued struct{ endpoint, auth, queryID string }

func issue(t testing.TB, ts *httptest.Server) issued {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/admin/v1/queries", strings.NewReader(quickstartDraft))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 201 {
		t.Fatalf("issue: %d %s", resp.StatusCode, body)
	}
	var q struct {
		QueryID  string
		Delivery struct{ Endpoint, Authorization, Operation string }
	}
	_ = json.Unmarshal(body, &q)
	if q.Delivery.Operation != spec.MCPOperation {
		t.Fatalf("delivery.operation %q", q.Delivery.Operation)
	}
	return issued{q.Delivery.Endpoint, q.Delivery.Authorization, q.QueryID}
}

// quickstartResponse is the Quickstart response (examples/quickstart-response.json) for queryID, as written there:
// indented, with members in its order.
func quickstartResponse(t testing.TB, queryID, responseID, answer string) []byte {
	b, err := os.ReadFile("../../examples/quickstart-response.json")
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte("0198c7cb-1af1-7e79-bd7f-02f8a89b8857"), []byte(queryID), 1)
	b = bytes.Replace(b, []byte("0198c7d0-2180-7729-b005-d33c99fc7452"), []byte(responseID), 1)
	b = bytes.Replace(b, []byte(`"partly"`), []byte(`"`+answer+`"`), 1)
	return bytes.Replace(b, []byte("2026-07-30T17:05:12Z"), []byte(time.Now().UTC().Format(time.RFC3339)), 1)
}

func postHTTPS(t testing.TB, ts *httptest.Server, auth string, body []byte) []byte {
	t.Helper()
	reply, err := (&https.Client{}).Post(context.Background(), ts.URL+spec.HTTPSPath, auth, body)
	if err != nil || reply.Receipt == nil {
		t.Fatalf("https: %v %+v", err, reply)
	}
	return reply.Receipt
}

// TestSchemasAreSelfContained: a client can compile the tool's schemas as they are — no loader, nothing fetched —
// and they accept the Quickstart response and receipt and reject what the canonical schemas reject.
func TestSchemasAreSelfContained(t *testing.T) {
	for _, c := range []struct {
		name, schema string
		doc          []byte
		good         string
	}{
		{"input", "input.json", aqpmcp.InputSchema(), "../../examples/quickstart-response.json"},
		{"output", "output.json", aqpmcp.OutputSchema(), "../../examples/quickstart-receipt.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if bytes.Contains(c.doc, []byte(`"$ref":"q`)) || bytes.Contains(c.doc, []byte(`"$id"`)) {
				t.Fatalf("the bundle still refers outside itself: %s", c.doc)
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			comp := jsonschema.NewCompiler()
			comp.UseLoader(noLoader{})
			comp.AssertFormat()
			if err := comp.AddResource(c.schema, v); err != nil {
				t.Fatal(err)
			}
			sch, err := comp.Compile(c.schema)
			if err != nil {
				t.Fatalf("the bundle does not compile on its own: %v", err)
			}
			good, _ := os.ReadFile(c.good)
			gv, _ := jsonschema.UnmarshalJSON(bytes.NewReader(good))
			if err := sch.Validate(gv); err != nil {
				t.Fatalf("rejects %s: %v", c.good, err)
			}
			// A subject without its kind breaks the referenced subject schema, which must have been bundled.
			bad := map[string]any{}
			_ = json.Unmarshal(good, &bad)
			bad["protocolVersion"] = "1999-01-01"
			if err := sch.Validate(bad); err == nil {
				t.Fatal("accepts a wrong protocolVersion")
			}
		})
	}
	// The referenced schemas were bundled: a response with a subject of the wrong kind fails inside $defs.
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(aqpmcp.InputSchema()))
	comp := jsonschema.NewCompiler()
	comp.UseLoader(noLoader{})
	_ = comp.AddResource("in.json", v)
	sch, err := comp.Compile("in.json")
	if err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile("../../examples/quickstart-response.json")
	var resp map[string]any
	_ = json.Unmarshal(good, &resp)
	resp["subject"] = map[string]any{"id": "x"}
	if err := sch.Validate(resp); err == nil || !strings.Contains(err.Error(), "missing property 'kind'") {
		t.Fatalf("a subject without kind: want the bundled subject schema's failure, got %v", err)
	}
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("the bundle refers to " + url + ": a client would have to fetch it")
}

// mcpGoCall calls the tool with arbitrary arguments through mcp-go's client.
func mcpGoCall(t *testing.T, endpoint, auth string, args any, raw json.RawMessage) *mcp.CallToolResult {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(endpoint, transport.WithHTTPHeaders(map[string]string{"Authorization": auth}))
	if err != nil {
		t.Fatal(err)
	}
	cl := mcpclient.NewClient(tr)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cl.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = spec.MCPOperation
	req.Params.Arguments = args
	req.Params.RawArguments = raw
	res, err := cl.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("a protocol error instead of a tool error: %v", err)
	}
	return res
}

// TestUnusableArgumentsAreToolErrors: a call without a usable response gets a tool error that says what was
// expected, never a protocol error, and no structuredContent.
func TestUnusableArgumentsAreToolErrors(t *testing.T) {
	ts := newService(t)
	q := issue(t, ts)
	cases := []struct {
		name string
		args any
		raw  string
		want string
	}{
		{"no arguments", nil, "", "no arguments"},
		{"null", nil, "null", "null, not a JSON object"},
		{"an array", nil, `[{"queryId":"x"}]`, "an array, not a JSON object"},
		{"a string", "hello", "", "a string, not a JSON object"},
		{"a number", nil, "42", "a number, not a JSON object"},
		{"no queryId", map[string]any{"answer": "yes"}, "", "no receipt can be formed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := mcpGoCall(t, q.endpoint, q.auth, c.args, json.RawMessage(c.raw))
			text := ""
			if len(res.Content) > 0 {
				text = res.Content[0].(mcp.TextContent).Text
			}
			if !res.IsError || res.StructuredContent != nil || len(res.RawStructuredContent) > 0 {
				t.Fatalf("want a tool error without structuredContent, got isError=%v %s", res.IsError, res.RawStructuredContent)
			}
			if !strings.Contains(text, c.want) || !strings.Contains(text, "takes the QueryResponse object itself") {
				t.Fatalf("the error does not say what was expected: %q", text)
			}
		})
	}
}

// TestOwnClientMatchesHTTPS: the binding's client gets an accepted receipt, a rejected one (isError) and an
// unauthorized one, each byte-equal to what the HTTPS binding returns for the same response afterwards; a
// transport failure is a *respondent.TransportError and a collector's problem a *respondent.ProblemError.
func TestOwnClientMatchesHTTPS(t *testing.T) {
	ts := newService(t)
	q := issue(t, ts)
	c := &aqpmcp.Client{HTTP: ts.Client()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d := respondent.Delivery{Binding: "mcp", Endpoint: q.endpoint, Operation: spec.MCPOperation, Authorization: q.auth}

	wrongAuth := quickstartResponse(t, q.queryID, "0198c7d0-2180-7729-b005-d33c99fc0003", "yes")
	rejected := quickstartResponse(t, q.queryID, "0198c7d0-2180-7729-b005-d33c99fc0001", "maybe")
	accepted := quickstartResponse(t, q.queryID, "0198c7d0-2180-7729-b005-d33c99fc0002", "partly")
	for _, s := range []struct {
		name, auth, code string
		body             []byte
	}{
		{"wrong capability", "Bearer wrong", "unauthorized", wrongAuth},
		{"rejected", q.auth, "answer_invalid", rejected},
		{"accepted", q.auth, "", accepted},
	} {
		d.Authorization = s.auth
		reply, err := c.Call(ctx, d.Endpoint, d.Operation, s.auth, s.body)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		code, _ := harnessCode(reply.Receipt)
		if code != s.code || reply.IsError != (s.code != "") {
			t.Fatalf("%s: code %q isError %v: %s", s.name, code, reply.IsError, reply.Receipt)
		}
		if s.code == "" {
			if got, err := c.Deliver(ctx, d, s.body); err != nil || string(got) != string(reply.Receipt) {
				t.Fatalf("a duplicate over MCP: %v\n%s", err, got)
			}
			if via := postHTTPS(t, ts, s.auth, s.body); string(via) != string(reply.Receipt) {
				t.Fatalf("%s: HTTPS returned\n%s\nMCP returned\n%s", s.name, via, reply.Receipt)
			}
		}
	}

	_, err := c.Deliver(ctx, respondent.Delivery{Binding: "mcp", Endpoint: q.endpoint, Authorization: q.auth}, []byte(`{"answer":"yes"}`))
	var pe *respondent.ProblemError
	if !errors.As(err, &pe) || !strings.Contains(pe.Detail, "no receipt can be formed") {
		t.Fatalf("no ids: want a ProblemError, got %v", err)
	}
	_, err = c.Deliver(ctx, respondent.Delivery{Binding: "mcp", Endpoint: q.endpoint, Authorization: q.auth}, []byte(`[1]`))
	if !errors.As(err, &pe) {
		t.Fatalf("an array: want a ProblemError, got %v", err)
	}
	var te *respondent.TransportError
	short, cancelShort := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancelShort()
	time.Sleep(time.Millisecond)
	if _, err := c.Deliver(short, d, accepted); !errors.As(err, &te) {
		t.Fatalf("an ended context: want a TransportError, got %v", err)
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	if _, err := c.Deliver(ctx, respondent.Delivery{Binding: "mcp", Endpoint: dead.URL + "/mcp", Authorization: q.auth}, accepted); !errors.As(err, &te) {
		t.Fatalf("a closed server: want a TransportError, got %v", err)
	}
	notMCP := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"accepted"}`))
	}))
	defer notMCP.Close()
	if _, err := c.Deliver(ctx, respondent.Delivery{Binding: "mcp", Endpoint: notMCP.URL, Authorization: q.auth}, accepted); !errors.As(err, &te) {
		t.Fatalf("a server that does not speak MCP: want a TransportError, got %v", err)
	}
}

func harnessCode(receipt []byte) (string, bool) {
	r, errs := core.ParseReceipt(receipt)
	if len(errs) > 0 {
		return "", false
	}
	if r.Error == nil {
		return "", true
	}
	return string(r.Error.Code), true
}
