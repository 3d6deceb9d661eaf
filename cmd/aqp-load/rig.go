package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/structpb"

	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"github.com/google/uuid"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/loadwire"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
	"github.com/agentqueryprotocol/aqp-go/store/sqlite"
)

// The rig (-mode rig) is the one command behind BENCHMARKS.md's throughput table: every store and every binding
// column of the collector, each measured right after its bare baseline in the same round, in process and against
// `aqp serve` child processes (one new binary and, with -aqp-old, an old one, so a before/after comes from one
// run), with pgbench beside the PostgreSQL rows. The machine may be noisy: what it prints per row is the median
// over the rounds of subject ÷ baseline, each ratio taken within one round, which survives a slow minute that a
// comparison of absolute figures across runs does not.

// rigConfig is what -mode rig measures.
type rigConfig struct {
	aqpNew, aqpOld string // binaries; aqpOld "" measures the new one only
	pgURL          string // server the rig creates its databases on; "" skips PostgreSQL
	pgbench        string // pgbench binary; "" or missing skips the anchor
	clients        int
	requests       int // submissions per phase
	rounds         int
	pgbenchFor     time.Duration
	only           *regexp.Regexp // rows to run (by name); nil runs all
	dir            string
}

// rigJob is one request of a phase: an HTTP POST, or (grpc set) an A2A SendMessage over gRPC.
type rigJob struct {
	url, auth string
	header    http.Header
	body      []byte
	grpc      bool
}

// sample is one measured phase.
type sample struct {
	perSec    float64
	p50, p99  time.Duration
	ok, other int
	db        *dbCost // PostgreSQL rows: what each operation cost the server
}

// rigRow is one line of the table: a subject and its baseline, both measured every round, and their ratios.
type rigRow struct {
	name, where, binary, baseline string
	run                           func(ctx context.Context) (subject, base sample, err error)
	subjects, bases               []sample
}

// column is one binding column of the collector: how a response is sent over it, to the bare SDK server and to
// `aqp serve`.
type column struct {
	name     string
	binding  string // the draft's delivery.binding
	wrap     func(response []byte) []byte
	header   http.Header
	barePath string // the bare server's path for it
	suffix   string // appended to delivery.endpoint
	grpc     bool
}

var mcpHeaderModern = http.Header{"Accept": {"application/json, text/event-stream"},
	"Mcp-Protocol-Version": {"2026-07-28"}, "Mcp-Method": {"tools/call"}, "Mcp-Name": {spec.MCPOperation}}
var mcpHeaderLegacy = http.Header{"Accept": {"application/json, text/event-stream"}, "Mcp-Protocol-Version": {"2025-11-25"}}
var a2aHeader10 = http.Header{a2ab.VersionHeader: {a2ab.Version}, a2ab.ExtensionsHeader: {spec.A2AExtension}}

var columns = []column{
	{name: "HTTPS", binding: "https", barePath: "/aqp/v1/responses"},
	{name: "MCP 2026-07-28", binding: "mcp", wrap: loadwire.ToolsCallModern, header: mcpHeaderModern, barePath: spec.MCPPath},
	{name: "MCP 2025-11-25", binding: "mcp", wrap: loadwire.ToolsCall, header: mcpHeaderLegacy, barePath: spec.MCPPath},
	{name: "A2A 1.0 JSON-RPC", binding: "a2a", wrap: loadwire.SendMessage10, header: a2aHeader10, barePath: "/a2a"},
	{name: "A2A 1.0 HTTP+JSON", binding: "a2a", wrap: loadwire.SendParams10, header: a2aHeader10, barePath: "/a2a-rest" + a2ab.RESTSendPath, suffix: a2ab.RESTSendPath},
	{name: "A2A 1.0 gRPC", binding: "a2a", grpc: true},
	{name: "A2A 0.3 JSON-RPC", binding: "a2a", wrap: loadwire.MessageSend03, barePath: "/a2a-0.3"},
}

