package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// hostileTargets are the bindings and A2A transports the hostile mode attacks with -binding all, in order.
var hostileTargets = []string{"https", "mcp", "a2a-jsonrpc", "a2a-jsonrpc-0.3", "a2a-rest", "a2a-grpc"}

// empties is a JSON array of empty objects, `[{},{},…]`, of about n bytes: the shape that costs a generic decoder
// the most per byte.
func empties(n int) []byte {
	b := bytes.Repeat([]byte("{},"), n/3)
	b[len(b)-1] = ']'
	return append([]byte("["), b...)
}

// hostileBodies are the bodies sent to one binding, in turn: each about 1 MiB, none carrying a capability.
func hostileBodies(binding, queryID string) [][]byte {
	const size = 1<<20 - 512
	arr := empties(size)
	resp := func(extra string) []byte {
		return []byte(`{"queryId":"` + queryID + `","responseId":"` + uuid.NewString() + `","answer":"yes"` + extra + `}`)
	}
	rpc := func(method, params string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`)
	}
	j := func(parts ...[]byte) string { return string(bytes.Join(parts, nil)) }
	switch binding {
	case "https":
		return [][]byte{[]byte(j([]byte(`{"answer":`), arr, []byte(`}`))), []byte(j(resp(`,"x":`)[:0], []byte(`{"queryId":"`+queryID+`","answer":`), arr, []byte(`}`)))}
	case "mcp":
		call := func(args []byte, meta string) []byte {
			return []byte(j([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+spec.MCPOperation+`",`+meta+`"arguments":`), args, []byte(`}}`)))
		}
		return [][]byte{
			call(arr, ""), // arguments that are not an object: past the fast path
			call([]byte(j([]byte(`{"queryId":"`+queryID+`","answer":`), arr, []byte(`}`))), ""),
			call([]byte(`{}`), j([]byte(`"_meta":{"x":`), arr, []byte(`},`))),
			[]byte(j([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":`), arr, []byte(`}}`))),
		}
	case "a2a-jsonrpc", "a2a-rest":
		msg := j([]byte(`{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":`), resp(""), []byte(`,"metadata":{"aqpObject":"response","x":`), arr, []byte(`}}]}}`))
		if binding == "a2a-rest" {
			return [][]byte{[]byte(msg)}
		}
		return [][]byte{rpc("SendMessage", msg), []byte(j([]byte(`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":`), arr, []byte(`}`)))}
	case "a2a-jsonrpc-0.3":
		return [][]byte{
			rpc("message/send", j([]byte(`{"message":{"messageId":"m","role":"user","kind":"message","parts":`), arr, []byte(`}}`))),
			rpc("message/send", j([]byte(`{"message":{"messageId":"m","role":"user","kind":"message","parts":[{"kind":"data","data":`), resp(""), []byte(`,"metadata":{"aqpObject":"response","x":`), arr, []byte(`}}]}}`))),
			[]byte(j([]byte(`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":`), arr, []byte(`}`))),
		}
	}
	return nil
}

// hostileGRPC is a SendMessageRequest of about 1 MiB whose response part's metadata holds a list of empty Structs.
func hostileGRPC(queryID string) *a2apb.SendMessageRequest {
	list := &structpb.ListValue{}
	empty := structpb.NewStructValue(&structpb.Struct{})
	for proto.Size(list) < 1<<20-4096 {
		for i := 0; i < 1024; i++ {
			list.Values = append(list.Values, empty)
		}
	}
	meta := &structpb.Struct{Fields: map[string]*structpb.Value{"aqpObject": structpb.NewStringValue("response"), "x": structpb.NewListValue(list)}}
	return &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: "m", Role: a2apb.Role_ROLE_USER, Parts: []*a2apb.Part{{
		Content: &a2apb.Part_Raw{Raw: []byte(`{"queryId":"` + queryID + `","answer":"yes"}`)}, MediaType: "application/json", Metadata: meta}}}}
}

