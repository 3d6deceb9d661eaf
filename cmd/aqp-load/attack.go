package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
)

// collectorProcess is an `aqp serve` child process on a loopback port, with its own SQLite data directory: the
// attack modes measure the collector as deployed, and its RSS apart from the load generator's.
type collectorProcess struct {
	cmd   *exec.Cmd
	url   string
	token string
	dir   string
}

// startCollector builds (when aqpBin is "") and starts `aqp serve` on a free loopback port.
func startCollector(ctx context.Context, aqpBin, dir string, extra ...string) (*collectorProcess, error) {
	if aqpBin == "" {
		aqpBin = filepath.Join(dir, "aqp")
		build := exec.CommandContext(ctx, "go", "build", "-o", aqpBin, "./cmd/aqp")
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building aqp (run aqp-load from the repository root, or pass -aqp): %v\n%s", err, out)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	p := &collectorProcess{url: "http://" + addr, token: "load-admin-token", dir: dir}
	args := append([]string{"serve", "--addr", addr, "--data-dir", filepath.Join(dir, "data"), "--log-format", "json"}, extra...)
	p.cmd = exec.Command(aqpBin, args...)
	p.cmd.Env = append(os.Environ(), "AQP_ADMIN_TOKEN="+p.token)
	logf, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		return nil, err
	}
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	for i := 0; i < 200; i++ {
		if resp, err := http.Get(p.url + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.stop()
	return nil, fmt.Errorf("aqp serve did not become ready; see %s", logf.Name())
}

func (p *collectorProcess) stop() {
	_ = p.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
	}
}

// memory reads the process's current and peak resident set (VmRSS, VmHWM) in bytes.
func (p *collectorProcess) memory() (rss, peak int64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(fields[1], 10, 64)
		switch fields[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			peak = kb << 10
		}
	}
	return rss, peak, sc.Err()
}

// issue issues the load workload's query through the admin API.
func (p *collectorProcess) issue() (queryID, auth string, err error) {
	req, _ := http.NewRequest(http.MethodPost, p.url+"/admin/v1/queries", strings.NewReader(workload.Draft))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+p.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", "", err
	}
	defer resp.Body.Close()
	var q struct {
		QueryID  string
		Delivery struct{ Authorization string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&q); err != nil || resp.StatusCode != http.StatusCreated {
		return "", "", fmt.Errorf("issuing: %s %v", resp.Status, err)
	}
	return q.QueryID, q.Delivery.Authorization, nil
}

// clientFrom is an HTTP client whose connections come from the loopback address src, so the collector sees
// another client address (Linux routes all of 127.0.0.0/8 to the loopback interface).
func clientFrom(src string, conns int) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{DialContext: d.DialContext,
		MaxIdleConns: conns, MaxIdleConnsPerHost: conns, DisableCompression: true}}
}

// submitOnce posts one body and returns the HTTP status and the receipt's error.code ("" when accepted or not a
// receipt).
func submitOnce(ctx context.Context, c *http.Client, url, auth string, body []byte) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/aqp/v1/responses", bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r struct {
		Error *struct{ Code string }
	}
	_ = json.Unmarshal(b, &r)
	code := ""
	if r.Error != nil {
		code = r.Error.Code
	}
	return resp.StatusCode, code, nil
}

// runFlood reproduces the wrong-capability flood: flooders send a query's response with `Bearer wrong` as fast as
// they can while the genuine respondent submits nine times (eight invalid answers, then the right one) and then
// resubmits its accepted response ten times. It reports the genuine respondent's outcomes, which must be exactly
// what they are without the flood, for a flood from another address and from the respondent's own.
func runFlood(ctx context.Context, aqpBin, dir string, flooders int, d time.Duration) error {
	fmt.Printf("# aqp-load -mode flood: %d flooding connections for %s per phase, `aqp serve` on SQLite (default budgets)\n\n", flooders, d)
	fmt.Println("| flood from | flood requests/s | flood outcomes | genuine outcomes (9 submissions, then 10 duplicates) | as without a flood |")
	fmt.Println("| --- | ---: | --- | --- | --- |")
	for _, src := range []string{"127.0.0.2", "127.0.0.1"} {
		p, err := startCollector(ctx, aqpBin, filepath.Join(dir, "flood-"+src))
		if err != nil {
			return err
		}
		q, auth, err := p.issue()
		if err != nil {
			p.stop()
			return err
		}
		fctx, cancel := context.WithTimeout(ctx, d)
		var mu sync.Mutex
		floodCodes := map[string]int{}
		var sent atomic.Int64
		var wg sync.WaitGroup
		fc := clientFrom(src, flooders)
		for i := 0; i < flooders; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for fctx.Err() == nil {
					_, code, err := submitOnce(fctx, fc, p.url, "Bearer wrong", workload.Response(q))
					if err != nil {
						continue
					}
					sent.Add(1)
					mu.Lock()
					floodCodes[code]++
					mu.Unlock()
				}
			}()
		}
		time.Sleep(d / 4) // the flood is under way before the respondent starts
		gc := clientFrom("127.0.0.1", 1)
		var genuine []string
		responseID := uuid.Must(uuid.NewV7()).String()
		body := func(answer string) []byte {
			b := workload.Response(q)
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			m["responseId"], m["answer"] = responseID, answer
			out, _ := json.Marshal(m)
			return out
		}
		accepted := body("partly")
		for i := 0; i < 19; i++ {
			b := accepted
			if i < 8 {
				b = body("maybe")
			}
			_, code, err := submitOnce(ctx, gc, p.url, auth, b)
			if err != nil {
				code = "error: " + err.Error()
			} else if code == "" {
				code = "accepted"
			}
			genuine = append(genuine, code)
			time.Sleep(d / 40)
		}
		cancel()
		wg.Wait()
		rate := float64(sent.Load()) / d.Seconds()
		p.stop()
		want := append(append(repeat(string(core.CodeAnswerInvalid), 8), "accepted"), repeat("accepted", 10)...)
		fmt.Printf("| %s | %.0f | %s | %s | %s |\n", src, rate, countsOf(floodCodes), summarize(genuine), verdict(equal(genuine, want)))
		if !equal(genuine, want) {
			return fmt.Errorf("flood from %s changed the genuine respondent's outcomes: %v", src, genuine)
		}
	}
	fmt.Println()
	return nil
}