// runRig measures every row cfg selects, rounds times, and prints the table.
func runRig(ctx context.Context, cfg rigConfig) error {
	start := time.Now()
	if cfg.aqpNew == "" {
		cfg.aqpNew = filepath.Join(cfg.dir, "aqp")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", cfg.aqpNew, "./cmd/aqp").CombinedOutput(); err != nil {
			return fmt.Errorf("building aqp (run aqp-load from the repository root, or pass -aqp): %v\n%s", err, out)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	bare, err := startBare(ctx, self, cfg.dir)
	if err != nil {
		return err
	}
	defer bare.stop()

	var rows []*rigRow
	var cleanups []func()
	defer func() {
		for _, c := range slices.Backward(cleanups) {
			c()
		}
	}()
	add := func(r *rigRow) {
		if cfg.only == nil || cfg.only.MatchString(r.where+" "+r.name+" "+r.binary) {
			rows = append(rows, r)
		}
	}
	// In process: the collector and the bare handler in the load program itself (as `go test -bench` sees them).
	inBare := func(ctx context.Context) (sample, error) { return inProcessBare(ctx, cfg) }
	add(&rigRow{name: "memory store, HTTPS", where: "in process", binary: "new", baseline: "bare net/http, in process",
		run: pairWith(inBare, func(ctx context.Context) (sample, error) { return inProcessCollector(ctx, cfg, "memory") })})
	add(&rigRow{name: "SQLite store (durable), HTTPS", where: "in process", binary: "new", baseline: "bare net/http, in process",
		run: pairWith(inBare, func(ctx context.Context) (sample, error) { return inProcessCollector(ctx, cfg, "sqlite") })})

	// Out of process: `aqp serve` children, each binary, each store; the bare server is a child too.
	outBare := func(c column) func(ctx context.Context) (sample, error) {
		return func(ctx context.Context) (sample, error) { return bare.measure(ctx, cfg, c) }
	}
	binaries := [][2]string{{"new", cfg.aqpNew}}
	if cfg.aqpOld != "" {
		binaries = append(binaries, [2]string{"old", cfg.aqpOld})
	}
	var pgbenchAnchor func(ctx context.Context) (sample, error)
	if cfg.pgURL != "" && cfg.pgbench != "" {
		if _, err := os.Stat(cfg.pgbench); err == nil {
			dsn, drop, err := freshPG(ctx, cfg.pgURL, "aqp_rig_pgbench_")
			if err != nil {
				return err
			}
			cleanups = append(cleanups, drop)
			if out, err := exec.CommandContext(ctx, cfg.pgbench, "-i", "-q", "-s", "4", dsn).CombinedOutput(); err != nil {
				return fmt.Errorf("pgbench -i: %v\n%s", err, out)
			}
			pgbenchAnchor = func(ctx context.Context) (sample, error) {
				return metered(ctx, cfg, func() (sample, error) { return runPgbench(ctx, cfg, dsn) })
			}
		}
	}
	for _, b := range binaries {
		tag, bin := b[0], b[1]
		lazy := func(start func() ([]*collectorProcess, error)) func() ([]*collectorProcess, error) {
			var procs []*collectorProcess
			var err error
			var once sync.Once
			return func() ([]*collectorProcess, error) {
				once.Do(func() {
					if procs, err = start(); err == nil {
						cleanups = append(cleanups, func() {
							for _, p := range procs {
								p.stop()
							}
						})
					}
				})
				return procs, err
			}
		}
		sqliteProc := lazy(func() ([]*collectorProcess, error) {
			p, err := startCollector(ctx, bin, filepath.Join(cfg.dir, "serve-sqlite-"+tag))
			return []*collectorProcess{p}, err
		})
		for _, c := range columns {
			if tag == "old" && c.binding != "https" {
				continue // before/after is the stores' question; the binding columns are measured on the new binary
			}
			add(&rigRow{name: "SQLite store (durable), " + c.name, where: "aqp serve", binary: tag, baseline: "bare " + bareName(c) + ", child process",
				run: pairWith(outBare(c), func(ctx context.Context) (sample, error) { return serveMeasure(ctx, cfg, sqliteProc, c, false) })})
		}
		if cfg.pgURL == "" {
			continue
		}
		pgProcs := func(n int) func() ([]*collectorProcess, error) {
			return lazy(func() ([]*collectorProcess, error) {
				dsn, drop, err := freshPG(ctx, cfg.pgURL, "aqp_rig_")
				if err != nil {
					return nil, err
				}
				cleanups = append(cleanups, drop)
				var ps []*collectorProcess
				for i := range n {
					p, err := startCollector(ctx, bin, filepath.Join(cfg.dir, fmt.Sprintf("serve-pg%d-%s-%d", n, tag, i)), "--store", dsn)
					if err != nil {
						for _, p := range ps {
							p.stop()
						}
						return nil, err
					}
					ps = append(ps, p)
				}
				return ps, nil
			})
		}
		one, two := pgProcs(1), pgProcs(2)
		https := columns[0]
		add(&rigRow{name: "PostgreSQL store, HTTPS", where: "aqp serve", binary: tag, baseline: "bare net/http, child process",
			run: pairWith(outBare(https), func(ctx context.Context) (sample, error) { return serveMeasure(ctx, cfg, one, https, true) })})
		if pgbenchAnchor != nil {
			add(&rigRow{name: "PostgreSQL store, HTTPS", where: "aqp serve", binary: tag, baseline: "pgbench -N, 16 clients",
				run: pairWith(pgbenchAnchor, func(ctx context.Context) (sample, error) { return serveMeasure(ctx, cfg, one, https, true) })})
		}
		add(&rigRow{name: "PostgreSQL store, two aqp serve, HTTPS", where: "aqp serve", binary: tag, baseline: "one aqp serve on PostgreSQL",
			run: pairWith(func(ctx context.Context) (sample, error) { return serveMeasure(ctx, cfg, one, https, true) },
				func(ctx context.Context) (sample, error) { return serveMeasure(ctx, cfg, two, https, true) })})
	}
	if len(rows) == 0 {
		return errors.New("-only selects no row")
	}

	fmt.Printf("# aqp-load -mode rig: %d clients, %d submissions per phase, %d rounds, GOMAXPROCS %d, %s\n\n",
		cfg.clients, cfg.requests, cfg.rounds, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average at start: %s\n", strings.Join(strings.Fields(string(la))[:3], " "))
	}
	for round := range cfg.rounds {
		for _, r := range rows {
			s, b, err := r.run(ctx)
			if err != nil {
				return fmt.Errorf("round %d, %s %s (%s): %w", round+1, r.where, r.name, r.binary, err)
			}
			r.subjects, r.bases = append(r.subjects, s), append(r.bases, b)
			fmt.Fprintf(os.Stderr, "round %d %-10s %-4s %-45s %8.0f/s vs %8.0f/s (%s)\n", round+1, r.where, r.binary, r.name, s.perSec, b.perSec, r.baseline)
		}
	}
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average at end: %s; took %s\n\n", strings.Join(strings.Fields(string(la))[:3], " "), time.Since(start).Round(time.Second))
	}
	fmt.Println("| where | subject | aqp | accepted/s (median) | p99 (median) | baseline | baseline /s (median) | ratio per round | median ratio |")
	fmt.Println("| --- | --- | --- | ---: | ---: | --- | ---: | --- | ---: |")
	for _, r := range rows {
		var ratios []string
		var rs []float64
		for i := range r.subjects {
			q := r.subjects[i].perSec / r.bases[i].perSec
			rs = append(rs, q)
			ratios = append(ratios, pct(q, r.baseline))
		}
		p99 := "—"
		if r.subjects[0].p99 > 0 {
			p99 = ms(medianDur(r.subjects, func(s sample) time.Duration { return s.p99 }))
		}
		fmt.Printf("| %s | %s | %s | %.0f | %s | %s | %.0f | %s | **%s** |\n", r.where, r.name, r.binary,
			median(r.subjects, func(s sample) float64 { return s.perSec }), p99, r.baseline,
			median(r.bases, func(s sample) float64 { return s.perSec }), strings.Join(ratios, " "), pct(medianF(rs), r.baseline))
	}
	var costs []string
	for _, r := range rows {
		for _, side := range []struct {
			name string
			xs   []sample
		}{{r.name + " (" + r.binary + ")", r.subjects}, {r.baseline, r.bases}} {
			if len(side.xs) == 0 || side.xs[0].db == nil || strings.HasPrefix(side.name, "bare") || strings.HasPrefix(side.name, "one aqp") {
				continue
			}
			line := fmt.Sprintf("| %s | %.0f µs | %.0f B |", side.name,
				median(side.xs, func(s sample) float64 { return float64(s.db.cpu) / float64(time.Microsecond) }),
				median(side.xs, func(s sample) float64 { return s.db.wal }))
			if !slices.ContainsFunc(costs, func(c string) bool { return strings.HasPrefix(c, "| "+side.name+" |") }) {
				costs = append(costs, line)
			}
		}
	}
	if len(costs) > 0 {
		fmt.Println()
		fmt.Println("What each acceptance (pgbench: each transaction) cost the PostgreSQL server, medians over the rounds:")
		fmt.Println()
		fmt.Println("| subject | server CPU per operation | WAL per operation |")
		fmt.Println("| --- | ---: | ---: |")
		for _, c := range costs {
			fmt.Println(c)
		}
	}
	for _, r := range rows {
		for _, s := range r.subjects {
			if s.other > 0 {
				return fmt.Errorf("%s %s (%s): %d submissions were not accepted", r.where, r.name, r.binary, s.other)
			}
		}
	}
	return nil
}

