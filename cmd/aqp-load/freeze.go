package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentqueryprotocol/aqp-go/internal/workload"
)

// privateCluster is a PostgreSQL server of its own in a temporary directory, on a free loopback port, so that
// freezing it (SIGSTOP to every one of its processes) touches nothing else on the machine.
type privateCluster struct {
	bin, dir string
	port     int
	proc     *exec.Cmd
}

// asPostgres runs a PostgreSQL program as the postgres user when this process is root (initdb refuses root).
func asPostgres(name string, args ...string) *exec.Cmd {
	if os.Geteuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", name}, args...)...)
	}
	return exec.Command(name, args...)
}

func startCluster(bin, dir string) (*privateCluster, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	_ = os.Chmod(dir, 0o777)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	c := &privateCluster{bin: bin, dir: filepath.Join(dir, "pgdata"), port: port}
	if out, err := asPostgres(filepath.Join(bin, "initdb"), "-D", c.dir, "-A", "trust", "-U", "postgres", "--no-sync").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	c.proc = asPostgres(filepath.Join(bin, "postgres"), "-D", c.dir, "-p", strconv.Itoa(port), "-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories="+dir, "-c", "fsync=on")
	logf, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		return nil, err
	}
	c.proc.Stdout, c.proc.Stderr = logf, logf
	if err := c.proc.Start(); err != nil {
		return nil, err
	}
	for i := 0; i < 100; i++ {
		if conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			conn.Close()
			time.Sleep(300 * time.Millisecond)
			return c, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, fmt.Errorf("the private PostgreSQL did not start; see %s", logf.Name())
}

func (c *privateCluster) dsn() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// pids lists the cluster's processes: the postmaster (the child of runuser, or the process itself) and its children.
func (c *privateCluster) pids() []int {
	var out []int
	pidFile, err := os.ReadFile(filepath.Join(c.dir, "postmaster.pid"))
	if err != nil {
		return nil
	}
	master, _ := strconv.Atoi(strings.SplitN(string(pidFile), "\n", 2)[0])
	out = append(out, master)
	children, _ := exec.Command("pgrep", "-P", strconv.Itoa(master)).Output()
	for _, f := range strings.Fields(string(children)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

func (c *privateCluster) signal(sig syscall.Signal) error {
	pids := c.pids()
	if len(pids) == 0 {
		return fmt.Errorf("no PostgreSQL processes found")
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil {
			return err
		}
	}
	return nil
}

func (c *privateCluster) stop() {
	_ = c.signal(syscall.SIGCONT)
	_ = asPostgres(filepath.Join(c.bin, "pg_ctl"), "-D", c.dir, "stop", "-m", "immediate").Run()
	_ = c.proc.Wait()
}

// runFreeze freezes the collector's PostgreSQL for `freeze` while submissions keep coming, then thaws it. Every
// submission must get an answer within the store timeout plus one second, and no query may be accepted twice:
// after the thaw every query's response is submitted again and every accepted receipt of a query must be the same
// bytes.
func runFreeze(ctx context.Context, aqpBin, pgBin, dir string, queries, workers int, storeTimeout, freeze time.Duration) error {
	fmt.Printf("# aqp-load -mode freeze: PostgreSQL frozen (SIGSTOP) for %s under %d submitting clients, --store-timeout %s\n\n", freeze, workers, storeTimeout)
	_ = os.Chmod(dir, 0o711) // the postgres user must reach its data directory inside this one
	pg, err := startCluster(pgBin, filepath.Join(dir, "pg"))
	if err != nil {
		return err
	}
	defer pg.stop()
	p, err := startCollector(ctx, aqpBin, filepath.Join(dir, "freeze"), "--store", pg.dsn(), "--store-timeout", storeTimeout.String(),
		"--rate-limit", "0")
	if err != nil {
		return err
	}
	defer p.stop()
	type q struct {
		id, auth string
		body     []byte
	}
	qs := make([]q, queries)
	for i := range qs {
		id, auth, err := p.issue()
		if err != nil {
			return err
		}
		qs[i] = q{id, auth, workload.Response(id)}
	}
	var mu sync.Mutex
	outcomes := map[string]int{}
	receipts := map[string]map[string]bool{} // queryId -> distinct accepted receipts
	var slowest time.Duration
	var slowCount, sent int
	record := func(qq q, status int, receipt []byte, took time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		sent++
		outcomes[strconv.Itoa(status)]++
		if took > slowest {
			slowest = took
		}
		if took > storeTimeout+time.Second {
			slowCount++
		}
		if status == http.StatusOK {
			if receipts[qq.id] == nil {
				receipts[qq.id] = map[string]bool{}
			}
			receipts[qq.id][string(receipt)] = true
		}
	}
	client := &http.Client{Timeout: 5 * time.Minute}
	post := func(qq q) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.url+"/aqp/v1/responses", bytes.NewReader(qq.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", qq.auth)
		start := time.Now()
		resp, err := client.Do(req)
		took := time.Since(start)
		if err != nil {
			record(qq, 0, nil, took)
			return
		}
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(resp.Body)
		resp.Body.Close()
		record(qq, resp.StatusCode, buf.Bytes(), took)
	}
	runCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; runCtx.Err() == nil; i += workers {
				post(qs[i%len(qs)])
				time.Sleep(20 * time.Millisecond)
			}
		}(w)
	}
	time.Sleep(2 * time.Second)
	if err := pg.signal(syscall.SIGSTOP); err != nil {
		cancel()
		return fmt.Errorf("freezing PostgreSQL: %w", err)
	}
	frozeAt := time.Now()
	var readyDuring []string
	for time.Since(frozeAt) < freeze {
		start := time.Now()
		resp, err := http.Get(p.url + "/readyz")
		if err == nil {
			readyDuring = append(readyDuring, fmt.Sprintf("%d in %s", resp.StatusCode, time.Since(start).Round(10*time.Millisecond)))
			resp.Body.Close()
		}
		time.Sleep(freeze / 4)
	}
	if err := pg.signal(syscall.SIGCONT); err != nil {
		cancel()
		return err
	}
	time.Sleep(5 * time.Second)
	cancel()
	wg.Wait()
	// After the thaw: every query's response once more; every accepted receipt of a query must be one and the same.
	for _, qq := range qs {
		post(qq)
	}
	twice := 0
	answered := 0
	for _, rs := range receipts {
		answered++
		if len(rs) > 1 {
			twice++
		}
	}
	keys := make([]string, 0, len(outcomes))
	for k := range outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"×"+strconv.Itoa(outcomes[k]))
	}
	fmt.Println("| submissions | statuses | slowest answer | answers slower than timeout + 1 s | /readyz while frozen | queries answered | queries with two different accepted receipts |")
	fmt.Println("| ---: | --- | ---: | ---: | --- | ---: | ---: |")
	fmt.Printf("| %d | %s | %s | %d | %s | %d of %d | %d |\n\n", sent, strings.Join(parts, ", "), slowest.Round(time.Millisecond), slowCount,
		strings.Join(readyDuring, "; "), answered, len(qs), twice)
	ok := slowCount == 0 && twice == 0 && outcomes["0"] == 0 && answered == len(qs)
	fmt.Printf("Target: every submission answered within the store timeout + 1 s, none accepted twice: %s\n\n", verdict(ok))
	if !ok {
		return fmt.Errorf("freeze: %d slow answers, %d queries accepted twice, %d without an answer, %d of %d answered", slowCount, twice, outcomes["0"], answered, len(qs))
	}
	return nil
}
