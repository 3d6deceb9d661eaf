package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/spf13/cobra"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
	"github.com/agentqueryprotocol/aqp-go/transports"
)

func newDemoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "A five-minute tour: a collector and a respondent exchange a query over each binding",
		Long: `Start an embedded collector (in-memory store, on a loopback port) and, over each binding, issue a query,
carry it to an embedded respondent the way that binding carries queries, answer it (consent granted by the demo's
principal, the answer checked against the contract) and deliver it: every object is printed as it travels, with
its receipt. Nothing is kept and nothing leaves this machine.

Exit status: 0 every exchange accepted, 1 one was not.`,
		Example: "  go run ./cmd/aqp demo",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := context.WithTimeout(cmd.Context(), time.Minute)
			defer cancel()
			if err := runDemo(ctx, cmd.OutOrStdout()); err != nil {
				return failure(exitInvalid, err)
			}
			return nil
		},
	}
}

// demoEnv is what each binding's step works with: the collector (as an Issuer), the listener's base URL, the
// respondent's HTTP client (the destination policy's) and runtime, and the mux where a step's application is
// mounted.
type demoEnv struct {
	issuer  collector.Issuer
	baseURL string
	client  *http.Client
	r       *respondent.Respondent
	grants  respondent.GrantStore
	mux     *http.ServeMux
}

// demoErr keeps the first error an application's callback reports from its server goroutine, for the step.
type demoErr struct {
	mu  sync.Mutex
	err error
}

func (e *demoErr) set(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err == nil {
		e.err = err
	}
}

func (e *demoErr) get() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// demoCarried is what a step's carriage brought the respondent: the first query's JSON as it travelled, the
// queries the runtime took in, the ones it dropped with their reasons, and a line saying how they travelled.
type demoCarried struct {
	raw   []byte
	qs    []*respondent.Query
	drops []*respondent.DropError
	how   string
}

// demoStep is one binding's part of the tour: carry issues a query for the binding the way an application on
// that binding would, carries it to the respondent the way the binding carries queries and hands it to the
// runtime through the binding's carriage. Adding a binding is one entry here.
type demoStep struct {
	binding string
	carry   func(ctx context.Context, env *demoEnv) (*demoCarried, error)
}

var demoSteps = []demoStep{
	{binding: https.Name, carry: carryHTTPS},
	{binding: aqpmcp.Name, carry: carryMCP},
	{binding: a2ab.Name, carry: carryA2A},
}

// demoDraft is the query each step's application asks: about its own reply, after its outcome is known, with
// consent asked once per scope (so the grant given on the first binding answers the others).
func demoDraft(binding string, kind aqp.QuerySubjectKind, subjectID string) []byte {
	return []byte(`{"type":"feedback","binding":"` + binding + `","subject":{"kind":"` + string(kind) + `","id":"` + subjectID + `","protocol":"` + binding + `"},` +
		`"prompt":"Did this answer what you asked?","response":{"format":"choice","choices":["yes","partly","no"]},` +
		`"timing":"after_outcome_known","consentMode":"ask_once","consentScope":"aqp-demo:feedback","ttlSeconds":300}`)
}

// carryHTTPS: an application endpoint answers a GET and attaches a query about its answer in the AQP-Query
// response header; the respondent reads it from there.
func carryHTTPS(ctx context.Context, env *demoEnv) (*demoCarried, error) {
	env.mux.HandleFunc("GET /demo/forecast", func(w http.ResponseWriter, r *http.Request) {
		q, err := env.issuer.Issue(r.Context(), demoDraft(https.Name, aqp.QuerySubjectKindToolResult, "forecast-1"))
		if err == nil {
			err = https.Attach(w.Header(), q)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "Sunny, 21 °C.\n")
	})
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, env.baseURL+"/demo/forecast", nil)
	resp, err := env.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	docs, dropped := https.Queries(resp.Header)
	if len(dropped) > 0 || len(docs) != 1 {
		return nil, fmt.Errorf("the application's reply carried %d queries (dropped: %v)", len(docs), dropped)
	}
	hdr := resp.Header.Get(https.QueryHeader)
	c := &demoCarried{raw: docs[0].JSON,
		how: fmt.Sprintf("GET %s/demo/forecast → %s %q, with header %s: %s… (%d characters of base64url)",
			env.baseURL, resp.Status, strings.TrimSpace(string(body)), https.QueryHeader, hdr[:min(len(hdr), 24)], len(hdr))}
	q, err := env.r.Intake("AQP-Query header", c.raw)
	if err != nil {
		var drop *respondent.DropError
		if !errors.As(err, &drop) {
			return nil, err
		}
		c.drops = append(c.drops, drop)
	} else {
		c.qs = append(c.qs, q)
	}
	return c, nil
}