// pct renders a ratio as a percentage, or as a factor for the two-processes row.
func pct(q float64, baseline string) string {
	if strings.HasPrefix(baseline, "one aqp serve") {
		return fmt.Sprintf("%.2f×", q)
	}
	return fmt.Sprintf("%.0f%%", 100*q)
}

func bareName(c column) string {
	switch {
	case c.binding == "https":
		return "net/http"
	case c.binding == "mcp":
		return "mcp-go"
	case c.grpc:
		return "a2a-go (gRPC via net/http h2c)"
	}
	return "a2a-go"
}

// pairWith measures the baseline, then the subject, in that order, every round.
func pairWith(base, subject func(ctx context.Context) (sample, error)) func(ctx context.Context) (sample, sample, error) {
	return func(ctx context.Context) (sample, sample, error) {
		b, err := base(ctx)
		if err != nil {
			return sample{}, sample{}, fmt.Errorf("baseline: %w", err)
		}
		s, err := subject(ctx)
		return s, b, err
	}
}

func median(xs []sample, f func(sample) float64) float64 {
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = f(x)
	}
	return medianF(v)
}

func medianF(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func medianDur(xs []sample, f func(sample) time.Duration) time.Duration {
	return time.Duration(median(xs, func(s sample) float64 { return float64(f(s)) }))
}

// drive sends every job from clients goroutines and times the phase. Over HTTP a 200 whose body says accepted (or
// a bare server's fixed receipt) counts as accepted; over gRPC a reply part saying accepted.
func drive(ctx context.Context, clients int, jobs []rigJob) (sample, error) {
	hc := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConns: clients * 2, MaxIdleConnsPerHost: clients * 2, DisableCompression: true}}
	defer hc.CloseIdleConnections()
	var gc a2apb.A2AServiceClient
	if len(jobs) > 0 && jobs[0].grpc {
		conn, err := grpc.NewClient(jobs[0].url, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return sample{}, err
		}
		defer conn.Close()
		gc = a2apb.NewA2AServiceClient(conn)
	}
	meta, _ := structpb.NewStruct(map[string]any{a2ab.ObjectKey: a2ab.ObjectResponse})
	lat := make([]time.Duration, len(jobs))
	var ok, other atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	_ = forEach(len(jobs), clients, func(i int) error {
		j := jobs[i]
		t0 := time.Now()
		var reply []byte
		good := false
		if j.grpc {
			req := &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: uuid.NewString(), Role: a2apb.Role_ROLE_USER,
				Extensions: []string{spec.A2AExtension},
				Parts:      []*a2apb.Part{{Content: &a2apb.Part_Raw{Raw: j.body}, MediaType: a2ab.MediaTypeJSON, Metadata: meta}}}}
			gctx := metadata.NewOutgoingContext(ctx, metadata.Pairs(strings.ToLower(a2ab.VersionHeader), a2ab.Version,
				strings.ToLower(a2ab.ExtensionsHeader), spec.A2AExtension, "authorization", j.auth))
			resp, err := gc.SendMessage(gctx, req)
			if err == nil {
				for _, p := range resp.GetMessage().GetParts() {
					switch c := p.GetContent().(type) {
					case *a2apb.Part_Raw:
						reply = c.Raw
					case *a2apb.Part_Data:
						reply, _ = c.Data.MarshalJSON()
					}
				}
				good = bytes.Contains(reply, []byte("accepted"))
			} else {
				firstErr.CompareAndSwap(nil, err)
			}
		} else {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, j.url, bytes.NewReader(j.body))
			for k, v := range j.header {
				req.Header[k] = v
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", j.auth)
			resp, err := hc.Do(req)
			if err == nil {
				reply, _ = io.ReadAll(resp.Body)
				resp.Body.Close()
				good = resp.StatusCode == http.StatusOK && bytes.Contains(reply, []byte(`accepted`)) && !bytes.Contains(reply, []byte(`"isError":true`))
				if !good {
					firstErr.CompareAndSwap(nil, fmt.Errorf("%s: %d %.300s", j.url, resp.StatusCode, reply))
				}
			} else {
				firstErr.CompareAndSwap(nil, err)
			}
		}
		lat[i] = time.Since(t0)
		if good {
			ok.Add(1)
		} else {
			other.Add(1)
		}
		return nil
	})
	elapsed := time.Since(start)
	slices.Sort(lat)
	s := sample{perSec: float64(ok.Load()) / elapsed.Seconds(), ok: int(ok.Load()), other: int(other.Load()),
		p50: lat[(len(lat)-1)*50/100], p99: lat[(len(lat)-1)*99/100]}
	if e, _ := firstErr.Load().(error); e != nil && s.other > 0 {
		return s, fmt.Errorf("%d of %d not accepted, the first: %w", s.other, len(jobs), e)
	}
	return s, nil
}

