package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/cobra"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// runCLI runs a command line in-process and returns its exit status, standard output and standard error.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestValidateBrokenInput: what `aqp validate` says about files that are not whole documents.
func TestValidateBrokenInput(t *testing.T) {
	dir := t.TempDir()
	req, _ := os.ReadFile(ex + "quickstart-request-corrected.json")
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	trunc16 := write("trunc16.json", req[:16])
	afterPrompt := req[:bytes.Index(req, []byte(`"prompt"`))+20]
	truncReq := write("trunc-request.json", afterPrompt)
	syntax := write("syntax.json", []byte("{\n  \"prompt\": \"p\",\n  \"type\": ]\n}"))
	big := append([]byte(`{"answer":"`), bytes.Repeat([]byte("x"), 3<<20)...)
	big = append(big, `"}`...)
	bigFile := write("big.json", big)
	bigSize := len(big)

	for _, c := range []struct {
		name  string
		args  []string
		stdin string
		exit  int
		out   []string // substrings of standard output
	}{
		{"truncated at byte 16: the real offset, line and column; kind unknown", []string{"validate", trunc16}, "", 1,
			[]string{"unexpected end of input at byte offset 16 (line 2, column 15) [json]", "unknown kind", "give --kind"}},
		{"truncated at byte 16 with --kind", []string{"validate", "--kind", "request", trunc16}, "", 1,
			[]string{"invalid request (1 error)", "at byte offset 16 (line 2, column 15) [json, invalid_request]"}},
		{"truncated request is called a request", []string{"validate", truncReq}, "", 1,
			[]string{"invalid request (1 error)", "[json, invalid_request]", "at byte offset " + itoa(len(afterPrompt))}},
		{"syntax error: line and column of core's offset", []string{"validate", syntax}, "", 1,
			[]string{"invalid character ']' after object value (expecting ',' or '}') at byte offset 29 (line 3, column 11)", "invalid request"}},
		{"oversized file: its real size", []string{"validate", bigFile}, "", 1,
			[]string{"document is " + itoa(bigSize) + " bytes; at most 1048576 are accepted", "invalid response"}},
		{"oversized standard input: its real size", []string{"validate", "-"}, string(big), 1,
			[]string{"document is " + itoa(bigSize) + " bytes; at most 1048576 are accepted"}},
		{"oversized in a pair", []string{"validate", "--pair", ex + "quickstart-request-corrected.json", bigFile}, "", 1,
			[]string{"response (root): document is " + itoa(bigSize) + " bytes"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, c.stdin, c.args...)
			if code != c.exit {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.exit, out, errOut)
			}
			for _, want := range c.out {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		})
	}

	// --json: an unreadable file is a record too, and the exit status stays 2.
	code, out, errOut := runCLI(t, "", "validate", "--json", filepath.Join(dir, "missing.json"), trunc16)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 2 || len(lines) != 2 || !strings.Contains(errOut, "missing.json") {
		t.Fatalf("exit %d, want 2 and two records:\n%s\nstderr: %s", code, out, errOut)
	}
	var unreadable struct {
		File  string
		Valid *bool
		Error string
	}
	if err := json.Unmarshal([]byte(lines[0]), &unreadable); err != nil || unreadable.File != filepath.Join(dir, "missing.json") ||
		unreadable.Valid == nil || *unreadable.Valid || !strings.Contains(unreadable.Error, "no such file") {
		t.Errorf("unreadable record: %s", lines[0])
	}
	var unknown validationRecord
	if err := json.Unmarshal([]byte(lines[1]), &unknown); err != nil || unknown.Kind != kindUnknown || unknown.Valid || len(unknown.Errors) != 1 ||
		unknown.Errors[0].Keyword != core.KeywordJSON || !strings.Contains(unknown.Errors[0].Message, "(line 2, column 15)") {
		t.Errorf("record of a document of unknown kind: %s", lines[1])
	}
	code, out, _ = runCLI(t, "", "validate", "--json", "--pair", ex+"quickstart-request-corrected.json", filepath.Join(dir, "missing.json"))
	if code != 2 || !strings.Contains(out, `"error":"open `) {
		t.Errorf("--pair --json with an unreadable file: exit %d\n%s", code, out)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestQueryCreateChecksFlagsFirst: missing required flags exit 2 naming them, before anything reaches the collector.
func TestQueryCreateChecksFlagsFirst(t *testing.T) {
	var hits atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); w.WriteHeader(500) }))
	defer ts.Close()
	t.Setenv("AQP_ADMIN_TOKEN", "t")
	draft := filepath.Join(t.TempDir(), "draft.json")
	_ = os.WriteFile(draft, []byte(`{"prompt":"p","subject":{"kind":"task","id":"t"}}`), 0o600)
	all := []string{"--prompt", "p", "--subject-kind", "task", "--subject-id", "t"}
	for _, c := range []struct {
		name    string
		args    []string
		missing string
	}{
		{"no --consent-mode", all, "missing required flag --consent-mode\n"},
		{"nothing", nil, "missing required flags --consent-mode, --prompt, --subject-kind, --subject-id\n"},
		{"no subject", []string{"--consent-mode", "ask_always", "--prompt", "p"}, "missing required flags --subject-kind, --subject-id\n"},
		{"ask_once without a scope", append([]string{"--consent-mode", "ask_once"}, all...), "missing required flag --consent-scope\n"},
		{"a draft without consentMode", []string{"--draft", draft}, "missing required flag --consent-mode (neither given as flags nor in the --draft file)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", append([]string{"query", "create", "--server", ts.URL}, c.args...)...)
			if code != 2 || out != "" || !strings.Contains(errOut, c.missing) || !strings.Contains(errOut, "aqp query create --help") {
				t.Errorf("exit %d, want 2 and %q on stderr:\nstdout: %s\nstderr: %s", code, c.missing, out, errOut)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("%d requests reached the collector; the flags must be checked first", n)
	}
	// With everything given it does reach the collector (so the counter above can fail).
	if code, _, _ := runCLI(t, "", "query", "create", "--server", ts.URL, "--draft", draft, "--consent-mode", "not_required"); code != 1 || hits.Load() != 1 {
		t.Fatalf("complete flags: exit %d, %d requests", code, hits.Load())
	}
}

func TestQueryCreateConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	t.Setenv("AQP_ADMIN_TOKEN", "t")
	code, out, errOut := runCLI(t, "", "query", "create", "--server", url, "--consent-mode", "not_required",
		"--prompt", "p", "--subject-kind", "task", "--subject-id", "t")
	for _, want := range []string{"no collector answers at " + url, "go run ./cmd/aqp serve", "aqp serve", "--server"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if code != 2 || out != "" {
		t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		for _, want := range []string{"aqp (devel)\n", "protocol " + spec.ProtocolVersion + "\n", runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, out)
			}
		}
	}
}

// TestHelp: every command explains itself, with examples, and every flag says its default (or that it is required).
func TestHelp(t *testing.T) {
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		if c.Long == "" || c.Example == "" {
			t.Errorf("%s: no Long description or no Examples", c.CommandPath())
		}
		for _, line := range strings.Split(strings.TrimRight(c.LocalNonPersistentFlags().FlagUsages(), "\n"), "\n") {
			if line != "" && !strings.Contains(line, "default") && !strings.Contains(line, "required") && !strings.Contains(line, "--help") {
				t.Errorf("%s: flag without its default: %s", c.CommandPath(), line)
			}
		}
		code, out, _ := runCLI(t, "", append(strings.Fields(c.CommandPath())[1:], "--help")...)
		if code != 0 || !strings.Contains(out, "Usage:") || !strings.Contains(out, "Examples:") {
			t.Errorf("%s --help: exit %d\n%s", c.CommandPath(), code, out)
		}
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	visit(newRootCmd(nil))
	code, _, errOut := runCLI(t, "")
	if code != 2 || !strings.Contains(errOut, "Available Commands:") || !strings.Contains(errOut, "completion") {
		t.Errorf("no command: exit %d\n%s", code, errOut)
	}
}

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errOut := runCLI(t, "", "completion", shell)
		if code != 0 || !strings.Contains(out, "aqp") || len(out) < 1000 {
			t.Errorf("completion %s: exit %d, %d bytes\n%s", shell, code, len(out), errOut)
		}
	}
	// Flag values complete from their words.
	code, out, _ := runCLI(t, "", "__complete", "query", "create", "--consent-mode", "")
	if code != 0 || !strings.Contains(out, "not_required\nask_once\nask_always\n") {
		t.Errorf("completing --consent-mode: exit %d\n%s", code, out)
	}
}

// TestUsageErrors: mistakes in the command line exit 2 with one message and a pointer to --help.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"nope"}, `unknown command "nope" for "aqp"`},
		{[]string{"validate", "--nope", "x"}, "unknown flag: --nope"},
		{[]string{"query"}, "missing subcommand"},
		{[]string{"query", "delete"}, `unknown subcommand "delete"`},
		{[]string{"serve", "extra"}, `unknown command "extra"`},
		{[]string{"serve", "--log-format", "xml"}, `--log-format must be text or json, not "xml"`},
		{[]string{"version", "x"}, `unknown command "x"`},
		// cobra's typo hint is printed as the lines it is, not with escaped line breaks.
		{[]string{"serv"}, "unknown command \"serv\" for \"aqp\"\nDid you mean this?\n  serve\nRun 'aqp --help' for usage.\n"},
		// the command line's own words are still made safe to show.
		{[]string{"x\x1b[2J"}, `unknown command "x\x1b[2J" for "aqp"`},
	} {
		code, _, errOut := runCLI(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "--help' for usage") {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", c.args, code, c.want, errOut)
		}
	}
}

// TestServeCannotStart: a collector that cannot start says why on one line, exits 1, and shows (and keeps) no
// admin token.
func TestServeCannotStart(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	t.Setenv("AQP_ADMIN_TOKEN", "")
	notADir := filepath.Join(t.TempDir(), "file")
	_ = os.WriteFile(notADir, nil, 0o600)
	badRules := filepath.Join(t.TempDir(), "rules.json")
	_ = os.WriteFile(badRules, []byte(`{"rules": ]`), 0o600)
	shortKey := filepath.Join(t.TempDir(), "key")
	_ = os.WriteFile(shortKey, []byte("c2hvcnQ\n"), 0o600)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"address in use", []string{"--addr", busy.Addr().String()}, "address already in use"},
		{"store cannot be opened", []string{"--store", filepath.Join(notADir, "aqp.db")}, "not a directory"},
		{"continuation rules do not parse", []string{"--continuations", badRules}, "continuation rules"},
		{"continuation key of the wrong size", []string{"--continuation-key-file", shortKey}, shortKey},
	} {
		t.Run(c.name, func(t *testing.T) {
			dataDir := t.TempDir()
			args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir}, c.args...)
			code, out, errOut := runCLI(t, "", args...)
			if code != 1 || out != "" {
				t.Errorf("exit %d, stdout %q; want 1 and nothing on stdout", code, out)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "level=ERROR") {
				t.Errorf("want one error line naming %q, got:\n%s", c.want, errOut)
			}
			if _, err := os.Stat(filepath.Join(dataDir, adminTokenFile)); err == nil {
				t.Errorf("an admin token was generated for a collector that never ran")
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{"a\nb\r\nc\n": `a\nb\r\nc`, "plain": "plain", "": ""} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
