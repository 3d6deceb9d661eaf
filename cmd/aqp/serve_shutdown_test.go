package main

import (
	"bufio"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeShutdownNotHeldByGETMCP: 200 connections that asked GET /mcp (the legacy era's standalone SSE stream)
// hold nothing open: each is answered 405 at once, and SIGTERM then stops `aqp serve` in well under its
// --shutdown-timeout (issue 16 item 7, D31). When GET /mcp held an SSE stream, shutdown waited out the whole
// timeout.
func TestServeShutdownNotHeldByGETMCP(t *testing.T) {
	p := startServe(t, []string{"AQP_ADMIN_TOKEN=test-admin"}, "--data-dir", t.TempDir(), "--shutdown-timeout", "20s")
	addr := strings.TrimPrefix(p.url, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < 200; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if _, err := c.Write([]byte("GET /mcp HTTP/1.1\r\nHost: " + addr + "\r\nAccept: text/event-stream\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil || !strings.Contains(line, " 405 ") {
			t.Fatalf("GET /mcp on connection %d: %q %v", i, line, err)
		}
	}
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("SIGTERM: %v\n%s", err, p.logs)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("shutdown took %v with 200 GET /mcp connections open", took)
	}
}