// inProcessBare is the bare baseline in the load program's own process (bareSetup).
func inProcessBare(ctx context.Context, cfg rigConfig) (sample, error) {
	jobs, _, stop, err := bareSetup(ctx, cfg.requests)
	if err != nil {
		return sample{}, err
	}
	defer stop()
	return drive(ctx, cfg.clients, fromJobs(jobs))
}

func fromJobs(js []job) []rigJob {
	out := make([]rigJob, len(js))
	for i, j := range js {
		out[i] = rigJob{url: j.url, auth: j.auth, body: j.body}
	}
	return out
}

// inProcessCollector serves a fresh collector over HTTPS in the load program on the memory or SQLite store.
func inProcessCollector(ctx context.Context, cfg rigConfig, store string) (sample, error) {
	path := filepath.Join(cfg.dir, "inproc-"+uuid.NewString()+".db")
	defer os.Remove(path)
	defer os.Remove(path + "-wal")
	defer os.Remove(path + "-shm")
	jobs, _, stop, err := collectorSetup(func() (collector.Store, func() (int, error), error) {
		if store == "memory" {
			return memory.New(), nil, nil
		}
		s, err := sqlite.Open(ctx, path)
		return s, nil, err
	})(ctx, cfg.requests)
	if err != nil {
		return sample{}, err
	}
	defer stop()
	return drive(ctx, cfg.clients, fromJobs(jobs))
}

