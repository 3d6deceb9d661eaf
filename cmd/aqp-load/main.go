// Command aqp-load measures a collector under load on loopback and prints a Markdown report: the disk's fsync
// rate, then the same submission workload against a bare net/http baseline (decode the body, write a fixed
// receipt), the collector on the in-memory store, and the collector on SQLite with every receipt durable. All
// figures come from one run on one machine, so compare them as ratios.
//
//	go run ./cmd/aqp-load [-clients 32] [-requests 30000]
//
// The rig is BENCHMARKS.md's throughput table in one command: every store (memory and SQLite in process; SQLite,
// PostgreSQL and two processes on one PostgreSQL against `aqp serve` children) and every binding column (HTTPS,
// both MCP eras, each A2A transport), each right after its bare baseline in the same round, pgbench -N beside the
// PostgreSQL rows, and with -aqp-old an older binary's rows from the same rounds (about 5 minutes; -quick about 1):
//
//	go run ./cmd/aqp-load -mode rig [-quick] [-aqp bin/aqp] [-aqp-old /tmp/aqp-old] [-pg postgres://…] [-only REGEXP]
//
// Two more modes reproduce attacks on a real `aqp serve` process (built from ./cmd/aqp unless -aqp names a binary):
//
//	go run ./cmd/aqp-load -mode flood     # a wrong-capability flood against one query; the genuine respondent's outcomes
//	go run ./cmd/aqp-load -mode hostile   # 100 concurrent 1 MiB hostile bodies; the collector's peak RSS
//	go run ./cmd/aqp-load -mode hostile-bindings -hostile 64 -rounds 2   # the same over every binding and A2A transport
//	go run ./cmd/aqp-load -mode hostile-respondent   # aqp respond against hostile carriers and collectors; its peak RSS
//	go run ./cmd/aqp-load -mode freeze    # a private PostgreSQL frozen for 20 s under load; every answer in time, none twice
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
	"github.com/agentqueryprotocol/aqp-go/store/postgres"
	"github.com/agentqueryprotocol/aqp-go/store/sqlite"
)