// carryMCP: an mcp-go tool server, mounted at /demo/tools, whose "search" results carry a query under _meta
// (mcp.Carriage middleware, issuing through the collector); the respondent calls the tool with mcp-go's client and
// hands the result to the runtime through the MCP carriage.
func carryMCP(ctx context.Context, env *demoEnv) (*demoCarried, error) {
	var issueErr demoErr
	carriage := aqpmcp.Carriage{
		Issuer: env.issuer,
		Draft: func(context.Context, mcp.CallToolRequest, *mcp.CallToolResult) ([]byte, error) {
			return demoDraft(aqpmcp.Name, aqp.QuerySubjectKindToolResult, "search-1"), nil
		},
		OnError: func(_ string, err error) { issueErr.set(err) },
	}
	tools := server.NewMCPServer("aqp-demo-tools", "1.0.0", server.WithToolHandlerMiddleware(carriage.Middleware()))
	tools.AddTool(mcp.NewTool("search", mcp.WithDescription("Search the catalogue."), mcp.WithString("q", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("3 results for %q", req.GetString("q", ""))), nil
		})
	env.mux.Handle("/demo/tools", server.NewStreamableHTTPServer(tools, server.WithStateLess(true)))

	url := env.baseURL + "/demo/tools"
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPBasicClient(env.client))
	if err != nil {
		return nil, err
	}
	cl := mcpclient.NewClient(tr)
	defer cl.Close()
	if err := cl.Start(ctx); err != nil {
		return nil, fmt.Errorf("connecting to the tool server: %w", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "aqp demo respondent", Version: moduleVersion()}
	if _, err := cl.Initialize(ctx, init); err != nil {
		return nil, fmt.Errorf("initializing: %w", err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "search"
	call.Params.Arguments = map[string]any{"q": "weather"}
	res, err := cl.CallTool(ctx, call)
	if err != nil {
		return nil, fmt.Errorf("calling search: %w", err)
	}
	if err := issueErr.get(); err != nil {
		return nil, fmt.Errorf("the tool server issued no query: %w", err)
	}
	var text mcp.TextContent
	if len(res.Content) > 0 {
		text, _ = res.Content[0].(mcp.TextContent)
	}
	c := &demoCarried{raw: firstCarried(res.Meta.AdditionalFields[aqpmcp.QueriesKey]),
		how: fmt.Sprintf("tools/call search at %s → %q, with _meta[%q] holding the query", url, text.Text, aqpmcp.QueriesKey)}
	c.qs, c.drops = aqpmcp.Intake(env.r, "mcp tool result search", res)
	return c, nil
}

// demoAgent is an existing a2a-go agent: it answers any message.
type demoAgent struct{}

func (demoAgent) Execute(ctx context.Context, execCtx *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		reply := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("Sunny, 21 °C."))
		reply.ContextID = execCtx.ContextID
		yield(reply, nil)
	}
}

func (demoAgent) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(func(a2a.Event, error) bool) {}
}

// carryA2A: an a2a-go agent wrapped in a2a.AskingExecutor, mounted at /demo/agent, whose reply message carries a
// query in its metadata; the respondent sends it a message with a2a-go's client and hands the reply to the
// runtime through the A2A carriage.
func carryA2A(ctx context.Context, env *demoEnv) (*demoCarried, error) {
	var issueErr demoErr
	agent := &a2ab.AskingExecutor{Agent: demoAgent{}, Issuer: env.issuer,
		Draft: func(_ context.Context, _ *a2asrv.ExecutorContext, ev a2a.Event) []byte {
			if m, ok := ev.(*a2a.Message); ok {
				return demoDraft(a2ab.Name, aqp.QuerySubjectKindMessage, m.ID)
			}
			return nil
		},
		OnError: func(err error) { issueErr.set(err) }}
	env.mux.Handle("/demo/agent", a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(agent)))

	url := env.baseURL + "/demo/agent"
	res, err := a2ab.SendText(ctx, env.client, url, "What is the weather?")
	if err != nil {
		return nil, err
	}
	if err := issueErr.get(); err != nil {
		return nil, fmt.Errorf("the agent issued no query: %w", err)
	}
	reply, ok := res.(*a2a.Message)
	if !ok {
		return nil, fmt.Errorf("the agent replied with a %T, not a Message", res)
	}
	text := ""
	if len(reply.Parts) > 0 {
		text = reply.Parts[0].Text()
	}
	c := &demoCarried{raw: firstCarried(reply.Metadata[a2ab.QueriesKey]),
		how: fmt.Sprintf("SendMessage to %s → reply message %s %q, with metadata[%q] holding the query", url, reply.ID, text, a2ab.QueriesKey)}
	c.qs, c.drops = a2ab.Intake(env.r, "a2a message "+reply.ID, reply)
	return c, nil
}

// firstCarried is the JSON of the first entry of a carried array (decoded by the binding's library), for printing.
func firstCarried(v any) []byte {
	if arr, ok := v.([]any); ok && len(arr) > 0 {
		if b, err := json.Marshal(arr[0]); err == nil {
			return b
		}
	}
	return nil
}

