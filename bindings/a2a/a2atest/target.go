// Package a2atest is the A2A binding's conformance target: how the shared scenario harness issues queries
// and submits responses over this binding, checking the binding's wire form from its own table as it goes. The
// binding's conformance_test.go runs the whole corpus through it, and the conformance suite's table across bindings
// runs it beside the others.
package a2atest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/internal/servertest"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Requirements are the requirements.json ids this package's wire checks enforce on every submission: JSON-RPC at
// /a2a taking the response by message/send (and message/stream) as an aqpObject response DataPart, the receipt as
// a reply Message's one aqpObject receipt DataPart that is a valid QueryReceipt, and every receipt a JSON-RPC
// result (D27). A failed check is a
// *harness.RuleError naming what it breaks; the corpus passing over this binding (conformance/bindings_test.go) is
// their passing proof.
var Requirements = []string{ReqA2A, ReqReceipt, ReqD27, ReqSameObjects}

// The requirements the checks name.
const (
	ReqA2A     = "AQP-BIND-A2A"
	ReqReceipt = "AQP-BIND-A2A-RECEIPT"
	ReqD27     = "AQP-D27"
	// ReqSameObjects is named when the receipt part is receipt-shaped but not a valid QueryReceipt.
	ReqSameObjects = "AQP-BIND-SAME-OBJECTS"
)

// Carries lists the scenario requirements this binding's transport can carry: none, since a DataPart's data is a
// JSON object.
var Carries []string

// Target reaches the scenario's collector over a loopback server composed as `aqp serve` composes it (HTTPS
// first, so a continuation's default binding is the core target's): queries
// through the admin API, responses as JSON-RPC requests whose data part is the scenario's body, byte for byte.
func Target(env *harness.Env) (harness.Target, error) {
	return servertest.Target(env, a2ab.Binding{}, func(baseURL string, hc *http.Client) servertest.Submitter {
		return Remote(baseURL, hc)
	})
}

// Submitter submits responses over this binding to a collector at a base URL — the local scenario target's or any
// running collector's (`aqp conformance collector`) — alternating message/send and message/stream, and checks the
// wire form against the binding's table.
type Submitter struct {
	base string
	hc   *http.Client
	n    atomic.Int64
}

// Remote submits to the collector whose base URL is baseURL (the binding's pinned path is appended) with hc.
func Remote(baseURL string, hc *http.Client) *Submitter {
	return &Submitter{base: strings.TrimSuffix(baseURL, "/"), hc: hc}
}

// Submit sends the body verbatim as the data of the AQP response part and checks the reply's wire form.
func (t *Submitter) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	method := a2ab.SendMethod
	if t.n.Add(1)%2 == 0 {
		method = a2ab.StreamMethod
	}
	reply, err := Call(ctx, t.hc, t.base+spec.A2APath, auth, method, SendParams(body))
	var ue *url.Error
	switch {
	case err != nil && (errors.As(err, &ue) || ctx.Err() != nil):
		return harness.Result{}, err // nothing came back: not a wire form to judge
	case err != nil:
		return harness.Result{}, harness.Wire(err.Error(), ReqA2A)
	}
	if reply.Error != nil {
		switch reply.Error.Code {
		case a2ab.ProblemCode:
		case a2ab.CodeParseError, a2ab.CodeInvalidRequest, codeMethodNotFound:
			// The collector refused the binding's own request form.
			return harness.Result{}, harness.Wire(fmt.Sprintf("JSON-RPC error %d (%s) to a well-formed %s", reply.Error.Code, reply.Error.Message, method), ReqA2A)
		default:
			return harness.Result{}, harness.Wire(fmt.Sprintf("JSON-RPC error %d (%s); a submission's only error is %d, every receipt is a result", reply.Error.Code, reply.Error.Message, a2ab.ProblemCode), ReqD27)
		}
		return harness.Result{Problem: true}, nil
	}
	receipt, err := ReceiptOf(reply.Result)
	if err != nil {
		return harness.Result{}, harness.Wire(err.Error(), ReqReceipt)
	}
	code, ok := harness.ReceiptCode(receipt)
	if !ok {
		return harness.Result{}, harness.Wire(fmt.Sprintf("the receipt part is not a receipt: %s", receipt), ReqReceipt)
	}
	if errs := core.Validate(core.KindReceipt, receipt); len(errs) > 0 {
		return harness.Result{}, harness.Wire(fmt.Sprintf("the receipt part is not a valid QueryReceipt (%v): %s", errs, receipt), ReqSameObjects)
	}
	surface, ok := a2ab.SurfaceFor(code)
	if !ok {
		return harness.Result{}, harness.Wire(fmt.Sprintf("code %q is not in the binding's table", code), ReqReceipt)
	}
	var r struct {
		Retryable  bool `json:"retryable"`
		RetryAfter *int `json:"retryAfter"`
	}
	_ = json.Unmarshal(receipt, &r)
	if r.Retryable != surface.Retryable || (r.RetryAfter != nil) != surface.Retryable {
		return harness.Result{}, harness.Wire(fmt.Sprintf("code %q: retryable %v with retryAfter %v; the table says retryable %v", code, r.Retryable, r.RetryAfter, surface.Retryable), ReqReceipt)
	}
	return harness.Result{Receipt: receipt}, nil
}

