package mcp_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/service"
)

// toolServer is an mcp-go tool server whose one tool, "search", is asked about through the carriage.
func toolServer(t *testing.T, issuer collector.Issuer, extra func(*mcp.CallToolResult)) *httptest.Server {
	c := aqpmcp.Carriage{Issuer: issuer, Draft: func(ctx context.Context, req mcp.CallToolRequest, res *mcp.CallToolResult) ([]byte, error) {
		if req.Params.Name != "search" {
			return nil, nil
		}
		return []byte(strings.Replace(quickstartDraft, "call_01JQ8QY3EJX9", "call-search-1", 1)), nil
	}, OnError: func(tool string, err error) { t.Errorf("%s: %v", tool, err) }}
	ms := server.NewMCPServer("tools", "1", server.WithToolHandlerMiddleware(c.Middleware()))
	ms.AddTool(mcp.NewTool("search"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := mcp.NewToolResultText("3 results")
		if extra != nil {
			extra(res)
		}
		return res, nil
	})
	ms.AddTool(mcp.NewTool("echo"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("echo"), nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(ms, server.WithStateLess(true)))
	t.Cleanup(ts.Close)
	return ts
}

func callTool(t *testing.T, url, name string) *mcp.CallToolResult {
	t.Helper()
	tr, _ := transport.NewStreamableHTTP(url + "/mcp")
	cl := mcpclient.NewClient(tr)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cl.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	res, err := cl.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestCarriageRoundTrip: a tool server's middleware issues a query (in-process and through a remote collector's
// admin API) and attaches it to the tool's result; the host extracts the typed query, drops an invalid one with its
// rule, keeps an expired one (expiry is the runtime's to judge, not the reader's), and answers the issued one over
// MCP.
func TestCarriageRoundTrip(t *testing.T) {
	collectorTS, svc := newServiceWith(t)
	remote, err := service.NewAdminClient(collectorTS.URL, adminToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	expired := []byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"feedback",
"subject":{"kind":"task","id":"t"},"prompt":"p","timing":"immediate","consentMode":"not_required","response":{"format":"boolean"},
"expiresAt":"2020-01-01T00:00:00Z","delivery":{"binding":"https","endpoint":"https://c.example/aqp/v1/responses","authorization":"Bearer x"}}`)
	for _, issuer := range []struct {
		name string
		is   collector.Issuer
	}{{"in-process collector", svc.Collector()}, {"remote admin API", remote}} {
		t.Run(issuer.name, func(t *testing.T) {
			tools := toolServer(t, issuer.is, func(res *mcp.CallToolResult) {
				if err := aqpmcp.Attach(res, expired); err != nil {
					t.Fatal(err)
				}
				res.Meta.AdditionalFields[aqpmcp.QueriesKey] = append(res.Meta.AdditionalFields[aqpmcp.QueriesKey].([]any),
					map[string]any{"queryId": "not a query"})
			})
			if qs, dropped := aqpmcp.Queries(callTool(t, tools.URL, "echo")); len(qs)+len(dropped) != 0 {
				t.Fatalf("echo carries no query, got %v %v", qs, dropped)
			}
			res := callTool(t, tools.URL, "search")
			// The expired query is well carried, so the reader keeps it: expiry is the runtime's to judge (TestIntake).
			qs, dropped := aqpmcp.Queries(res)
			if len(qs) != 2 || len(dropped) != 1 {
				t.Fatalf("want 2 queries and 1 dropped, got %d %+v", len(qs), dropped)
			}
			if dropped[0].Index != 1 || dropped[0].Rule != core.CarriageRequest || !strings.Contains(dropped[0].Reason, "not a valid QueryRequest") {
				t.Fatalf("reasons: %+v", dropped)
			}
			if qs[0].Request.ExpiresAt != "2020-01-01T00:00:00Z" {
				t.Fatalf("the expired query is not kept first: %s", qs[0].JSON)
			}
			q := qs[1].Request
			if q.Subject.ID != "call-search-1" || string(q.Delivery.Binding) != "mcp" {
				t.Fatalf("query: %+v", q)
			}
			body := quickstartResponse(t, q.QueryID, "0198c7d0-2180-7729-b005-d33c99fc2001", "yes")
			body = []byte(strings.Replace(string(body), "call_01JQ8QY3EJX9", "call-search-1", 1))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			op := ""
			if q.Delivery.Operation != nil {
				op = *q.Delivery.Operation
			}
			receipt, err := (&aqpmcp.Client{}).Deliver(ctx, respondent.Delivery{Binding: string(q.Delivery.Binding), Endpoint: *q.Delivery.Endpoint,
				Operation: op, Authorization: *q.Delivery.Authorization}, body)
			if err != nil || !strings.Contains(string(receipt), `"status":"accepted"`) {
				t.Fatalf("answering the carried query: %v %s", err, receipt)
			}
		})
	}
}

// TestAttachRefusesInvalid: an invalid request is not attached.
func TestAttachRefusesInvalid(t *testing.T) {
	res := mcp.NewToolResultText("x")
	if err := aqpmcp.Attach(res, []byte(`{"queryId":"x"}`)); err == nil || res.Meta != nil {
		t.Fatalf("want an error and nothing attached, got %v %v", err, res.Meta)
	}
	if err := aqpmcp.Attach(nil); err == nil {
		t.Fatal("a nil result must be an error")
	}
	if qs, d := aqpmcp.Queries(&mcp.CallToolResult{Result: mcp.Result{Meta: &mcp.Meta{AdditionalFields: map[string]any{aqpmcp.QueriesKey: "x"}}}}); qs != nil || len(d) != 1 {
		t.Fatalf("a non-array: %v %v", qs, d)
	}
}

// newRuntime is a respondent runtime that answers "yes" over the MCP binding's client, under policy.
func newRuntime(t *testing.T, policy *respondent.Policy) *respondent.Respondent {
	t.Helper()
	grants, err := respondent.OpenGrantFile(filepath.Join(t.TempDir(), "grants.json"))
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := respondent.NewRegistry(&aqpmcp.Client{HTTP: policy.Client()})
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

// TestIntake: a host hands a tool result to the runtime; the carried query is taken in and answered over MCP,
// the carriage's drops (expired, invalid) and the runtime's (a destination its policy refuses) come back with
// their reasons, and a result without queries gives neither.
func TestIntake(t *testing.T) {
	_, svc := newServiceWith(t)
	expired := []byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"feedback",
"subject":{"kind":"task","id":"t"},"prompt":"p","timing":"immediate","consentMode":"not_required","response":{"format":"boolean"},
"expiresAt":"2020-01-01T00:00:00Z","delivery":{"binding":"https","endpoint":"https://c.example/aqp/v1/responses","authorization":"Bearer x"}}`)
	tools := toolServer(t, svc.Collector(), func(res *mcp.CallToolResult) {
		if err := aqpmcp.Attach(res, expired); err != nil {
			t.Fatal(err)
		}
		res.Meta.AdditionalFields[aqpmcp.QueriesKey] = append(res.Meta.AdditionalFields[aqpmcp.QueriesKey].([]any),
			map[string]any{"queryId": "not a query"})
	})
	res := callTool(t, tools.URL, "search")

	r := newRuntime(t, &respondent.Policy{AllowHTTPLoopback: true})
	qs, drops := aqpmcp.Intake(r, "mcp tool result search", res)
	if len(qs) != 1 || len(drops) != 2 {
		t.Fatalf("want 1 query taken in and 2 dropped, got %d, %v", len(qs), drops)
	}
	// The carriage's drop first (entry 1, not a query), then the runtime's: the expired query, judged at intake.
	if drops[0].Source != "mcp tool result search, entry 1" || !strings.Contains(drops[0].Reason, "not a valid QueryRequest") ||
		drops[1].Source != "mcp tool result search" || !strings.HasPrefix(drops[1].Reason, "expired") {
		t.Fatalf("drops: %v", drops)
	}
	q := qs[0]
	r.OutcomeKnown(q.Request.Subject)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := r.Respond(ctx, q)
	if err != nil || !out.Accepted {
		t.Fatalf("answering the carried query over MCP: %v %+v", err, out)
	}

	// The strict policy refuses plain http to loopback: the runtime drops the carried query on arrival.
	qs, drops = aqpmcp.Intake(newRuntime(t, &respondent.Policy{}), "mcp tool result search", callTool(t, tools.URL, "search"))
	if len(qs) != 0 || len(drops) != 3 || !strings.Contains(drops[2].Error(), "http-loopback") || drops[2].QueryID == "" {
		t.Fatalf("strict policy: %d taken in, drops %v", len(qs), drops)
	}
	if qs, drops := aqpmcp.Intake(r, "mcp tool result echo", callTool(t, tools.URL, "echo")); len(qs)+len(drops) != 0 {
		t.Fatalf("echo carries no query, got %v %v", qs, drops)
	}
	if _, drops := aqpmcp.Intake(nil, "x", res); len(drops) != 1 {
		t.Fatalf("no runtime: %v", drops)
	}
}
