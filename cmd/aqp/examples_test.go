package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// TestHelpExamplesRun runs every example every command's --help prints, as printed, and holds it to the exit
// status it promises (0, unless the line ends with "# exits N"). An example that a reader cannot paste and run is
// a bug in the documentation; this finds them.
//
// "As printed" means the text of the example with only these rewrites, each standing for something the example
// itself says it presumes:
//   - `go run ./cmd/aqp` is the aqp binary under test, which is also first on PATH as `aqp`;
//   - the collector an example names (127.0.0.1:8080, 127.0.0.1:8081, collector.internal:8080) is one `aqp serve`
//     the test runs, and 127.0.0.1:8090 is examples/mcp-tool-server run beside it, as the example's comment says;
//   - an example that starts a collector (`aqp serve`) gets a free port (in place of 0.0.0.0:8080, or added as
//     --addr), is stopped with SIGINT once ready, and must then exit 0; postgres://aqp@db.internal/aqp is the
//     test's PostgreSQL, in a database of its own;
//   - the files an example's comment describes exist in its working directory, which stands for the repository
//     root the collector was started in: examples/ and aqp-data/ (the collector's data directory, holding its
//     admin token), query.json and q.json freshly issued by the collector, draft.json, issue.sh, known-gaps.json
//     and my-agent.
func TestHelpExamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every --help example against a real collector")
	}
	t.Parallel()
	bin := aqpBinary(t)
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	repoExamples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}

	// The collector every example talks to; it keeps its generated admin token in its data directory.
	root := t.TempDir()
	col := startServe(t, nil, "--data-dir", filepath.Join(root, "aqp-data"), "--failure-limit", "0", "--rate-limit", "0")
	token, err := os.ReadFile(filepath.Join(root, "aqp-data", "admin-token"))
	if err != nil {
		t.Fatalf("the collector kept no admin token: %v", err)
	}
	env := append(os.Environ(), "PATH="+path, "AQP_ADMIN_TOKEN="+strings.TrimSpace(string(token)),
		"AQP_SERVER="+col.url, "XDG_CONFIG_HOME="+filepath.Join(root, "config"), "HOME="+root)

	// examples/mcp-tool-server, as the respond example says, beside the collector.
	tools := filepath.Join(filepath.Dir(bin), "mcp-tool-server")
	if out, err := exec.Command("go", "build", "-o", tools, "../../examples/mcp-tool-server").CombinedOutput(); err != nil {
		t.Fatalf("building examples/mcp-tool-server: %v\n%s", err, out)
	}
	toolsAddr := freeAddr(t)
	toolServer := exec.Command(tools, "-collector", col.url, "-addr", toolsAddr)
	toolServer.Env = env
	if err := toolServer.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = toolServer.Process.Kill(); _ = toolServer.Wait() })
	waitListening(t, "http://"+toolsAddr+"/mcp")

	collectorHost := strings.TrimPrefix(col.url, "http://")
	rewrites := []struct{ from, to string }{
		{"go run ./cmd/aqp", "aqp"},
		{"127.0.0.1:8080", collectorHost},
		{"127.0.0.1:8081", collectorHost},
		{"collector.internal:8080", collectorHost},
		{"127.0.0.1:8090", toolsAddr},
	}

	examples := helpExamples(newRootCmd(nil))
	if len(examples) < 20 {
		t.Fatalf("found %d examples in the command tree, want every command's", len(examples))
	}
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel() // independent: each in its own directory, with its own queries
			line := ex.line
			for _, r := range rewrites {
				line = strings.ReplaceAll(line, r.from, r.to)
			}
			if strings.Contains(line, "...") || strings.Contains(line, "…") {
				t.Fatalf("the example has a placeholder a reader cannot run: %s", ex.line)
			}
			if strings.HasPrefix(line, "aqp conformance collector") && os.Getenv("AQP_TEST_SLOW_EXAMPLES") == "" {
				t.Skip("a whole conformance run against a real collector, with real waits (about 90 s): make interop-examples runs it (AQP_TEST_SLOW_EXAMPLES=1)")
			}
			dir := t.TempDir()
			exampleFiles(t, dir, bin, repoExamples, filepath.Join(root, "aqp-data"), env)
			if startsCollector.MatchString(line) {
				runServeExample(t, line, dir, env, ex.wantExit)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", line)
			cmd.Dir, cmd.Env = dir, env
			out, _ := cmd.CombinedOutput()
			if got := cmd.ProcessState.ExitCode(); got != ex.wantExit {
				t.Fatalf("%s\n(run as: %s)\nexit %d, want %d:\n%s", ex.line, line, got, ex.wantExit, out)
			}
		})
	}
}

// example is one runnable line of a command's Examples (continuation lines joined).
type example struct {
	name, line string
	wantExit   int
}

// startsCollector matches an example that runs a collector: aqp serve, after any environment assignments.
var startsCollector = regexp.MustCompile(`^(\w+=\S*\s+)*aqp serve\b`)