// runDemo runs the tour and prints it to w.
func runDemo(ctx context.Context, w io.Writer) error {
	quiet := slog.New(slog.DiscardHandler)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	baseURL := "http://" + ln.Addr().String()
	token := make([]byte, 32)
	_, _ = rand.Read(token)
	svc, err := service.New(service.Config{
		Collector:  collector.Config{Store: memory.New(), PublicURL: baseURL, Logger: quiet},
		Bindings:   []service.Binding{https.Binding{}, aqpmcp.Binding{}, a2ab.Binding{}},
		AdminToken: base64.RawURLEncoding.EncodeToString(token),
		Logger:     quiet,
	})
	if err != nil {
		ln.Close()
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/", svc.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()

	dir, err := os.MkdirTemp("", "aqp-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	grants, err := respondent.OpenGrantFile(filepath.Join(dir, "consent-grants.json"))
	if err != nil {
		return err
	}
	policy := &respondent.Policy{AllowHTTPLoopback: true}
	client := policy.Client()
	reg := transports.Registry(client)
	r, err := respondent.New(respondent.Config{
		Transports: reg, Policy: policy, Grants: grants,
		Respondent: aqp.QueryResponseRespondent{Kind: aqp.QueryResponseRespondentKindAgent, Provenance: aqp.QueryResponseRespondentProvenanceDirect},
		Consent: func(_ context.Context, q *respondent.Query) (bool, error) {
			say(w, "   consent: the query asks (%s, scope %q); the demo's principal grants it — remembered for the scope\n",
				q.Request.ConsentMode, deref(q.Request.ConsentScope))
			return true, nil
		},
		Answer: func(_ context.Context, q *respondent.Query) (respondent.Answer, error) {
			c := 0.9
			return respondent.Answer{Value: "yes", Explanation: "The answer matched the question.", Confidence: &c}, nil
		},
	})
	if err != nil {
		return err
	}
	say(w, "AQP demo: a collector at %s (in-memory store) and a respondent, over %d binding(s)\n", baseURL, len(demoSteps))
	env := &demoEnv{issuer: svc.Collector(), baseURL: baseURL, client: client, r: r, grants: grants, mux: mux}
	var failed []string
	for i, step := range demoSteps {
		say(w, "\n== %d. binding %s\n", i+1, step.binding)
		if _, ok := reg.Get(step.binding); !ok {
			say(w, "   skipped: the respondent has no %s transport\n", step.binding)
			continue
		}
		if err := demoExchange(ctx, w, env, step); err != nil {
			say(w, "   FAILED: %v\n", err)
			failed = append(failed, step.binding)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("the exchange failed over %s", strings.Join(failed, ", "))
	}
	say(w, "\nEvery exchange was accepted. Next: run a collector with `aqp serve`, issue a query with `aqp query create`, answer it with `aqp respond`.\n")
	return nil
}

// demoExchange runs one binding's exchange and prints each object as it travels.
func demoExchange(ctx context.Context, w io.Writer, env *demoEnv, step demoStep) error {
	c, err := step.carry(ctx, env)
	if err != nil {
		return err
	}
	say(w, "-> the query travels to the respondent: %s\n", c.how)
	if c.raw != nil {
		printObject(w, "QueryRequest", c.raw)
	}
	for _, d := range c.drops {
		say(w, "   respondent: dropped: %v\n", d)
	}
	if len(c.qs) != 1 {
		return fmt.Errorf("the respondent took in %d queries, want 1", len(c.qs))
	}
	r, q := env.r, c.qs[0]
	say(w, "   respondent: the query is valid; timing %s, so it waits for the host's signal\n", q.Request.Timing)
	r.OutcomeKnown(q.Request.Subject)
	say(w, "   host: the outcome of %s %s is known\n", q.Request.Subject.Kind, q.Request.Subject.ID)
	if scope := deref(q.Request.ConsentScope); q.Request.ConsentMode == aqp.QueryRequestConsentModeAskOnce && scope != "" {
		issuer, _ := respondent.Issuer(q.Delivery().Endpoint)
		if _, ok, _ := env.grants.LookupGrant(issuer, scope); ok {
			say(w, "   consent: scope %q was granted on an earlier exchange; ask_once does not ask again\n", scope)
		}
	}
	res, err := r.Respond(ctx, q)
	if res != nil && res.Response != nil {
		say(w, "-> the response travels to %s over %s\n", q.Delivery().Endpoint, step.binding)
		printObject(w, "QueryResponse", res.Response)
	}
	if res != nil && res.Receipt != nil {
		say(w, "<- the receipt comes back (%d attempt(s))\n", res.Attempts)
		printObject(w, "QueryReceipt", res.Receipt)
	}
	if err != nil {
		return err
	}
	if !res.Accepted {
		return errors.New("not accepted")
	}
	return nil
}

// printObject prints one object as it travels, indented, with capabilities cut short.
func printObject(w io.Writer, name string, raw []byte) {
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "   ", "  ") != nil {
		buf.Reset()
		buf.Write(raw)
	}
	// Capabilities are secrets even in a demo's output: show only their start.
	out := buf.String()
	if i := strings.Index(out, `"Bearer `); i >= 0 {
		if j := strings.IndexByte(out[i+8:], '"'); j > 8 {
			out = out[:i+8+6] + "…(capability)" + out[i+8+j:]
		}
	}
	say(w, "   %s %s\n", name, out)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