// serveMeasure issues cfg.requests queries over the column's binding through the first process's admin API, then
// submits a fresh response to each, spread over all the processes (they share the store).
func serveMeasure(ctx context.Context, cfg rigConfig, procs func() ([]*collectorProcess, error), c column, onPG bool) (sample, error) {
	ps, err := procs()
	if err != nil {
		return sample{}, err
	}
	draft := []byte(workload.Draft)
	if c.binding != "https" {
		draft = bytes.Replace(draft, []byte(`{`), []byte(`{"binding":"`+c.binding+`",`), 1)
	}
	jobs := make([]rigJob, cfg.requests)
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	defer hc.CloseIdleConnections()
	err = forEach(len(jobs), 16, func(i int) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ps[0].url+"/admin/v1/queries", bytes.NewReader(draft))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+ps[0].token)
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var q struct {
			QueryID  string
			Delivery struct{ Endpoint, Authorization string }
		}
		if err := json.Unmarshal(body, &q); err != nil || resp.StatusCode != http.StatusCreated {
			return fmt.Errorf("issuing: %d %.300s", resp.StatusCode, body)
		}
		p := ps[i%len(ps)]
		endpoint := strings.Replace(q.Delivery.Endpoint, ps[0].url, p.url, 1)
		body = workload.Response(q.QueryID)
		j := rigJob{url: endpoint + c.suffix, auth: q.Delivery.Authorization, header: c.header, body: body, grpc: c.grpc}
		if c.wrap != nil {
			j.body = c.wrap(body)
		}
		if c.grpc {
			j.url = a2ab.GRPCTarget(p.url)
		}
		jobs[i] = j
		return nil
	})
	if err != nil {
		return sample{}, err
	}
	if len(ps) > 1 {
		// One gRPC connection per phase would reach one process; the two-process rows are HTTPS only.
		if c.grpc {
			return sample{}, errors.New("two processes: gRPC not supported")
		}
	}
	if onPG {
		return metered(ctx, cfg, func() (sample, error) { return drive(ctx, cfg.clients, jobs) })
	}
	return drive(ctx, cfg.clients, jobs)
}

