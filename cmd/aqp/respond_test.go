package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestDemo runs `aqp demo`: it exits 0, and over each binding the query travels the binding's way, the response
// goes over that binding and its receipt says accepted.
func TestDemo(t *testing.T) {
	code, out, errOut := runCLI(t, "", "demo")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	sections := strings.Split(out, "\n== ")
	want := []struct{ binding, carriage string }{
		{"https", "with header AQP-Query"},
		{"mcp", `with _meta["com.agentqueryprotocol/queries"]`},
		{"a2a", `with metadata["https://agentqueryprotocol.com/specification/2026-07-30/a2a/queries"]`},
	}
	if len(sections) != len(want)+1 {
		t.Fatalf("want %d exchanges, got %d:\n%s", len(want), len(sections)-1, out)
	}
	for i, w := range want {
		sec := sections[i+1]
		// Each object is printed indented over its own lines, not escaped onto one.
		for _, s := range []string{fmt.Sprintf("%d. binding %s\n", i+1, w.binding), w.carriage, "QueryRequest {\n     \"consentMode\"",
			"over " + w.binding + "\n   QueryResponse {", "<- the receipt comes back", `"status": "accepted"`} {
			if !strings.Contains(sec, s) {
				t.Fatalf("exchange %d (%s) does not show %q:\n%s", i+1, w.binding, s, sec)
			}
		}
		if strings.Contains(sec, "FAILED") || strings.Contains(sec, "dropped") {
			t.Fatalf("exchange %d (%s):\n%s", i+1, w.binding, sec)
		}
	}
	if !strings.Contains(out, "Every exchange was accepted") {
		t.Fatalf("no closing line:\n%s", out)
	}
	if strings.Contains(out, "Bearer ") && !strings.Contains(out, "…(capability)") {
		t.Fatal("the demo printed a capability")
	}
}