// codeMethodNotFound is JSON-RPC's "method not found".
const codeMethodNotFound = -32601

// SendParams is MessageSendParams whose one part is the AQP response, its data the body's exact bytes.
func SendParams(body []byte) []byte {
	return []byte(`{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"my answer"},` +
		`{"kind":"data","data":` + string(body) + `,"metadata":{"aqpObject":"response"}}]}}`)
}

// rpcReply is a JSON-RPC response with its result kept as text.
type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// Call posts one JSON-RPC request (params verbatim) and reads the reply: the body of message/send, the one SSE
// event of message/stream.
func Call(ctx context.Context, hc *http.Client, url, auth, method string, params []byte) (*rpcReply, error) {
	env := []byte(`{"jsonrpc":"2.0","id":"req-7","method":"` + method + `"`)
	if params != nil {
		env = append(append(env, `,"params":`...), params...)
	}
	env = append(env, '}')
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(env))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("HTTP %s: %s", resp.Status, b)
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var data []byte
	switch {
	case method == a2ab.StreamMethod && mt == "text/event-stream":
		var events [][]byte
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		for sc.Scan() {
			if d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok {
				events = append(events, bytes.Clone(d))
			}
		}
		if len(events) != 1 {
			return nil, fmt.Errorf("message/stream gave %d events, want exactly one", len(events))
		}
		data = events[0]
	case method != a2ab.StreamMethod && mt == "application/json":
		data, err = io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s answered with Content-Type %q", method, resp.Header.Get("Content-Type"))
	}
	var r rpcReply
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("the reply is not a JSON-RPC response: %v: %s", err, data)
	}
	if r.JSONRPC != "2.0" || string(r.ID) != `"req-7"` || (r.Error == nil) == (r.Result == nil) {
		return nil, fmt.Errorf("malformed JSON-RPC response: %s", data)
	}
	return &r, nil
}

// ReceiptOf checks a result is the agent's reply Message with one receipt part and returns that part's data text.
func ReceiptOf(result json.RawMessage) ([]byte, error) {
	var m struct {
		Kind       string   `json:"kind"`
		MessageID  string   `json:"messageId"`
		Role       string   `json:"role"`
		Extensions []string `json:"extensions"`
		Parts      []struct {
			Kind     string            `json:"kind"`
			Data     json.RawMessage   `json:"data"`
			Metadata map[string]string `json:"metadata"`
		} `json:"parts"`
	}
	if err := json.Unmarshal(result, &m); err != nil {
		return nil, fmt.Errorf("the result is not a Message: %v: %s", err, result)
	}
	if m.Kind != "message" || m.Role != "agent" || m.MessageID == "" || len(m.Parts) != 1 ||
		m.Parts[0].Kind != "data" || m.Parts[0].Metadata["aqpObject"] != "receipt" || !strings.Contains(strings.Join(m.Extensions, " "), "/a2a") {
		return nil, fmt.Errorf("the result is not a reply Message with one receipt DataPart: %s", result)
	}
	return m.Parts[0].Data, nil
}