// runHostileBindings sends n concurrent hostile bodies of about 1 MiB (rounds times) to each binding or A2A
// transport named, each against its own fresh `aqp serve`, and reports each process's peak RSS.
func runHostileBindings(ctx context.Context, aqpBin, dir string, targets []string, n, rounds int) error {
	fmt.Printf("# aqp-load -mode hostile-bindings: %d concurrent ~1 MiB hostile bodies × %d rounds per binding, a fresh `aqp serve` (SQLite) each\n\n", n, rounds)
	fmt.Println("| binding / transport | bodies | RSS before | peak RSS (VmHWM) | requests | answered (status×count) | no answer | took | < 300 MiB |")
	fmt.Println("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- |")
	var failed []string
	for _, t := range targets {
		p, err := startCollector(ctx, aqpBin, filepath.Join(dir, "hostile-"+t))
		if err != nil {
			return err
		}
		aqpBin = p.cmd.Path // build once
		q, _, err := p.issue()
		if err != nil {
			p.stop()
			return err
		}
		before, _, _ := p.memory()
		var mu sync.Mutex
		outcomes := map[string]int{}
		var noAnswer atomic.Int64
		var send func(i int) (string, error)
		var what string
		switch t {
		case "a2a-grpc":
			what = "SendMessage, part metadata a list of empty Structs"
			req := hostileGRPC(q)
			conns := make([]*grpc.ClientConn, n)
			for i := range conns {
				c, err := grpc.NewClient(strings.TrimPrefix(p.url, "http://"), grpc.WithTransportCredentials(insecure.NewCredentials()),
					grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(4<<20)))
				if err != nil {
					p.stop()
					return err
				}
				defer c.Close()
				conns[i] = c
			}
			send = func(i int) (string, error) {
				cctx, cancel := context.WithTimeout(metadata.AppendToOutgoingContext(ctx, "a2a-extensions", spec.A2AExtension, "authorization", "Bearer wrong"), 60*time.Second)
				defer cancel()
				_, err := a2apb.NewA2AServiceClient(conns[i]).SendMessage(cctx, req)
				st, ok := status.FromError(err)
				if !ok {
					return "", err
				}
				if st.Code() == 14 || st.Code() == 4 { // Unavailable, DeadlineExceeded: no answer
					return "", err
				}
				return st.Code().String(), nil
			}
		default:
			bodies := hostileBodies(t, q)
			what = map[string]string{
				"https":           "`{\"answer\":[{},…]}` without and with a queryId",
				"mcp":             "tools/call with arguments `[{},…]`, arguments `{…\"answer\":[{},…]}`, `_meta` `{\"x\":[{},…]}`; tools/list params",
				"a2a-jsonrpc":     "SendMessage part metadata `{\"x\":[{},…]}`; GetTask params `[{},…]`",
				"a2a-jsonrpc-0.3": "message/send parts `[{},…]`, part metadata `{\"x\":[{},…]}`; tasks/get params `[{},…]`",
				"a2a-rest":        "POST /a2a/message:send, part metadata `{\"x\":[{},…]}`",
			}[t]
			url := p.url + map[string]string{"https": "/aqp/v1/responses", "mcp": "/mcp", "a2a-jsonrpc": "/a2a", "a2a-jsonrpc-0.3": "/a2a", "a2a-rest": "/a2a/message:send"}[t]
			clients := make([]*http.Client, n)
			for i := range clients {
				clients[i] = clientFrom(fmt.Sprintf("127.0.%d.%d", 1+i/200, 2+i%200), 1)
			}
			send = func(i int) (string, error) {
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(bodies[i%len(bodies)]))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("Authorization", "Bearer wrong")
				if t == "a2a-jsonrpc" || t == "a2a-rest" {
					req.Header.Set("A2A-Extensions", spec.A2AExtension)
				}
				resp, err := clients[i].Do(req)
				if err != nil {
					return "", err
				}
				defer resp.Body.Close()
				_, _ = io.Copy(io.Discard, resp.Body)
				return fmt.Sprint(resp.StatusCode), nil
			}
		}
		start := time.Now()
		for r := 0; r < rounds; r++ {
			var wg sync.WaitGroup
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					o, err := send(i)
					if err != nil {
						noAnswer.Add(1)
						return
					}
					mu.Lock()
					outcomes[o]++
					mu.Unlock()
				}(i)
			}
			wg.Wait()
		}
		took := time.Since(start)
		_, peak, _ := p.memory()
		p.stop()
		keys := make([]string, 0, len(outcomes))
		for k := range outcomes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s×%d", k, outcomes[k]))
		}
		ok := peak < 300<<20 && noAnswer.Load() == 0
		if !ok {
			failed = append(failed, t)
		}
		fmt.Printf("| %s | %s | %s | %s | %d | %s | %d | %s | %s |\n", t, what, mib(before), mib(peak), n*rounds, strings.Join(parts, ", "), noAnswer.Load(), took.Round(time.Millisecond), verdict(ok))
	}
	fmt.Println()
	if len(failed) > 0 {
		return fmt.Errorf("over 300 MiB or unanswered: %s", strings.Join(failed, ", "))
	}
	return nil
}
