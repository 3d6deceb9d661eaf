package respondentrun

import (
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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentqueryprotocol/aqp-go/bindings"
	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// Bindings are the bindings the runner carries queries over and collects responses on.
var Bindings = bindings.Names()

// arrival is one submission the embedded collector received, with what it answered.
type arrival struct {
	// seq orders arrivals as the collector received them.
	seq     int
	Binding string
	// Authorization is the HTTP Authorization header the binding's request carried ("" when absent).
	Authorization string
	Body          []byte
	Accepted      bool
	Code          core.Code
	// Receipt is the QueryReceipt the collector answered with (nil when it formed none).
	Receipt []byte
}

// recorder keeps every submission any binding hands the collector, in order, so that each run takes its own: the
// arrivals for its query and for the continuations their receipts carry. Runs over different columns go on at once.
type recorder struct {
	mu  sync.Mutex
	all []arrival
	seq int
	// clock is held for reading by every submission and issue, and for writing while a query is issued in the
	// collector's past (env.issue): moving the clock must not move it under another run's submission.
	clock sync.RWMutex
}

func (r *recorder) wrap(sub collector.Submitter) collector.Submitter {
	return collector.Wrap(sub, func(ctx context.Context, s collector.Submission) collector.Outcome {
		r.clock.RLock()
		out := sub.Submit(ctx, s)
		r.clock.RUnlock()
		r.mu.Lock()
		r.seq++
		r.all = append(r.all, arrival{seq: r.seq, Binding: s.Binding, Authorization: s.Authorization, Body: append([]byte(nil), s.Body...), Accepted: out.Accepted, Code: out.Code, Receipt: out.Receipt})
		r.mu.Unlock()
		return out
	})
}

// take returns, in order, the arrivals for queryID and for the continuations their receipts carry (and theirs),
// and forgets them.
func (r *recorder) take(queryID string) []arrival {
	r.mu.Lock()
	defer r.mu.Unlock()
	want := map[string]bool{strings.ToLower(queryID): true}
	var out []arrival
	for changed := true; changed; {
		changed = false
		keep := r.all[:0]
		for _, a := range r.all {
			if !want[arrivalQueryID(a)] {
				keep = append(keep, a)
				continue
			}
			out = append(out, a)
			if c := continuationQueryID(a.Receipt); c != "" && !want[c] {
				want[c], changed = true, true
			}
		}
		r.all = keep
	}
	slices.SortStableFunc(out, func(a, b arrival) int { return a.seq - b.seq })
	return out
}

func arrivalQueryID(a arrival) string {
	var m struct {
		QueryID string `json:"queryId"`
	}
	_ = json.Unmarshal(a.Body, &m)
	return strings.ToLower(m.QueryID)
}

func continuationQueryID(receipt []byte) string {
	var m struct {
		Continuation *struct {
			QueryID string `json:"queryId"`
		} `json:"continuation"`
	}
	if json.Unmarshal(receipt, &m) != nil || m.Continuation == nil {
		return ""
	}
	return strings.ToLower(m.Continuation.QueryID)
}

// recBinding is a binding whose submissions pass through the recorder.
type recBinding struct {
	service.Binding
	rec *recorder
}

func (b recBinding) Handler(sub collector.Submitter) http.Handler {
	return b.Binding.Handler(b.rec.wrap(sub))
}

// recRoutesBinding also forwards a binding's extra routes (A2A's agent card).
type recRoutesBinding struct{ recBinding }

func (b recRoutesBinding) Routes(publicURL string, sub collector.Submitter) map[string]http.Handler {
	return b.Binding.(service.ExtraRoutes).Routes(publicURL, b.rec.wrap(sub))
}

// flakyStore fails the acceptance of an armed query once, so that the collector answers with its own retryable
// `unavailable` receipt, exactly as it does when its store is down.
type flakyStore struct {
	collector.Store
	armed sync.Map // queryId → struct{}
}

func (s *flakyStore) Accept(ctx context.Context, a collector.Acceptance) (*collector.Acceptance, error) {
	if _, ok := s.armed.LoadAndDelete(a.QueryID); ok {
		return nil, errors.New("conformance runner: the store is down for this one attempt")
	}
	return s.Store.Accept(ctx, a)
}

// continuationType is the query type the embedded collector follows up: an accepted answer to a query of this type
// gets a continuation (continuationRules), and no other scenario's query has it.
const continuationType = "correction"

// continuationRules are the embedded collector's continuation rules: an accepted answer to a correction query
// gets a follow-up choice question, over the same binding, that the respondent under test can answer "yes" (an
// evaluation, which no rule follows up, so the chain ends there).
const continuationRules = `{"rules":[{"name":"conformance-follow-up","when":{"types":["` + continuationType + `"]},
 "draft":{"type":"evaluation","prompt":"Did the follow-up reach you? (answer yes)","response":{"format":"choice","choices":["yes","no"]},
  "timing":"immediate","consentMode":"not_required","ttlSeconds":300}}]}`

// env is the runner's side of the exchange: an embedded collector on a loopback port (memory store) serving every
// binding, and the carriers, mounted per run under /carrier/<token>.
type env struct {
	base     string
	hs       *http.Server
	coll     *collector.Collector
	store    *flakyStore
	rec      *recorder
	offset   atomic.Int64 // added to the collector's clock, to issue queries already expired
	carriers sync.Map     // token → http.Handler
	// columns are the collectors of the columns other than https, by name: the same collector behind each
	// column's filter, on a listener of its own.
	columns map[string]*columnServer
}

func newEnv() (*env, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	e := &env{base: "http://" + ln.Addr().String(), store: &flakyStore{Store: memory.New()}, rec: &recorder{}}
	var served []service.Binding
	for _, b := range bindings.Service() {
		rb := recBinding{Binding: b, rec: e.rec}
		if _, ok := b.(service.ExtraRoutes); ok {
			served = append(served, recRoutesBinding{rb})
		} else {
			served = append(served, rb)
		}
	}
	rules, err := collector.ParseRules([]byte(continuationRules))
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("the runner's continuation rules: %w", err)
	}
	token := make([]byte, 32)
	_, _ = rand.Read(token)
	quiet := slog.New(slog.DiscardHandler)
	svc, err := service.New(service.Config{
		Collector: collector.Config{Store: e.store, PublicURL: e.base, Logger: quiet, Rules: rules,
			Clock: func() time.Time { return time.Now().Add(time.Duration(e.offset.Load())) }},
		Bindings:   served,
		AdminToken: base64.RawURLEncoding.EncodeToString(token),
		Logger:     quiet,
	})
	if err != nil {
		ln.Close()
		return nil, err
	}
	e.coll = svc.Collector()
	mux := http.NewServeMux()
	mux.Handle("/", svc.Handler())
	mux.HandleFunc("/carrier/{token}/{rest...}", func(w http.ResponseWriter, r *http.Request) {
		h, ok := e.carriers.Load(r.PathValue("token"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		h.(http.Handler).ServeHTTP(w, r)
	})
	mux.HandleFunc("/carrier/{token}", func(w http.ResponseWriter, r *http.Request) {
		h, ok := e.carriers.Load(r.PathValue("token"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		h.(http.Handler).ServeHTTP(w, r)
	})
	e.hs = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = e.hs.Serve(ln) }()
	e.columns = map[string]*columnServer{}
	for _, c := range Columns {
		if c.Binding == https.Name {
			continue
		}
		cs, err := startColumn(c, svc.Handler())
		if err != nil {
			e.close()
			return nil, err
		}
		e.columns[c.Name] = cs
	}
	return e, nil
}

func (e *env) close() {
	_ = e.hs.Close()
	for _, cs := range e.columns {
		_ = cs.hs.Close()
	}
}

// atColumn returns the query with its delivery endpoint moved to the column's collector (same path): the same
// collector, reached only the way the column speaks.
func (e *env) atColumn(c Column, query []byte) ([]byte, error) {
	cs, ok := e.columns[c.Name]
	if !ok {
		return query, nil
	}
	var m map[string]any
	if err := json.Unmarshal(query, &m); err != nil {
		return nil, err
	}
	d, _ := m["delivery"].(map[string]any)
	ep, _ := d["endpoint"].(string)
	if !strings.HasPrefix(ep, e.base) {
		return nil, fmt.Errorf("delivery endpoint %q is not the embedded collector's", ep)
	}
	d["endpoint"] = cs.base + strings.TrimPrefix(ep, e.base)
	return json.Marshal(m)
}

// issue issues a query from draft; expired issues it an hour in the collector's past, so it has expired already.
func (e *env) issue(ctx context.Context, draft []byte, expired bool) ([]byte, error) {
	if expired {
		e.rec.clock.Lock()
		defer e.rec.clock.Unlock()
		e.offset.Store(int64(-time.Hour))
		defer e.offset.Store(0)
	} else {
		e.rec.clock.RLock()
		defer e.rec.clock.RUnlock()
	}
	return e.coll.Issue(ctx, draft)
}

// unauthorisedHost is where the unauthorised-destination scenario points delivery: 0.0.0.0 is not a public
// address, not loopback and not allowed by any destination rule, yet a connection to it reaches this machine's
// own listeners, so a respondent that ignores the rules delivers to the embedded collector — where the runner sees
// it — and no traffic ever leaves the machine.
const unauthorisedHost = "0.0.0.0"

// redirect returns the query with its delivery endpoint moved to unauthorisedHost (same port and path).
func redirect(query []byte) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(query, &m); err != nil {
		return nil, err
	}
	d, _ := m["delivery"].(map[string]any)
	ep, _ := d["endpoint"].(string)
	if !strings.HasPrefix(ep, "http://127.0.0.1:") {
		return nil, fmt.Errorf("delivery endpoint %q is not the embedded collector's", ep)
	}
	d["endpoint"] = "http://" + unauthorisedHost + strings.TrimPrefix(ep, "http://127.0.0.1")
	return json.Marshal(m)
}

// carry mounts a carrier for one run that carries query over the column and returns its URL.
func (e *env) carry(c Column, query []byte) (url string, done func(), err error) {
	tb := make([]byte, 12)
	_, _ = rand.Read(tb)
	token := base64.RawURLEncoding.EncodeToString(tb)
	url = e.base + "/carrier/" + token
	var h http.Handler
	stop := func() {}
	switch binding := c.Binding; binding {
	case https.Name:
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := https.Attach(w.Header(), query); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			_, _ = io.WriteString(w, "Sunny, 21 °C.\n")
		})
	case aqpmcp.Name:
		tools := server.NewMCPServer("aqp-conformance-carrier", "1.0.0")
		tools.AddTool(mcp.NewTool("forecast", mcp.WithDescription("Tell the weather.")),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				res := mcp.NewToolResultText("Sunny, 21 °C.")
				if err := aqpmcp.Attach(res, query); err != nil {
					return nil, err
				}
				return res, nil
			})
		h = columnFilter(c, server.NewStreamableHTTPServer(tools, server.WithStateLess(true)))
	case a2ab.Name:
		if h, url, stop, err = a2aCarrier(c, query, url); err != nil {
			return "", nil, err
		}
		if h == nil { // a carrier on a listener of its own
			return url, stop, nil
		}
	default:
		return "", nil, fmt.Errorf("unknown binding %q: want one of %v", binding, Bindings)
	}
	e.carriers.Store(token, h)
	return url, func() { e.carriers.Delete(token); stop() }, nil
}

// carrierAgent is an A2A agent whose every reply message carries the query in its metadata.
type carrierAgent struct{ query []byte }

func (a carrierAgent) Execute(ctx context.Context, execCtx *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		reply := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("Sunny, 21 °C."))
		reply.ContextID = execCtx.ContextID
		if err := a2ab.Attach(reply, a.query); err != nil {
			yield(nil, err)
			return
		}
		yield(reply, nil)
	}
}

func (carrierAgent) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(func(a2a.Event, error) bool) {}
}
