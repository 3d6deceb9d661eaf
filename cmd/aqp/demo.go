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
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/bindings"
	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
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

// demoCarried is what a step's carriage brought the respondent: the query as the application issued and carried
// it, the queries the runtime took in, the ones it dropped with their reasons, and a line saying how they
// travelled.
type demoCarried struct {
	raw   []byte
	qs    []*respondent.Query
	drops []*respondent.DropError
	how   string
}

// demoApp is one binding's application in the tour: mount puts on the mux, at path, an application of that binding
// that issues a query about its reply through the binding's own carriage helper and carries it the binding's way;
// how says how the query travels. The respondent reads it with the binding's carriage reader (bindings.Fetch), the
// one `aqp respond --from` uses. The tour walks bindings.All and shows each binding that has an application here.
type demoApp struct {
	path  string
	mount func(env *demoEnv, issueErr *demoErr)
	how   string
}

var demoApps = map[string]demoApp{
	https.Name: {path: "/demo/forecast", mount: mountHTTPS,
		how: "GET {url} → a reply with header " + https.QueryHeader + " holding the query (base64url JSON)"},
	aqpmcp.Name: {path: "/demo/tools", mount: mountMCP,
		how: fmt.Sprintf("tools/call forecast at {url} → a result with _meta[%q] holding the query", aqpmcp.QueriesKey)},
	a2ab.Name: {path: "/demo/agent", mount: mountA2A,
		how: fmt.Sprintf("SendMessage to {url} → a reply message with metadata[%q] holding the query", a2ab.QueriesKey)},
}

// demoDraft is the query each step's application asks: about its own reply, after its outcome is known, with
// consent asked once per scope (so the grant given on the first binding answers the others).
func demoDraft(binding string, kind aqp.QuerySubjectKind, subjectID string) []byte {
	return []byte(`{"type":"feedback","binding":"` + binding + `","subject":{"kind":"` + string(kind) + `","id":"` + subjectID + `","protocol":"` + binding + `"},` +
		`"prompt":"Did this answer what you asked?","response":{"format":"choice","choices":["yes","partly","no"]},` +
		`"timing":"after_outcome_known","consentMode":"ask_once","consentScope":"aqp-demo:feedback","ttlSeconds":300}`)
}

// mountHTTPS: an application endpoint answers a GET and attaches a query about its answer in the AQP-Query
// response header (https.AttachQuery).
func mountHTTPS(env *demoEnv, _ *demoErr) {
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
}

// mountMCP: an mcp-go tool server whose "forecast" results carry a query under _meta (the mcp.Carriage
// middleware, issuing through the collector).
func mountMCP(env *demoEnv, issueErr *demoErr) {
	carriage := aqpmcp.Carriage{
		Issuer: env.issuer,
		Draft: func(context.Context, mcp.CallToolRequest, *mcp.CallToolResult) ([]byte, error) {
			return demoDraft(aqpmcp.Name, aqp.QuerySubjectKindToolResult, "forecast-2"), nil
		},
		OnError: func(_ string, err error) { issueErr.set(err) },
	}
	tools := server.NewMCPServer("aqp-demo-tools", "1.0.0", server.WithToolHandlerMiddleware(carriage.Middleware()))
	tools.AddTool(mcp.NewTool("forecast", mcp.WithDescription("Tell the weather.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("Sunny, 21 °C."), nil
		})
	env.mux.Handle("/demo/tools", server.NewStreamableHTTPServer(tools, server.WithStateLess(true)))
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

// mountA2A: an a2a-go agent wrapped in a2a.AskingExecutor, whose reply message carries a query in its metadata.
func mountA2A(env *demoEnv, issueErr *demoErr) {
	agent := &a2ab.AskingExecutor{Agent: demoAgent{}, Issuer: env.issuer,
		Draft: func(_ context.Context, _ *a2asrv.ExecutorContext, ev a2a.Event) []byte {
			if m, ok := ev.(*a2a.Message); ok {
				return demoDraft(a2ab.Name, aqp.QuerySubjectKindMessage, m.ID)
			}
			return nil
		},
		OnError: func(err error) { issueErr.set(err) }}
	env.mux.Handle("/demo/agent", a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(agent)))
}

// carry mounts the binding's application and has the respondent read the query its reply carries with the
// binding's carriage reader.
func (app demoApp) carry(ctx context.Context, env *demoEnv, binding string) (*demoCarried, error) {
	var issueErr demoErr
	issued := &lastIssued{Issuer: env.issuer}
	appEnv := *env
	appEnv.issuer = issued
	app.mount(&appEnv, &issueErr)
	url := env.baseURL + app.path
	qs, drops, err := bindings.Fetch(ctx, env.client, env.r, binding, url)
	if err != nil {
		return nil, err
	}
	if err := issueErr.get(); err != nil {
		return nil, fmt.Errorf("the application issued no query: %w", err)
	}
	return &demoCarried{raw: issued.get(), qs: qs, drops: drops, how: strings.ReplaceAll(app.how, "{url}", url)}, nil
}

// lastIssued is the collector as an application's Issuer, keeping the last query issued for the tour to print
// as it travelled.
type lastIssued struct {
	collector.Issuer
	mu   sync.Mutex
	last []byte
}

func (l *lastIssued) Issue(ctx context.Context, draft []byte) ([]byte, error) {
	q, err := l.Issuer.Issue(ctx, draft)
	if err == nil {
		l.mu.Lock()
		l.last = q
		l.mu.Unlock()
	}
	return q, err
}

func (l *lastIssued) get() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
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
		Bindings:   bindings.Service(),
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
	reg := bindings.Registry(policy)
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
	say(w, "AQP demo: a collector at %s (in-memory store) and a respondent, over %d binding(s)\n", baseURL, len(demoApps))
	env := &demoEnv{issuer: svc.Collector(), baseURL: baseURL, client: client, r: r, grants: grants, mux: mux}
	var failed []string
	for i, binding := range bindings.Names() {
		app, ok := demoApps[binding]
		if !ok {
			continue
		}
		say(w, "\n== %d. binding %s\n", i+1, binding)
		if _, ok := reg.Get(binding); !ok {
			say(w, "   skipped: the respondent has no %s transport\n", binding)
			continue
		}
		if err := demoExchange(ctx, w, env, app, binding); err != nil {
			say(w, "   FAILED: %v\n", err)
			failed = append(failed, binding)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("the exchange failed over %s", strings.Join(failed, ", "))
	}
	say(w, "\nEvery exchange was accepted. Next: run a collector with `aqp serve`, issue a query with `aqp query create`, answer it with `aqp respond`.\n")
	return nil
}

// demoExchange runs one binding's exchange and prints each object as it travels.
func demoExchange(ctx context.Context, w io.Writer, env *demoEnv, app demoApp, binding string) error {
	c, err := app.carry(ctx, env, binding)
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
		say(w, "-> the response travels to %s over %s\n", q.Delivery().Endpoint, binding)
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
	// JSON text has no raw line breaks inside its strings, so its lines are the indentation's: each is made safe on
	// its own (display would write a line break as \n and put the whole object on one line).
	lines := strings.Split(out, "\n")
	say(w, "   %s %s\n", name, lines[0])
	for _, line := range lines[1:] {
		say(w, "%s\n", line)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
