package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// hostilePeer is one case of the hostile-respondent mode: a peer on loopback that answers the respondent's
// request of interest with size bytes (the rest as a well-behaved peer does), and how `aqp respond` meets it.
type hostilePeer struct {
	name    string
	carrier string // --from with this carrier; "" means --query, delivering to the peer as a collector
	binding string // the query's delivery.binding, for a collector case
	method  string // the JSON-RPC method, or "" for any request, answered hostilely
	sse     bool
	size    int64
}

var hostilePeers = []hostilePeer{
	{name: "HTTPS carrier: 512 MiB body", carrier: "https", size: 512 << 20},
	{name: "MCP carrier: 512 MiB tools/call result", carrier: "mcp", method: "tools/call", size: 512 << 20},
	{name: "MCP carrier: 1 GiB SSE line", carrier: "mcp", method: "tools/call", sse: true, size: 1 << 30},
	{name: "MCP carrier: 1 GiB server/discover reply", carrier: "mcp", method: "server/discover", size: 1 << 30},
	{name: "A2A carrier: 512 MiB SendMessage reply", carrier: "a2a", method: "SendMessage", size: 512 << 20},
	{name: "HTTPS collector: 1 GiB reply", binding: "https", size: 1 << 30},
	{name: "MCP collector: 1 GiB tools/call result", binding: "mcp", method: "tools/call", size: 1 << 30},
	{name: "MCP collector: 1 GiB SSE line", binding: "mcp", method: "tools/call", sse: true, size: 1 << 30},
	{name: "A2A collector: 1 GiB SendMessage reply", binding: "a2a", method: "SendMessage", size: 1 << 30},
}

// serve is the hostile peer's handler at base (its own URL, for the A2A card).
func (h hostilePeer) serve(base string, written *atomic.Int64) http.Handler {
	// A well-behaved MCP server for every request but the hostile one: the collector's tool (its Submitter
	// answers with a problem), which a carrier case calls as the first tool it lists.
	mcpServer := aqpmcp.NewServer(collector.Wrap(nil, func(context.Context, collector.Submission) collector.Outcome {
		return collector.Outcome{Problem: &collector.Problem{Detail: "no"}}
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == spec.A2AAgentCardPath {
			a2ab.CardHandler(base).ServeHTTP(w, r)
			return
		}
		b, _ := io.ReadAll(io.LimitReader(r.Body, 4<<20))
		if h.method != "" && !bytes.Contains(b, []byte(`"method":"`+h.method+`"`)) {
			r.Body = io.NopCloser(bytes.NewReader(b))
			mcpServer.ServeHTTP(w, r) // a well-behaved MCP server for every other request
			return
		}
		prefix := `{"jsonrpc":"2.0","id":1,"result":{"x":"`
		switch {
		case h.sse:
			w.Header().Set("Content-Type", "text/event-stream")
			prefix = "event: message\ndata: " + prefix
		case h.carrier == "https" || h.binding == "https":
			w.Header().Set("Content-Type", "application/json")
			prefix = `{"x":"`
		default:
			w.Header().Set("Content-Type", "application/json")
		}
		n, _ := io.WriteString(w, prefix)
		written.Add(int64(n))
		chunk := bytes.Repeat([]byte("x"), 256<<10)
		for written.Load() < h.size && r.Context().Err() == nil {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
}

// hostileQuery is a valid query delivering over binding to endpoint.
func hostileQuery(binding, endpoint string) string {
	op := map[string]string{"https": "", "mcp": `,"operation":"aqp_submit_response"`, "a2a": `,"operation":"SendMessage"`}[binding]
	return `{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"feedback",` +
		`"subject":{"kind":"tool_call","id":"call-1","protocol":"mcp"},"prompt":"Was it right?","timing":"immediate",` +
		`"consentMode":"not_required","response":{"format":"boolean"},"expiresAt":"` +
		time.Now().Add(time.Hour).UTC().Format("2006-01-02T15:04:05.000Z") + `",` +
		`"delivery":{"binding":"` + binding + `","endpoint":"` + endpoint + `"` + op + `,"authorization":"Bearer x"}}`
}

// runHostileRespondent runs `aqp respond` against each hostile peer and reports the respondent's peak RSS (the
// child's getrusage maxrss) and how it ended.
func runHostileRespondent(ctx context.Context, aqpBin, dir string) error {
	if aqpBin == "" {
		aqpBin = filepath.Join(dir, "aqp")
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", aqpBin, "./cmd/aqp").CombinedOutput(); err != nil {
			return fmt.Errorf("building aqp: %v\n%s", err, out)
		}
	}
	fmt.Println("# aqp-load -mode hostile-respondent: `aqp respond` against hostile carriers and collectors on loopback")
	fmt.Println()
	fmt.Println("| peer | peer wrote | respondent peak RSS (maxrss) | took | how it ended | < 300 MiB |")
	fmt.Println("| --- | ---: | ---: | ---: | --- | --- |")
	var failed []string
	for _, h := range hostilePeers {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		base := "http://" + ln.Addr().String()
		var written atomic.Int64
		srv := &http.Server{Handler: h.serve(base, &written)}
		go func() { _ = srv.Serve(ln) }()
		args := []string{"respond", "--allow-http-loopback", "--answer", "true", "--grants", filepath.Join(dir, "grants.json")}
		if h.carrier != "" {
			args = append(args, "--from", base+"/", "--carrier", h.carrier)
			if h.carrier == "a2a" {
				args[len(args)-3] = base + "/a2a"
			}
		} else {
			endpoint := base + map[string]string{"https": "/aqp/v1/responses", "mcp": "/mcp", "a2a": "/a2a"}[h.binding]
			qf := filepath.Join(dir, "query.json")
			if err := os.WriteFile(qf, []byte(hostileQuery(h.binding, endpoint)), 0o600); err != nil {
				return err
			}
			args = append(args, "--query", qf)
		}
		// A collector's oversized reply is a transport failure, retried with backoff until the query expires: 8 s
		// shows the bound holding over several attempts.
		cctx, cancel := context.WithTimeout(ctx, 8*time.Second)
		cmd := exec.CommandContext(cctx, aqpBin, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		_ = cmd.Run()
		took := time.Since(start)
		cancel()
		_ = srv.Close()
		var peak int64
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = ru.Maxrss << 10
		}
		ended := strings.TrimSpace(out.String())
		if i := strings.LastIndex(ended, "\n"); i >= 0 {
			ended = ended[i+1:]
		}
		if len(ended) > 160 {
			ended = ended[:160] + "…"
		}
		ok := peak < 300<<20
		if !ok {
			failed = append(failed, h.name)
		}
		fmt.Printf("| %s | %s | %s | %s | exit %d: %s | %s |\n", h.name, mib(written.Load()), mib(peak), took.Round(time.Millisecond),
			cmd.ProcessState.ExitCode(), strings.ReplaceAll(ended, "|", "\\|"), verdict(ok))
	}
	fmt.Println()
	if len(failed) > 0 {
		return fmt.Errorf("over 300 MiB: %s", strings.Join(failed, ", "))
	}
	return nil
}
