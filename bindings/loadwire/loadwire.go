// Package loadwire holds the requests each binding column's client sends under load, and the bare a2a-go agent
// the A2A baselines answer with: what the binding benchmarks (bindings/*/bench_test.go) and the load rig
// (cmd/aqp-load) share, so a binding and its baseline decode the same bytes. Nothing shipped imports it.
package loadwire

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/google/uuid"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// The requests each binding column's client sends under load, wrapping one response: the same bytes for the binding under
// measurement and for its bare baseline, so both decode the same work. The benchmarks (bindings/*/bench_test.go)
// and the load rig (cmd/aqp-load) share them.

// ToolsCall wraps a response in a JSON-RPC tools/call request as an initialize-era MCP client sends it.
func ToolsCall(response []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + spec.MCPOperation + `","arguments":` + string(response) + `}}`)
}

// ToolsCallModern wraps a response in a JSON-RPC tools/call request as a 2026-07-28 client sends it: the protocol
// version, the client's capabilities and identity in _meta.
func ToolsCallModern(response []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + spec.MCPOperation + `","arguments":` + string(response) +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`)
}

// SendMessage10 wraps a response in an A2A 1.0 JSON-RPC SendMessage request.
func SendMessage10(response []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":` + string(SendParams10(response)) + `}`)
}

// SendParams10 is an A2A 1.0 SendMessage request's params, the body HTTP+JSON posts: a message whose one data
// part, marked response, is the response.
func SendParams10(response []byte) []byte {
	return []byte(`{"message":{"messageId":"` + uuid.NewString() + `","role":"ROLE_USER","extensions":["` + spec.A2AExtension +
		`"],"parts":[{"data":` + string(response) + `,"mediaType":"application/json","metadata":{"aqpObject":"response"}}]}}`)
}

// MessageSend03 wraps a response in an A2A 0.3 JSON-RPC message/send request.
func MessageSend03(response []byte) []byte {
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"` +
		uuid.NewString() + `","role":"user","parts":[{"kind":"data","data":` + string(response) + `,"metadata":{"aqpObject":"response"}}]}}}`)
}

// FixedAgent is the bare a2a-go/v2 agent of the A2A baselines: its executor yields, for every message, one fixed
// reply Message carrying FixedReceipt as a data part — the least an A2A agent can do.
func FixedAgent() a2asrv.AgentExecutor {
	var receipt map[string]any
	_ = json.Unmarshal(workload.FixedReceipt, &receipt)
	return fixedAgent{reply: a2a.NewMessage(a2a.MessageRoleAgent,
		&a2a.Part{Content: a2a.Data{Value: receipt}, MediaType: a2ab.MediaTypeJSON, Metadata: map[string]any{a2ab.ObjectKey: a2ab.ObjectReceipt}})}
}

type fixedAgent struct{ reply *a2a.Message }

func (f fixedAgent) Execute(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(f.reply, nil) }
}

func (fixedAgent) Cancel(context.Context, *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(func(a2a.Event, error) bool) {}
}