var exitsComment = regexp.MustCompile(`\s+#\s*exits (\d+)\b.*$`)

// helpExamples collects every command's examples: comment lines dropped, lines ending in a backslash joined, and a
// trailing "# exits N" read as the promised exit status.
func helpExamples(c *cobra.Command) []example {
	var out []example
	var joined string
	n := 0
	for _, raw := range strings.Split(c.Example, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			joined += strings.TrimSuffix(line, `\`) + " "
			continue
		}
		line, joined = joined+line, ""
		ex := example{line: line}
		if m := exitsComment.FindStringSubmatch(line); m != nil {
			ex.wantExit, _ = strconv.Atoi(m[1])
			ex.line = strings.TrimSpace(exitsComment.ReplaceAllString(line, ""))
		}
		n++
		ex.name = fmt.Sprintf("%s/%d", strings.ReplaceAll(c.CommandPath(), " ", "_"), n)
		out = append(out, ex)
	}
	for _, sub := range c.Commands() {
		if sub.Name() != "help" && sub.Name() != "completion" {
			out = append(out, helpExamples(sub)...)
		}
	}
	return out
}

// exampleFiles writes what the examples' comments say they presume into dir: the repository's examples/, a
// QueryDraft (draft.json), an issue command (issue.sh), an empty expected-failures file (known-gaps.json), an agent
// (my-agent: aqp respond reading its carrier), and two queries the collector issues now (query.json, a
// clarification with choices; q.json, a boolean query about call_01JQ8QY3EJX9 timed after_outcome_known).
func exampleFiles(t *testing.T, dir, bin, repoExamples, dataDir string, env []string) {
	t.Helper()
	for link, target := range map[string]string{"examples": repoExamples, "aqp-data": dataDir} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"draft.json": `{"type": "approval", "subject": {"kind": "task", "id": "deploy-42"}, "prompt": "Approve the deploy?",` +
			` "consentMode": "not_required", "response": {"format": "boolean"}}`,
		"issue.sh":         "#!/bin/sh\nexec aqp query create --draft -\n",
		"known-gaps.json":  `{"expectedFailures": []}`,
		"my-agent":         "#!/bin/sh\n# --carrier-url URL --host-signals SIGNALS\nexec aqp respond --from \"$2\" --carrier mcp --signal \"$4\" --answer-text yes --allow-http-loopback\n",
		"query-draft.json": `{"type": "clarification", "subject": {"kind": "tool_call", "id": "call_01JQ8QY3EJX9", "protocol": "mcp"}, "prompt": "Did this tool result fully answer the user's request?", "consentMode": "not_required", "response": {"format": "choice", "choices": ["yes", "partly", "no"]}}`,
		"q-draft.json":     `{"type": "approval", "subject": {"kind": "tool_call", "id": "call_01JQ8QY3EJX9", "protocol": "mcp"}, "prompt": "Did the call succeed?", "consentMode": "not_required", "timing": "after_outcome_known", "response": {"format": "boolean"}}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for out, draft := range map[string]string{"query.json": "query-draft.json", "q.json": "q-draft.json"} {
		cmd := exec.Command(bin, "query", "create", "--draft", draft)
		cmd.Dir, cmd.Env = dir, env
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("issuing %s: %v", out, err)
		}
		if err := os.WriteFile(filepath.Join(dir, out), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runServeExample starts a collector as the example starts it, on a free port, waits until it is ready, stops it
// with SIGINT and holds it to its promised exit status.
func runServeExample(t *testing.T, line, dir string, env []string, wantExit int) {
	addr := freeAddr(t)
	switch {
	case strings.Contains(line, "0.0.0.0:8080"):
		line = strings.ReplaceAll(line, "0.0.0.0:8080", addr)
	case !strings.Contains(line, "--addr"):
		line = strings.Replace(line, "aqp serve", "aqp serve --addr "+addr, 1)
	default:
		t.Fatalf("a collector example listens where the test cannot give it a free port: %s", line)
	}
	if strings.Contains(line, "postgres://aqp@db.internal/aqp") {
		line = strings.ReplaceAll(line, "postgres://aqp@db.internal/aqp", "'"+freshPostgres(t, "aqp_example_")+"'")
	}
	cmd := exec.Command("bash", "-c", line)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // SIGINT goes to the group: bash and the collector
	logs := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); <-done })
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-done:
			t.Fatalf("%s\nexited before it was ready (exit %d):\n%s", line, cmd.ProcessState.ExitCode(), logs)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s\nnot ready in 30 s:\n%s", line, logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s\ndid not stop on SIGINT:\n%s", line, logs)
	}
	if got := cmd.ProcessState.ExitCode(); got != wantExit {
		t.Fatalf("%s\nexit %d after SIGINT, want %d:\n%s", line, got, wantExit, logs)
	}
}

// waitListening waits until something answers HTTP at url.
func waitListening(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing answers at %s: %v", url, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