func writeQuery(t *testing.T, q map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(q)
	path := filepath.Join(t.TempDir(), "query.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRespondAgainstServe: against `aqp serve` on loopback, over each binding it serves (a query issued with
// `aqp query create --binding`), plain http is refused without --allow-http-loopback and the Quickstart answer
// is accepted with it; another answer to the answered query is rejected and exits 1.
func TestRespondAgainstServe(t *testing.T) {
	p := startServe(t, []string{"AQP_ADMIN_TOKEN=tok"}, "--data-dir", t.TempDir())
	for _, binding := range []string{"https", "mcp", "a2a"} {
		t.Run(binding, func(t *testing.T) {
			q := queryCreate(t, p.url, "tok", append([]string{"--binding", binding}, quickstartFlags...)...)
			if d := q["delivery"].(map[string]any); d["binding"] != binding {
				t.Fatalf("delivery: %v", d)
			}
			path := writeQuery(t, q)
			grants := filepath.Join(t.TempDir(), "grants.json")
			answer := []string{"respond", "--query", path, "--answer-text", "partly", "--grants", grants,
				"--explanation", "The result answered the question after one retry.", "--confidence", "0.92"}

			code, out, errOut := runCLI(t, "", answer...)
			if code != 2 || !strings.Contains(errOut, "rule http-loopback") {
				t.Fatalf("without --allow-http-loopback: exit %d\n%s\n%s", code, out, errOut)
			}
			code, out, errOut = runCLI(t, "", append(answer, "--allow-http-loopback", "--json")...)
			if code != 0 || !strings.Contains(errOut, "over "+binding+" to ") {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			var rec map[string]any
			if err := json.Unmarshal([]byte(out), &rec); err != nil || rec["status"] != "accepted" || rec["queryId"] != q["queryId"] {
				t.Fatalf("receipt: %v %s", err, out)
			}
			// Another answer to the answered query: rejected (already_answered), exit 1.
			code, out, _ = runCLI(t, "", "respond", "--query", path, "--answer-text", "no", "--grants", grants, "--allow-http-loopback")
			if code != 1 || !strings.Contains(out, "already_answered") {
				t.Fatalf("second answer: exit %d\n%s", code, out)
			}
		})
	}
}

// TestRespondRefusesWithoutConnecting: a refused destination is refused before any connection.
func TestRespondRefusesWithoutConnecting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close()
		}
	}()
	q := map[string]any{"protocolVersion": "2026-07-30", "queryId": "01a22bf2-baae-7032-90bf-d063d1bba994", "type": "feedback",
		"subject": map[string]any{"kind": "task", "id": "t1"}, "prompt": "Done?", "response": map[string]any{"format": "boolean"},
		"timing": "immediate", "consentMode": "not_required", "expiresAt": time.Now().Add(time.Hour).UTC().Format(time.RFC3339),
		"delivery": map[string]any{"binding": "https", "endpoint": "http://" + ln.Addr().String() + "/aqp/v1/responses", "authorization": "Bearer x"}}
	grants := filepath.Join(t.TempDir(), "grants.json")
	for _, d := range []map[string]any{
		{"binding": "mcp", "endpoint": "http://" + ln.Addr().String() + "/mcp", "operation": "aqp_submit_response", "authorization": "Bearer x"},
		{"binding": "a2a", "endpoint": "http://" + ln.Addr().String() + "/a2a", "operation": "message/send", "authorization": "Bearer x"},
		q["delivery"].(map[string]any),
	} {
		q["delivery"] = d
		path := writeQuery(t, q)
		for _, args := range [][]string{
			{"respond", "--query", path, "--answer", "true", "--grants", grants},
			{"respond", "--query", path, "--answer", "true", "--grants", grants, "--allow-http-loopback", "--allow-host", "collector.example"},
		} {
			code, _, errOut := runCLI(t, "", args...)
			if code != 2 || !strings.Contains(errOut, "destination policy") {
				t.Fatalf("%s: %v: exit %d: %s", d["binding"], args, code, errOut)
			}
		}
	}
	path := writeQuery(t, q)
	// Consent needed, standard input not a terminal answer: refused, nothing sent.
	q["consentMode"] = "ask_always"
	path = writeQuery(t, q)
	code, _, errOut := runCLI(t, "n\n", "respond", "--query", path, "--answer", "true", "--grants", grants, "--allow-http-loopback")
	if code != 2 || !strings.Contains(errOut, "refused") {
		t.Fatalf("consent refused: exit %d: %s", code, errOut)
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("%d connection(s) made", n)
	}
	// Usage.
	for _, args := range [][]string{
		{"respond", "--answer", "true"},
		{"respond", "--query", path},
		{"respond", "--query", path, "--answer", "true", "--answer-text", "x"},
		{"respond", "--query", path, "--answer", "yes"},
		{"respond", "--query", path, "--answer", "true", "--confidence", "2"},
		{"respond", "--query", path, "--from", "http://127.0.0.1:1/", "--answer", "true"},
		{"respond", "--from", "http://127.0.0.1:1/", "--carrier", "smtp", "--answer", "true"},
		{"respond", "--from", "http://127.0.0.1:1/", "--answer", "true", "--allow-http-loopback"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Fatalf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestRespondSignalsAndContinuations: with --signal the host's signals are exactly those given — a signal of the
// other kind leaves an after_outcome_known query waiting until it expires and is dropped, nothing sent; the
// query's own signal answers it — and a collector whose rule follows up every answer (even a follow-up's) gets its
// continuations answered up to --max-continuations, the next one printed unanswered. Malformed flags are usage
// errors.
func TestRespondSignalsAndContinuations(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "rules.json")
	if err := os.WriteFile(rules, []byte(`{"rules":[{"name":"again","when":{},"draft":{"type":"clarification","prompt":"And then?",
		"response":{"format":"choice","choices":["yes","partly","no"]},"timing":"immediate","consentMode":"not_required"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startServe(t, []string{"AQP_ADMIN_TOKEN=tok"}, "--data-dir", t.TempDir(), "--continuations", rules)
	grants := filepath.Join(t.TempDir(), "grants.json")
	respond := func(query map[string]any, extra ...string) (int, string, string) {
		return runCLI(t, "", append([]string{"respond", "--query", writeQuery(t, query), "--answer-text", "partly", "--grants", grants, "--allow-http-loopback"}, extra...)...)
	}
	// quickstartFlags: after_outcome_known, subject tool_call/mcp call_01JQ8QY3EJX9.
	short := queryCreate(t, p.url, "tok", append([]string{"--ttl", "2s"}, quickstartFlags...)...)
	code, out, errOut := respond(short, "--signal", "task_complete:tool_call/mcp:call_01JQ8QY3EJX9,outcome_known:tool_call/mcp:call_other")
	if code != 2 || !strings.Contains(errOut, "waiting for the host's signal outcome_known:tool_call/mcp:call_01JQ8QY3EJX9") ||
		!strings.Contains(errOut, "while waiting for") || strings.Contains(out, "accepted") {
		t.Fatalf("unsignalled: exit %d\n%s\n%s", code, out, errOut)
	}

	q := queryCreate(t, p.url, "tok", quickstartFlags...)
	code, out, errOut = respond(q, "--signal", "outcome_known:tool_call/mcp:call_01JQ8QY3EJX9", "--max-continuations", "2", "--json")
	if code != 0 {
		t.Fatalf("signalled: exit %d\n%s\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.Contains(lines[3], "not answered (--max-continuations 2 reached)") {
		t.Fatalf("want three receipts and the unanswered continuation:\n%s\n%s", out, errOut)
	}
	prev := q["queryId"]
	for _, l := range lines[:3] {
		var rec struct {
			Status, QueryID string
			Continuation    struct{ QueryID string }
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Status != "accepted" || rec.QueryID != prev || rec.Continuation.QueryID == "" {
			t.Fatalf("receipt %s (%v), want accepted for %v with a continuation", l, err, prev)
		}
		prev = rec.Continuation.QueryID
	}
	if !strings.Contains(lines[3], prev.(string)) {
		t.Fatalf("the unanswered continuation is not the last receipt's (%v): %s", prev, lines[3])
	}

	// Implicit signals (no --signal) and no continuation followed.
	code, out, _ = respond(queryCreate(t, p.url, "tok", quickstartFlags...), "--max-continuations", "0")
	if code != 0 || strings.Count(out, "accepted: ") != 1 || !strings.Contains(out, "--max-continuations 0 reached") {
		t.Fatalf("--max-continuations 0: exit %d\n%s", code, out)
	}

	for _, bad := range [][]string{
		{"--signal", "none,outcome_known"},
		{"--signal", "outcome_known:tool_call"},
		{"--signal", "done"},
		{"--max-continuations", "-1"},
	} {
		if code, _, errOut := respond(q, bad...); code != 2 || !strings.Contains(errOut, bad[0]) {
			t.Errorf("%v: exit %d, want 2 naming the flag\n%s", bad, code, errOut)
		}
	}
}
