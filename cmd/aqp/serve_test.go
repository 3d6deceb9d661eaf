package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// These tests run the real binary: `aqp serve` as a process, `aqp query create` against it, curl-like posts, a
// kill -9 and a restart, and two collector processes sharing one PostgreSQL database.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func aqpBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "aqp-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "aqp")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// collectorProc is one `aqp serve` process.
type collectorProc struct {
	cmd  *exec.Cmd
	url  string
	logs *syncBuffer
}

// syncBuffer collects a process's output, which exec copies from another goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startServe(t *testing.T, env []string, args ...string) *collectorProc {
	t.Helper()
	return startServeAt(t, freeAddr(t), env, args...)
}

func startServeAt(t *testing.T, addr string, env []string, args ...string) *collectorProc {
	t.Helper()
	cmd := exec.Command(aqpBinary(t), append([]string{"serve", "--addr", addr}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	logs := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &collectorProc{cmd: cmd, url: "http://" + addr, logs: logs}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(p.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			// Ready, and what it printed before serving has come through the pipe (copied by another goroutine).
			if resp.StatusCode == 200 && strings.Contains(logs.String(), "aqp collector listening") {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("aqp serve did not become ready:\n%s", logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func queryCreate(t *testing.T, server, token string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command(aqpBinary(t), append([]string{"query", "create", "--server", server}, args...)...)
	cmd.Env = append(os.Environ(), "AQP_ADMIN_TOKEN="+token)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("aqp query create: %v\n%s", err, stderr.String())
	}
	if errs := core.Validate(core.KindRequest, out); len(errs) > 0 {
		t.Fatalf("aqp query create printed an invalid request: %v\n%s", errs, out)
	}
	var q map[string]any
	_ = json.Unmarshal(out, &q)
	return q
}

func quickstartResponse(queryID, responseID, answer string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","responseId":"` + responseID + `","queryId":"` + queryID + `",
  "subject":{"kind":"tool_call","id":"call_01JQ8QY3EJX9","protocol":"mcp"},
  "respondent":{"kind":"agent","provenance":"direct"},"answer":"` + answer + `",
  "explanation":"The result answered the question after one retry.","confidence":0.92,
  "createdAt":"` + time.Now().UTC().Format(time.RFC3339) + `"}`)
}

func post(t *testing.T, url, auth string, body []byte) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func delivery(q map[string]any) (endpoint, auth, queryID string) {
	d := q["delivery"].(map[string]any)
	return d["endpoint"].(string), d["authorization"].(string), q["queryId"].(string)
}

var quickstartFlags = []string{"--type", "clarification", "--consent-mode", "not_required", "--subject-kind", "tool_call", "--subject-id", "call_01JQ8QY3EJX9",
	"--subject-id-scope", "local", "--subject-protocol", "mcp", "--respondent", "agent", "--timing", "after_outcome_known",
	"--prompt", "Did this tool result fully answer the user's request?", "--choices", "yes,partly,no"}

// TestServeQuickstartKillAndRestart is the README's first command on a fresh data dir, then the Quickstart over
// curl-like posts, then kill -9 and a restart: the duplicate gets the byte-identical receipt.
func TestServeQuickstartKillAndRestart(t *testing.T) {
	dataDir := t.TempDir()
	env := []string{"AQP_ADMIN_TOKEN="}
	p := startServe(t, env, "--data-dir", dataDir)
	tokenFile := filepath.Join(dataDir, "admin-token")
	st, err := os.Stat(tokenFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("admin token file: %v, mode %v", err, st.Mode())
	}
	tokenBytes, _ := os.ReadFile(tokenFile)
	token := strings.TrimSpace(string(tokenBytes))
	if !strings.Contains(p.logs.String(), "export AQP_ADMIN_TOKEN="+token) {
		t.Fatalf("the generated token was not printed at first start:\n%s", p.logs)
	}

	q := queryCreate(t, p.url, token, quickstartFlags...)
	endpoint, auth, queryID := delivery(q)
	if endpoint != p.url+"/aqp/v1/responses" || !strings.HasPrefix(auth, "Bearer ") {
		t.Fatalf("delivery: %v", q["delivery"])
	}
	body := quickstartResponse(queryID, uuid.Must(uuid.NewV7()).String(), "partly")
	status, receipt := post(t, endpoint, auth, body)
	if status != 200 {
		t.Fatalf("post: %d %s", status, receipt)
	}
	var out, errOut bytes.Buffer
	reqFile, respFile, recFile := filepath.Join(dataDir, "q.json"), filepath.Join(dataDir, "r.json"), filepath.Join(dataDir, "rc.json")
	qb, _ := json.Marshal(q)
	_ = os.WriteFile(reqFile, qb, 0o600)
	_ = os.WriteFile(respFile, body, 0o600)
	_ = os.WriteFile(recFile, receipt, 0o600)
	if code := run([]string{"validate", "--pair", reqFile, respFile, recFile}, nil, &out, &errOut); code != 0 {
		t.Fatalf("aqp validate --pair of request, response and receipt: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if status, again := post(t, endpoint, auth, body); status != 200 || !bytes.Equal(again, receipt) {
		t.Fatalf("duplicate: %d\n got %s\nwant %s", status, again, receipt)
	}

	// kill -9 right after a receipt was returned, then restart on the same data dir.
	q2 := queryCreate(t, p.url, token, quickstartFlags...)
	endpoint2, auth2, queryID2 := delivery(q2)
	body2 := quickstartResponse(queryID2, uuid.Must(uuid.NewV7()).String(), "yes")
	status, receipt2 := post(t, endpoint2, auth2, body2)
	if status != 200 {
		t.Fatalf("post: %d %s", status, receipt2)
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
	p2 := startServeAt(t, strings.TrimPrefix(p.url, "http://"), env, "--data-dir", dataDir)
	if strings.Contains(p2.logs.String(), "Generated an admin token") {
		t.Fatal("the restart generated a new admin token instead of reusing the stored one")
	}
	if logs := p2.logs.String(); !strings.Contains(logs, "admin token: kept in "+tokenFile+" (mode 0600)\n") || strings.Contains(logs, token) {
		t.Fatalf("a restart must say where the admin token is kept, and not show it:\n%s", logs)
	}
	for _, c := range []struct {
		body, want []byte
		auth       string
	}{{body2, receipt2, auth2}, {body, receipt, auth}} {
		if status, again := post(t, p2.url+"/aqp/v1/responses", c.auth, c.body); status != 200 || !bytes.Equal(again, c.want) {
			t.Fatalf("duplicate after kill -9 and restart: %d\n got %s\nwant %s", status, again, c.want)
		}
	}

	// Graceful shutdown on SIGTERM exits 0.
	if err := p2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p2.cmd.Wait(); err != nil {
		t.Fatalf("SIGTERM: %v\n%s", err, p2.logs)
	}
}

// race sends n different responses to one query at once, spread over the collectors' URLs, and counts statuses.
func race(t *testing.T, urls []string, auth, queryID string, n int) map[int]int {
	t.Helper()
	var mu sync.Mutex
	counts := map[int]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body := quickstartResponse(queryID, uuid.Must(uuid.NewV7()).String(), []string{"yes", "partly", "no"}[i%3])
			<-start
			status, receipt := post(t, urls[i%len(urls)]+"/aqp/v1/responses", auth, body)
			if errs := core.Validate(core.KindReceipt, receipt); len(errs) > 0 {
				t.Errorf("invalid receipt: %v", errs)
			}
			if status == 409 && !bytes.Contains(receipt, []byte(`"code":"already_answered"`)) {
				t.Errorf("409 without already_answered: %s", receipt)
			}
			mu.Lock()
			counts[status]++
			mu.Unlock()
		}(i)
	}
	close(start)
	wg.Wait()
	return counts
}

func TestServeSQLiteRace(t *testing.T) {
	p := startServe(t, []string{"AQP_ADMIN_TOKEN=race"}, "--data-dir", t.TempDir(), "--rate-limit", "0")
	if !strings.Contains(p.logs.String(), "admin token: from AQP_ADMIN_TOKEN\n") {
		t.Fatalf("the collector does not say its admin token comes from AQP_ADMIN_TOKEN:\n%s", p.logs)
	}
	_, auth, queryID := delivery(queryCreate(t, p.url, "race", quickstartFlags...))
	counts := race(t, []string{p.url}, auth, queryID, 50)
	if counts[200] != 1 || counts[409] != 49 {
		t.Fatalf("want exactly one 200 and 49 409 already_answered, got %v", counts)
	}
}

// freshPostgres creates a database of its own (named prefix plus a random suffix) on the test PostgreSQL server,
// dropped when the test ends, and returns its URL. PostgreSQL is required in CI; elsewhere the test is skipped
// without it.
func freshPostgres(t *testing.T, prefix string) string {
	t.Helper()
	base := os.Getenv("AQP_TEST_POSTGRES_URL")
	if base == "" {
		base = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is required in CI: %v", err)
		}
		t.Skipf("PostgreSQL unreachable (%v); set CI to make this a failure", err)
	}
	suffix := make([]byte, 6)
	_, _ = rand.Read(suffix)
	db := prefix + hex.EncodeToString(suffix)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		admin.Close(context.Background())
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)")
		admin.Close(context.Background())
	})
	cfg, _ := pgx.ParseConfig(base)
	return fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, db)
}

func TestServeTwoProcessesOnePostgres(t *testing.T) {
	url := freshPostgres(t, "aqp_e2e_")
	env := []string{"AQP_ADMIN_TOKEN=two"}
	a := startServe(t, env, "--data-dir", t.TempDir(), "--store", url, "--rate-limit", "0")
	b := startServe(t, env, "--data-dir", t.TempDir(), "--store", url, "--rate-limit", "0")
	_, auth, queryID := delivery(queryCreate(t, a.url, "two", quickstartFlags...))
	counts := race(t, []string{a.url, b.url}, auth, queryID, 50)
	if counts[200] != 1 || counts[409] != 49 {
		t.Fatalf("want exactly one 200 and 49 409 already_answered across two processes, got %v", counts)
	}
}

// TestQueryCreateDraftAndErrors: --draft FILE with flags overriding it; a bad draft exits 1 naming the member;
// a wrong admin token exits 1 too.
func TestQueryCreateDraftAndErrors(t *testing.T) {
	p := startServe(t, []string{"AQP_ADMIN_TOKEN=drafts"}, "--data-dir", t.TempDir())
	dir := t.TempDir()
	draftFile := filepath.Join(dir, "draft.json")
	_ = os.WriteFile(draftFile, []byte(`{"type":"approval","subject":{"kind":"task","id":"deploy-42"},"prompt":"Approve the deploy?",
  "timing":"immediate","consentMode":"ask_once","consentScope":"deploys:prod","response":{"format":"boolean"},"ttlSeconds":600}`), 0o600)
	q := queryCreate(t, p.url, "drafts", "--draft", draftFile, "--binding", "https", "--respondent", "human")
	d := q["delivery"].(map[string]any)
	if q["type"] != "approval" || q["requestedRespondent"] != "human" || d["binding"] != "https" || d["operation"] != nil ||
		d["endpoint"] != p.url+"/aqp/v1/responses" {
		t.Fatalf("draft not honoured: %v", q)
	}
	if a := queryCreate(t, p.url, "drafts", "--draft", draftFile, "--binding", "a2a")["delivery"].(map[string]any); a["binding"] != "a2a" ||
		a["endpoint"] != p.url+"/a2a" || a["operation"] != "SendMessage" {
		t.Fatalf("--binding a2a: delivery %v", a)
	}
	exp, _ := core.ParseDateTime(q["expiresAt"].(string))
	if until := time.Until(exp); until < 590*time.Second || until > 610*time.Second {
		t.Fatalf("ttlSeconds 600 gave expiresAt in %v", until)
	}

	for _, c := range []struct {
		token string
		args  []string
		want  string
	}{
		{"drafts", []string{"--draft", draftFile, "--consent-mode", "not_required"}, `member "consentScope" must be absent`},
		{"drafts", []string{"--consent-mode", "not_required", "--prompt", "p", "--subject-kind", "task", "--subject-id", "t", "--ttl", "48h"}, "/ttlSeconds"},
		{"drafts", []string{"--consent-mode", "not_required", "--prompt", "p", "--subject-kind", "session", "--subject-id", "s", "--format", "choice"}, "/response/choices"},
		{"wrong", []string{"--draft", draftFile}, "401 Unauthorized"},
	} {
		cmd := exec.Command(aqpBinary(t), append([]string{"query", "create", "--server", p.url}, c.args...)...)
		cmd.Env = append(os.Environ(), "AQP_ADMIN_TOKEN="+c.token)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: exit %v, want 1 and %q in:\n%s", c.args, err, c.want, out)
		}
	}
}
