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
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/bindings/transports"
	"github.com/agentqueryprotocol/aqp-go/core"
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
// respondent's HTTP client (the destination policy's), and the mux where a step's application is mounted.
type demoEnv struct {
	issuer  collector.Issuer
	baseURL string
	client  *http.Client
	mux     *http.ServeMux
}

// demoStep is one binding's part of the tour: carry issues a query for the binding the way an application on
// that binding would, carries it to the respondent the way the binding carries queries, and returns the query
// JSON as the respondent received it, with a line saying how it travelled. Adding a binding is one entry here.
type demoStep struct {
	binding string
	carry   func(ctx context.Context, env *demoEnv) (query []byte, how string, err error)
}

var demoSteps = []demoStep{
	{binding: https.Name, carry: carryHTTPS},
	// mcp: a tool result's _meta; a2a: message or task metadata — added with their bindings.
}

// demoDraft is the query each step's application asks: about its own reply, after its outcome is known, with
// consent asked once per scope.
func demoDraft(binding, subjectID string) []byte {
	return []byte(`{"type":"feedback","binding":"` + binding + `","subject":{"kind":"tool_result","id":"` + subjectID + `","protocol":"` + binding + `"},` +
		`"prompt":"Did this answer what you asked?","response":{"format":"choice","choices":["yes","partly","no"]},` +
		`"timing":"after_outcome_known","consentMode":"ask_once","consentScope":"aqp-demo:feedback","ttlSeconds":300}`)
}

// carryHTTPS: an application endpoint answers a GET and attaches a query about its answer in the AQP-Query
// response header; the respondent reads it from there.
func carryHTTPS(ctx context.Context, env *demoEnv) ([]byte, string, error) {
	env.mux.HandleFunc("GET /demo/forecast", func(w http.ResponseWriter, r *http.Request) {
		q, err := env.issuer.Issue(r.Context(), demoDraft(https.Name, "forecast-1"))
		if err == nil {
			err = https.AttachQuery(w.Header(), q)
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
		return nil, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	docs, err := https.Queries(resp.Header)
	if err != nil || len(docs) != 1 {
		return nil, "", fmt.Errorf("the application's reply carried %d queries: %v", len(docs), err)
	}
	hdr := resp.Header.Get(https.QueryHeader)
	how := fmt.Sprintf("GET %s/demo/forecast → %s %q, with header %s: %s… (%d characters of base64url)",
		env.baseURL, resp.Status, strings.TrimSpace(string(body)), https.QueryHeader, hdr[:min(len(hdr), 24)], len(hdr))
	return core.CompactJSON(docs[0].Value), how, nil
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
		Bindings:   []service.Binding{https.Binding{}},
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
			fmt.Fprintf(w, "   consent: the query asks (%s, scope %q); the demo's principal grants it — remembered for the scope\n",
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
	fmt.Fprintf(w, "AQP demo: a collector at %s (in-memory store) and a respondent, over %d binding(s)\n", baseURL, len(demoSteps))
	env := &demoEnv{issuer: svc.Collector(), baseURL: baseURL, client: client, mux: mux}
	var failed []string
	for i, step := range demoSteps {
		fmt.Fprintf(w, "\n== %d. binding %s\n", i+1, step.binding)
		if _, ok := reg.Get(step.binding); !ok {
			fmt.Fprintf(w, "   skipped: the respondent has no %s transport\n", step.binding)
			continue
		}
		if err := demoExchange(ctx, w, r, env, step); err != nil {
			fmt.Fprintf(w, "   FAILED: %v\n", err)
			failed = append(failed, step.binding)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("the exchange failed over %s", strings.Join(failed, ", "))
	}
	fmt.Fprintf(w, "\nEvery exchange was accepted. Next: run a collector with `aqp serve`, issue a query with `aqp query create`, answer it with `aqp respond`.\n")
	return nil
}

// demoExchange runs one binding's exchange and prints each object as it travels.
func demoExchange(ctx context.Context, w io.Writer, r *respondent.Respondent, env *demoEnv, step demoStep) error {
	raw, how, err := step.carry(ctx, env)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "-> the query travels to the respondent: %s\n", how)
	printObject(w, "QueryRequest", raw)
	q, err := r.Intake(step.binding+" carriage", raw)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "   respondent: the query is valid; timing %s, so it waits for the host's signal\n", q.Request.Timing)
	r.OutcomeKnown(q.Request.Subject)
	fmt.Fprintf(w, "   host: the outcome of %s %s is known\n", q.Request.Subject.Kind, q.Request.Subject.ID)
	res, err := r.Respond(ctx, q)
	if res != nil && res.Response != nil {
		fmt.Fprintf(w, "-> the response travels to %s over %s\n", q.Delivery().Endpoint, step.binding)
		printObject(w, "QueryResponse", res.Response)
	}
	if res != nil && res.Receipt != nil {
		fmt.Fprintf(w, "<- the receipt comes back (%d attempt(s))\n", res.Attempts)
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
	fmt.Fprintf(w, "   %s %s\n", name, out)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