func main() {
	clients := flag.Int("clients", 32, "concurrent clients")
	requests := flag.Int("requests", 30000, "submissions per phase (each to its own query)")
	fsyncFor := flag.Duration("fsync-for", 2*time.Second, "how long to measure the fsync rate")
	dir := flag.String("dir", "", "directory for the SQLite database and the fsync probe (default: a temporary one)")
	mode := flag.String("mode", "throughput", "throughput, rig, flood, hostile, hostile-bindings, hostile-respondent or freeze")
	aqpBin := flag.String("aqp", "", "the aqp binary the flood and hostile modes run (default: built from ./cmd/aqp)")
	floodFor := flag.Duration("flood-for", 4*time.Second, "flood mode: how long each flood lasts")
	hostile := flag.Int("hostile", 100, "hostile mode: concurrent 1 MiB bodies per round")
	rounds := flag.Int("rounds", 3, "hostile mode: rounds")
	pgBin := flag.String("pg-bin", "/usr/lib/postgresql/15/bin", "freeze mode: the PostgreSQL server binaries (initdb, postgres, pg_ctl)")
	freezeFor := flag.Duration("freeze-for", 20*time.Second, "freeze mode: how long PostgreSQL stays frozen")
	storeTimeout := flag.Duration("store-timeout", 2*time.Second, "freeze mode: the collector's --store-timeout")
	binding := flag.String("binding", "all", "hostile-bindings mode: https, mcp, a2a-jsonrpc, a2a-jsonrpc-0.3, a2a-rest, a2a-grpc (comma-separated) or all")
	aqpOld := flag.String("aqp-old", "", "rig mode: an older aqp binary measured beside -aqp in the same rounds (before/after from one run)")
	pgURL := flag.String("pg", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable", "rig mode: the PostgreSQL server the rig creates its databases on (\"\" skips PostgreSQL)")
	pgbench := flag.String("pgbench", "/usr/bin/pgbench", "rig mode: pgbench, the bare PostgreSQL anchor (skipped when missing)")
	quick := flag.Bool("quick", false, "rig mode: one round of 3000 submissions per phase (about a minute) unless -rounds or -requests say otherwise; the full rig is 3 rounds of 6000")
	only := flag.String("only", "", "rig mode: a regular expression; only rows whose \"where subject aqp\" matches run")
	cpuProfile := flag.String("cpuprofile", "", "throughput mode: write a CPU profile of the collector phases (the load program's own process) to this file")
	memProfile := flag.String("memprofile", "", "throughput mode: write an allocation profile of the collector phases to this file")
	addr := flag.String("addr", "127.0.0.1:0", "bare-serve mode (the rig's child): listen address")
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	err := error(nil)
	switch *mode {
	case "bare-serve":
		err = serveBare(*addr)
	case "rig":
		cfg := rigConfig{aqpNew: *aqpBin, aqpOld: *aqpOld, pgURL: *pgURL, pgbench: *pgbench, clients: *clients,
			requests: 6000, rounds: 3, pgbenchFor: 5 * time.Second, dir: *dir}
		if *quick {
			cfg.requests, cfg.rounds, cfg.pgbenchFor = 3000, 1, 3*time.Second
		}
		if set["requests"] {
			cfg.requests = *requests
		}
		if set["rounds"] {
			cfg.rounds = *rounds
		}
		if *only != "" {
			if cfg.only, err = regexp.Compile(*only); err != nil {
				break
			}
		}
		if cfg.dir == "" {
			if cfg.dir, err = os.MkdirTemp("", "aqp-rig-"); err != nil {
				break
			}
			defer os.RemoveAll(cfg.dir)
		}
		err = runRig(context.Background(), cfg)
	case "throughput":
		err = run(*clients, *requests, *fsyncFor, *dir, *pgURL, *cpuProfile, *memProfile)
	case "flood", "hostile", "hostile-bindings", "hostile-respondent", "freeze":
		d := *dir
		if d == "" {
			if d, err = os.MkdirTemp("", "aqp-load-"); err == nil {
				defer os.RemoveAll(d)
			}
		}
		switch {
		case err != nil:
		case *mode == "flood":
			err = runFlood(context.Background(), *aqpBin, d, *clients, *floodFor)
		case *mode == "hostile-respondent":
			err = runHostileRespondent(context.Background(), *aqpBin, d)
		case *mode == "hostile-bindings":
			targets := hostileTargets
			if *binding != "all" {
				targets = strings.Split(*binding, ",")
			}
			err = runHostileBindings(context.Background(), *aqpBin, d, targets, *hostile, *rounds)
		case *mode == "hostile":
			err = runHostile(context.Background(), *aqpBin, d, *hostile, *rounds)
		default:
			err = runFreeze(context.Background(), *aqpBin, *pgBin, d, 200, 8, *storeTimeout, *freezeFor)
		}
	default:
		err = fmt.Errorf("-mode must be throughput, rig, flood, hostile, hostile-bindings, hostile-respondent or freeze, got %q", *mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "aqp-load:", err)
		os.Exit(1)
	}
}

func run(clients, requests int, fsyncFor time.Duration, dir, pgURL, cpuProfile, memProfile string) error {
	ctx := context.Background()
	if dir == "" {
		d, err := os.MkdirTemp("", "aqp-load-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	fmt.Printf("# aqp-load: %d clients, %d submissions per phase, GOMAXPROCS %d, %s\n\n", clients, requests, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	rate, err := fsyncRate(dir, fsyncFor)
	if err != nil {
		return err
	}
	fmt.Printf("fsync rate of %s: %.0f fsyncs/s (one 512-byte write + fsync each) — the bound on durable commits without batching\n\n", dir, rate)

	var results []result
	bare, err := phase(ctx, "bare net/http baseline", clients, requests, bareSetup)
	if err != nil {
		return err
	}
	results = append(results, bare)
	profileTo, allocsTo = cpuProfile, memProfile
	if memProfile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	mem, err := phase(ctx, "collector, memory store", clients, requests, collectorSetup(func() (collector.Store, func() (int, error), error) {
		s := memory.New()
		// The collector closes its handle when the phase ends; count through a new handle on the same data.
		return s, func() (int, error) { return countAnswered(ctx, s.Reopen()) }, nil
	}))
	if err != nil {
		return err
	}
	results = append(results, mem)
	path := filepath.Join(dir, "load.db")
	sq, err := phase(ctx, "collector, SQLite store (durable)", clients, requests, collectorSetup(reopened(ctx, func() (collector.Store, error) {
		return sqlite.Open(ctx, path)
	})))
	if err != nil {
		return err
	}
	results = append(results, sq)
	if pgURL != "" {
		dsn, drop, err := freshPG(ctx, pgURL, "aqp_load_")
		if err != nil {
			return err
		}
		defer drop()
		pg, err := phase(ctx, "collector, PostgreSQL store", clients, requests, collectorSetup(reopened(ctx, func() (collector.Store, error) {
			return postgres.Open(ctx, dsn)
		})))
		if err != nil {
			return err
		}
		results = append(results, pg)
	}

	fmt.Println("| phase | accepted/s | p50 | p99 | max | accepted | other | stored (re-read) | vs baseline |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range results {
		stored := "—"
		if r.stored >= 0 {
			stored = fmt.Sprint(r.stored)
		}
		fmt.Printf("| %s | %.0f | %s | %s | %s | %d | %d | %s | %.0f%% |\n", r.name, r.throughput(), ms(r.pct(50)), ms(r.pct(99)),
			ms(r.pct(100)), r.ok, r.other, stored, 100*r.throughput()/bare.throughput())
	}
	fmt.Println()
	fmt.Printf("Targets: SQLite ≥ 3000 accepted/s with p99 ≤ 50 ms: %s (%.0f/s, p99 %s); memory ≥ 40%% of baseline: %s (%.0f%%)\n",
		verdict(sq.throughput() >= 3000 && sq.pct(99) <= 50*time.Millisecond), sq.throughput(), ms(sq.pct(99)),
		verdict(mem.throughput() >= 0.4*bare.throughput()), 100*mem.throughput()/bare.throughput())
	for _, r := range results[1:] {
		if r.other > 0 || r.stored != r.ok {
			return fmt.Errorf("%s: %d submissions were not accepted, or %d accepted but %d stored", r.name, r.other, r.ok, r.stored)
		}
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

// fsyncRate measures how many write+fsync rounds the disk under dir completes per second.
func fsyncRate(dir string, d time.Duration) (float64, error) {
	f, err := os.CreateTemp(dir, "fsync-probe-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	buf := make([]byte, 512)
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		if _, err := f.WriteAt(buf, int64(n%64)*512); err != nil {
			return 0, err
		}
		if err := f.Sync(); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// job is one submission: where, with which capability, what body.
type job struct {
	url, auth string
	body      []byte
}

// setup starts a server for a phase and returns its jobs, a cleanup, and a function counting what was stored
// (nil when nothing is).
type setup func(ctx context.Context, n int) (jobs []job, stored func() (int, error), stop func(), err error)

type result struct {
	name      string
	elapsed   time.Duration
	latencies []time.Duration
	ok, other int
	stored    int
}

func (r result) throughput() float64 { return float64(r.ok) / r.elapsed.Seconds() }

func (r result) pct(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	i := int(float64(len(r.latencies)-1) * p / 100)
	return r.latencies[i]
}

// phase runs n submissions with the given number of concurrent clients.
func phase(ctx context.Context, name string, clients, n int, s setup) (result, error) {
	jobs, stored, stop, err := s(ctx, n)
	if err != nil {
		return result{}, fmt.Errorf("%s: %w", name, err)
	}
	var once sync.Once
	stopOnce := func() { once.Do(stop) }
	defer stopOnce()
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: clients * 2, MaxIdleConnsPerHost: clients * 2, DisableCompression: true}}
	lat := make([]time.Duration, n)
	var ok, other atomic.Int64
	stopProfile, err := profile(name)
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	_ = forEach(n, clients, func(i int) error {
		j := jobs[i]
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, j.url, strings.NewReader(string(j.body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", j.auth)
		t0 := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			other.Add(1)
			return nil
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		lat[i] = time.Since(t0)
		if resp.StatusCode == http.StatusOK {
			ok.Add(1)
		} else {
			other.Add(1)
		}
		return nil
	})
	elapsed := time.Since(start)
	stopProfile()
	r := result{name: name, elapsed: elapsed, latencies: lat, ok: int(ok.Load()), other: int(other.Load()), stored: -1}
	slices.Sort(r.latencies)
	if stored != nil {
		stopOnce()
		if r.stored, err = stored(); err != nil {
			return r, err
		}
	}
	return r, nil
}

// profileTo and allocsTo name the files -cpuprofile and -memprofile write, one per collector phase (the file name
// with the phase's store appended: FILE.memory, FILE.sqlite, FILE.postgresql).
var profileTo, allocsTo string

// profile starts the CPU profile of a collector phase's timed part; the function it returns stops it and writes
// the allocation profile (the allocations since the previous phase's, which pprof -sample_index=alloc_space reads
// as a difference only with -base; each file is cumulative).
func profile(name string) (func(), error) {
	if !strings.HasPrefix(name, "collector, ") {
		return func() {}, nil
	}
	suffix := "." + strings.ToLower(strings.Fields(strings.TrimPrefix(name, "collector, "))[0])
	stops := []func(){}
	if profileTo != "" {
		f, err := os.Create(profileTo + suffix)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
	}
	if allocsTo != "" {
		runtime.GC()
		stops = append(stops, func() {
			runtime.GC()
			if f, err := os.Create(allocsTo + suffix); err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}, nil
}

// listen starts an HTTP server on a loopback port.
func listen(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// bareSetup is the baseline: a net/http handler that reads and decodes the same body and writes a fixed receipt.
func bareSetup(ctx context.Context, n int) ([]job, func() (int, error), func(), error) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&v); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(workload.FixedReceipt)
	})
	url, stop, err := listen(h)
	if err != nil {
		return nil, nil, nil, err
	}
	jobs := make([]job, n)
	for i := range jobs {
		jobs[i] = job{url: url + "/aqp/v1/responses", auth: "Bearer x", body: workload.Response(uuid.Must(uuid.NewV7()).String())}
	}
	return jobs, nil, stop, nil
}

// collectorSetup serves a collector on the store open returns, and issues n queries up front (not timed).
// reopened opens the phase's store with open, and counts its acceptances afterwards through a second store that
// open gives on the same data: the durability check, so "stored" means readable after the collector closed.
func reopened(ctx context.Context, open func() (collector.Store, error)) func() (collector.Store, func() (int, error), error) {
	return func() (collector.Store, func() (int, error), error) {
		s, err := open()
		if err != nil {
			return nil, nil, err
		}
		return s, func() (int, error) {
			r, err := open()
			if err != nil {
				return 0, err
			}
			defer r.Close()
			return countAnswered(ctx, r)
		}, nil
	}
}

func collectorSetup(open func() (collector.Store, func() (int, error), error)) setup {
	return func(ctx context.Context, n int) ([]job, func() (int, error), func(), error) {
		store, stored, err := open()
		if err != nil {
			return nil, nil, nil, err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, nil, nil, err
		}
		url := "http://" + ln.Addr().String()
		svc, err := service.New(service.Config{
			Collector:  collector.Config{Store: store, PublicURL: url, RateLimit: collector.RateLimit{Disabled: true}},
			Bindings:   []service.Binding{https.Binding{}},
			AdminToken: "load",
		})
		if err != nil {
			return nil, nil, nil, err
		}
		c := svc.Collector()
		hs := &http.Server{Handler: svc.Handler()}
		go func() { _ = hs.Serve(ln) }()
		stop := func() { _ = hs.Close(); _ = store.Close() }
		jobs := make([]job, n)
		err = forEach(n, 32, func(i int) error {
			req, err := c.Issue(ctx, []byte(workload.Draft))
			if err != nil {
				return err
			}
			var q struct {
				QueryID  string
				Delivery struct{ Endpoint, Authorization string }
			}
			if err := json.Unmarshal(req, &q); err != nil {
				return err
			}
			jobs[i] = job{url: q.Delivery.Endpoint, auth: q.Delivery.Authorization, body: workload.Response(q.QueryID)}
			return nil
		})
		if err != nil {
			stop()
			return nil, nil, nil, err
		}
		return jobs, stored, stop, nil
	}
}

// forEach calls fn for 0..n-1 from workers goroutines and returns the first error; after an error the remaining
// indexes are skipped.
func forEach(n, workers int, fn func(i int) error) error {
	var next atomic.Int64
	var failed atomic.Bool
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					once.Do(func() { first = err; failed.Store(true) })
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// countAnswered counts the queries with an accepted response, paging through the store.
func countAnswered(ctx context.Context, s collector.Store) (int, error) {
	n, after := 0, ""
	for {
		rows, err := s.ListQueries(ctx, collector.ListFilter{State: collector.StateAnswered, Now: time.Now(), After: after, Limit: 500})
		if err != nil {
			return 0, err
		}
		n += len(rows)
		if len(rows) < 500 {
			return n, nil
		}
		after = rows[len(rows)-1].Query.QueryID
	}
}