// runHostile reproduces the memory amplification: n concurrent 1 MiB bodies of `{"answer":[0,0,…]}` (no ids: the
// worst case, fully decoded before anything is known) and of the same with ids and a wrong capability, against
// one `aqp serve`. It reports the collector's resident memory before and at its peak, and that every request got
// an answer.
func runHostile(ctx context.Context, aqpBin, dir string, n, rounds int) error {
	fmt.Printf("# aqp-load -mode hostile: %d concurrent 1 MiB hostile bodies × %d rounds, `aqp serve` on SQLite\n\n", n, rounds)
	p, err := startCollector(ctx, aqpBin, filepath.Join(dir, "hostile"))
	if err != nil {
		return err
	}
	defer p.stop()
	q, _, err := p.issue()
	if err != nil {
		return err
	}
	before, _, err := p.memory()
	if err != nil {
		return err
	}
	zeros := bytes.Repeat([]byte("0,"), (1<<20-64)/2)
	noIDs := append(append([]byte(`{"answer":[`), zeros...), []byte("0]}")...)
	withIDs := append(append([]byte(`{"queryId":"`+q+`","responseId":"`+uuid.Must(uuid.NewV7()).String()+`","answer":[`), zeros[:len(zeros)-120]...), []byte("0]}")...)
	statuses := map[int]int{}
	var mu sync.Mutex
	var failures atomic.Int64
	start := time.Now()
	for round := 0; round < rounds; round++ {
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			body := noIDs
			if i%2 == 1 {
				body = withIDs
			}
			go func(src string) {
				defer wg.Done()
				c := clientFrom(src, 1)
				status, _, err := submitOnce(ctx, c, p.url, "Bearer wrong", body)
				if err != nil {
					failures.Add(1)
					return
				}
				mu.Lock()
				statuses[status]++
				mu.Unlock()
			}(fmt.Sprintf("127.0.%d.%d", 1+i/200, 2+i%200)) // each client its own address: no failure budget helps
		}
		wg.Wait()
	}
	took := time.Since(start)
	rss, peak, err := p.memory()
	if err != nil {
		return err
	}
	keys := make([]int, 0, len(statuses))
	for k := range statuses {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d×%d", statuses[k], k))
	}
	fmt.Println("| RSS before | peak RSS (VmHWM) | RSS after | requests | answered (status×count) | no answer | took |")
	fmt.Println("| ---: | ---: | ---: | ---: | --- | ---: | ---: |")
	fmt.Printf("| %s | %s | %s | %d | %s | %d | %s |\n\n", mib(before), mib(peak), mib(rss), n*rounds, strings.Join(parts, ", "), failures.Load(), took.Round(time.Millisecond))
	fmt.Printf("Target: peak RSS < 300 MiB with every request answered: %s\n\n", verdict(peak < 300<<20 && failures.Load() == 0))
	if failures.Load() > 0 {
		return fmt.Errorf("%d hostile requests got no answer", failures.Load())
	}
	return nil
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func countsOf(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		name := k
		if name == "" {
			name = "(none)"
		}
		parts = append(parts, fmt.Sprintf("%s %d", name, m[k]))
	}
	return strings.Join(parts, ", ")
}

// summarize run-length encodes a list of outcomes: "answer_invalid ×8, accepted ×11".
func summarize(xs []string) string {
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j < len(xs) && xs[j] == xs[i] {
			j++
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", xs[i], j-i))
		i = j
	}
	return strings.Join(parts, ", ")
}