// bareProcess is the bare servers of every column, in one child process of the load program (-mode bare-serve).
type bareProcess struct {
	cmd *exec.Cmd
	url string
}

func startBare(ctx context.Context, self, dir string) (*bareProcess, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(self, "-mode", "bare-serve", "-addr", addr)
	logf, err := os.Create(filepath.Join(dir, "bare.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &bareProcess{cmd: cmd, url: "http://" + addr}
	for range 200 {
		if resp, err := http.Get(p.url + "/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.stop()
	return nil, fmt.Errorf("the bare server did not start; see %s", logf.Name())
}

func (p *bareProcess) stop() {
	_ = p.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
	}
}

// measure sends the column's requests (fresh responses to random queryIds) to the bare server.
func (p *bareProcess) measure(ctx context.Context, cfg rigConfig, c column) (sample, error) {
	jobs := make([]rigJob, cfg.requests)
	for i := range jobs {
		body := workload.Response(uuid.Must(uuid.NewV7()).String())
		if c.wrap != nil {
			body = c.wrap(body)
		}
		jobs[i] = rigJob{url: p.url + c.barePath, auth: "Bearer x", header: c.header, body: body, grpc: c.grpc}
		if c.grpc {
			jobs[i].url = a2ab.GRPCTarget(p.url)
		}
	}
	return drive(ctx, cfg.clients, jobs)
}

// freshPG creates a uniquely named database on the server at serverURL and returns its URL and a function that
// drops it.
func freshPG(ctx context.Context, serverURL, prefix string) (string, func(), error) {
	admin, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return "", nil, fmt.Errorf("PostgreSQL at -pg: %w", err)
	}
	defer admin.Close(ctx)
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := prefix + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, err
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if admin, err := pgx.Connect(ctx, serverURL); err == nil {
			_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			admin.Close(ctx)
		}
	}
	return u.String(), drop, nil
}

var tpsLine = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)
var txLine = regexp.MustCompile(`number of transactions actually processed: ([0-9]+)`)

// runPgbench runs pgbench's built-in simple-update script (-N: one row updated, one read, one inserted, in a
// transaction of five statements) with 16 clients: the server's own rate of small durable write transactions.
func runPgbench(ctx context.Context, cfg rigConfig, dsn string) (sample, error) {
	out, err := exec.CommandContext(ctx, cfg.pgbench, "-N", "-c", "16", "-j", "2", "-T", strconv.Itoa(int(cfg.pgbenchFor.Seconds())), dsn).CombinedOutput()
	if err != nil {
		return sample{}, fmt.Errorf("pgbench: %v\n%s", err, out)
	}
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return sample{}, fmt.Errorf("pgbench printed no tps:\n%s", out)
	}
	tps, _ := strconv.ParseFloat(string(m[1]), 64)
	s := sample{perSec: tps}
	if m := txLine.FindSubmatch(out); m != nil {
		s.ok, _ = strconv.Atoi(string(m[1]))
	}
	return s, nil
}

// pgMeter reads what the PostgreSQL server has spent: the CPU time of all its processes (the postmaster's own and
// its reaped children's, plus every live child's) and its WAL position. The difference around a phase, divided by
// the phase's acceptances, is what one acceptance costs the database — the figure that says how many collector
// processes one server can carry. Only for a server on this machine (found by its process name); nil otherwise.
type pgMeter struct{ postmaster int }

func newPGMeter() *pgMeter {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		st, err := procStat(pid)
		if err == nil && st.comm == "postgres" && st.ppid != 0 {
			if parent, err := procStat(st.ppid); err != nil || parent.comm != "postgres" {
				return &pgMeter{postmaster: pid}
			}
		}
	}
	return nil
}

type statFields struct {
	comm                         string
	ppid                         int
	utime, stime, cutime, cstime int64
}

// procStat parses /proc/PID/stat (man 5 proc): comm in parentheses, then ppid (4th), utime, stime, cutime, cstime
// (14th–17th) in clock ticks.
func procStat(pid int) (statFields, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return statFields{}, err
	}
	s := string(b)
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return statFields{}, errors.New("malformed stat")
	}
	f := strings.Fields(s[closing+1:])
	if len(f) < 15 {
		return statFields{}, errors.New("malformed stat")
	}
	n := func(i int) int64 { v, _ := strconv.ParseInt(f[i], 10, 64); return v }
	return statFields{comm: s[open+1 : closing], ppid: int(n(1)), utime: n(11), stime: n(12), cutime: n(13), cstime: n(14)}, nil
}

// cpu is the server's CPU time so far.
func (m *pgMeter) cpu() time.Duration {
	const tick = 10 * time.Millisecond // USER_HZ is 100 on Linux
	pm, err := procStat(m.postmaster)
	if err != nil {
		return 0
	}
	total := pm.utime + pm.stime + pm.cutime + pm.cstime
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if st, err := procStat(pid); err == nil && st.ppid == m.postmaster {
			total += st.utime + st.stime
		}
	}
	return time.Duration(total) * tick
}

// wal is the server's current WAL position in bytes.
func walPosition(ctx context.Context, serverURL string) (float64, error) {
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	var v float64
	err = conn.QueryRow(ctx, `SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::float8`).Scan(&v)
	return v, err
}

// dbCost is what a phase cost the PostgreSQL server, per operation.
type dbCost struct {
	cpu time.Duration
	wal float64
}

// metered runs phase and adds the database's CPU and WAL per accepted operation to its sample.
func metered(ctx context.Context, cfg rigConfig, phase func() (sample, error)) (sample, error) {
	m := newPGMeter()
	if m == nil || cfg.pgURL == "" {
		return phase()
	}
	cpu0 := m.cpu()
	wal0, err := walPosition(ctx, cfg.pgURL)
	if err != nil {
		return phase()
	}
	s, err := phase()
	if err != nil || s.ok == 0 {
		return s, err
	}
	cpu1 := m.cpu()
	wal1, err := walPosition(ctx, cfg.pgURL)
	if err != nil {
		return s, nil
	}
	s.db = &dbCost{cpu: (cpu1 - cpu0) / time.Duration(s.ok), wal: (wal1 - wal0) / float64(s.ok)}
	return s, nil
}
