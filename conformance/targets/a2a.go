// The A2A binding's conformance target: how the shared scenario harness issues queries and
// submits responses over each of the binding's columns — A2A 1.0 over JSON-RPC, HTTP+JSON and gRPC, and A2A 0.3
// over JSON-RPC — checking that column's wire form from the binding's tables as it goes. It writes every request
// itself (never through an SDK), so the bytes a scenario sends are the bytes on the wire. The binding's
// conformance_test.go runs the whole corpus through each column, and the conformance suite's one table runs them
// beside the other bindings' columns.

package targets

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/a2aproject/a2a-go/v2/a2a"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// A2ARequirements are the requirements.json ids this package's wire checks enforce on every submission: the response
// taken by the column's send operation as the part marked response, the receipt as a reply Message's one part
// marked receipt that is a valid QueryReceipt, and every receipt a result, never an error (D27).
// A failed check is a *harness.RuleError naming what it breaks; the corpus passing over every column
// (conformance/bindings_test.go) is their passing proof.
var A2ARequirements = []string{ReqA2A, ReqA2AReceipt, ReqD27, ReqSameObjects, ReqD32, ReqD33}

// The requirements the checks name.
const (
	ReqA2A        = "AQP-BIND-A2A"
	ReqA2AReceipt = "AQP-BIND-A2A-RECEIPT"
	// ReqD32 is named when an A2A 1.0 column's reply is not in 1.0's form (a Message with role ROLE_AGENT, the
	// extension listed, its receipt part with mediaType application/json) or refuses the 1.0 request form.
	ReqD32 = "AQP-D32"
	// ReqD33 is named when the gRPC column's receipt is not a raw part holding the receipt's bytes.
	ReqD33 = "AQP-D33"
)

// A2ACarries lists the scenario requirements the binding's transports can carry: none, since the response is a
// part's object.
var A2ACarries []string

// The columns' names.
const (
	A2AColumnJSONRPC  = "a2a-1.0-jsonrpc"
	A2AColumnHTTPJSON = "a2a-1.0-http-json"
	A2AColumnGRPC     = "a2a-1.0-grpc"
	A2AColumnLegacy   = "a2a-0.3-jsonrpc"
)

// A2AColumns are the binding's columns of the one table, newest first.
var A2AColumns = []harness.Column{
	a2aColumn(A2AColumnJSONRPC, cardSurface(a2ab.Version, a2a.TransportProtocolJSONRPC), func(base string, hc *http.Client) harness.ColumnClient {
		return &jsonrpc{base: base, hc: hc, v10: true}
	}),
	a2aColumn(A2AColumnHTTPJSON, cardSurface(a2ab.Version, a2a.TransportProtocolHTTPJSON), func(base string, hc *http.Client) harness.ColumnClient { return &rest{base: base, hc: hc} }),
	a2aColumn(A2AColumnGRPC, cardSurface(a2ab.Version, a2a.TransportProtocolGRPC), func(base string, hc *http.Client) harness.ColumnClient { return &grpcClient{base: base} }),
	a2aColumn(A2AColumnLegacy, cardSurface(a2ab.LegacyVersion, a2a.TransportProtocolJSONRPC), func(base string, hc *http.Client) harness.ColumnClient { return &jsonrpc{base: base, hc: hc} }),
}

func a2aColumn(name string, surfaces []harness.Surface, remote func(base string, hc *http.Client) harness.ColumnClient) harness.Column {
	trim := func(base string, hc *http.Client) harness.ColumnClient {
		return remote(strings.TrimSuffix(base, "/"), hc)
	}
	return harness.Column{Name: name, Binding: a2ab.Name, Carries: A2ACarries, Requirements: A2ARequirements, Remote: trim, Surfaces: surfaces,
		Target: func(env *harness.Env) (harness.Target, error) {
			return localTarget(env, a2ab.Binding{}, func(baseURL string, hc *http.Client) harness.ColumnClient {
				return trim(baseURL, hc)
			})
		}}
}

// A2ATarget is the A2A 1.0 JSON-RPC column's local scenario target.
func A2ATarget(env *harness.Env) (harness.Target, error) { return A2AColumns[0].Target(env) }

// A2ARemote is the A2A 1.0 JSON-RPC column's submitter to the collector whose base URL is baseURL.
func A2ARemote(baseURL string, hc *http.Client) harness.ColumnClient {
	return A2AColumns[0].Remote(baseURL, hc)
}

// JSONRPC 1.0 and 0.3 -------------------------------------------------------------------------------------------

// jsonrpc submits over JSON-RPC at /a2a, alternating the send and the streaming send of its generation.
type jsonrpc struct {
	base string
	hc   *http.Client
	v10  bool
	n    atomic.Int64
}

func (t *jsonrpc) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	method, params := a2ab.LegacySendMethod, A2ASendParams03(body)
	if t.v10 {
		method, params = a2ab.SendMethod, A2ASendParams10(body)
	}
	stream := t.n.Add(1)%2 == 0
	if stream {
		method = map[bool]string{true: a2ab.StreamMethod, false: a2ab.LegacyStreamMethod}[t.v10]
	}
	reply, err := A2ACall(ctx, t.hc, t.base+spec.A2APath, auth, method, params, t.v10)
	if r, err := nothingBack(ctx, err); r {
		return harness.Result{}, err
	}
	if reply.Error != nil {
		switch reply.Error.Code {
		case a2ab.ProblemCode:
			return harness.Result{Problem: true}, nil
		case a2ab.CodeExtensionSupportRequired, a2ab.CodeVersionNotSupported:
			return harness.Result{}, harness.Wire(fmt.Sprintf("JSON-RPC error %d (%s) to a well-formed %s activating the AQP extension", reply.Error.Code, reply.Error.Message, method), ReqA2A, ReqD32)
		case a2ab.CodeParseError, a2ab.CodeInvalidRequest, a2ab.CodeMethodNotFound:
			return harness.Result{}, harness.Wire(fmt.Sprintf("JSON-RPC error %d (%s) to a well-formed %s", reply.Error.Code, reply.Error.Message, method), ReqA2A)
		default:
			// A receipt that should have come back as the reply Message: the receipt rule, and D27's every-receipt-a-result.
			return harness.Result{}, harness.Wire(fmt.Sprintf("JSON-RPC error %d (%s); a submission's only error is %d, every receipt is a result: a reply Message carrying it", reply.Error.Code, reply.Error.Message, a2ab.ProblemCode), ReqA2AReceipt, ReqD27)
		}
	}
	msg := reply.Result
	if t.v10 {
		var w struct {
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(reply.Result, &w); err != nil || w.Message == nil {
			return harness.Result{}, harness.Wire(fmt.Sprintf("the %s result is not {\"message\": …}: %s", method, reply.Result), ReqA2AReceipt)
		}
		msg = w.Message
	}
	receipt, err := A2AReceiptOf(msg, t.v10)
	if err != nil {
		return harness.Result{}, receiptWire(err)
	}
	return checkReceipt(receipt)
}

// A2ASendParams10 is an A2A 1.0 SendMessageRequest whose one marked part is the AQP response, its data the body's exact
// bytes, beside a text part.
func A2ASendParams10(body []byte) []byte {
	return []byte(`{"message":{"messageId":"m-1","role":"ROLE_USER","extensions":["` + spec.A2AExtension + `"],"parts":[{"text":"my answer"},` +
		`{"data":` + string(body) + `,"mediaType":"application/json","metadata":{"aqpObject":"response"}}]}}`)
}

// A2ASendParams03 is A2A 0.3's MessageSendParams whose one marked DataPart is the AQP response, its data the body's
// exact bytes.
func A2ASendParams03(body []byte) []byte {
	return []byte(`{"message":{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"my answer"},` +
		`{"kind":"data","data":` + string(body) + `,"metadata":{"aqpObject":"response"}}]}}`)
}

// A2ARPCReply is a JSON-RPC response with its result kept as text.
type A2ARPCReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// A2ACall posts one JSON-RPC request (params verbatim; with A2A 1.0's A2A-Version and A2A-Extensions when v10) and
// reads the reply: the body of a send, the one server-sent event of a streaming send.
func A2ACall(ctx context.Context, hc *http.Client, url, auth, method string, params []byte, v10 bool) (*A2ARPCReply, error) {
	env := []byte(`{"jsonrpc":"2.0","id":"req-7","method":"` + method + `"`)
	if params != nil {
		env = append(append(env, `,"params":`...), params...)
	}
	env = append(env, '}')
	data, err := post(ctx, hc, url, auth, env, v10, method == a2ab.StreamMethod || method == a2ab.LegacyStreamMethod, true)
	if err != nil {
		return nil, err
	}
	var r A2ARPCReply
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("the reply is not a JSON-RPC response: %v: %s", err, data)
	}
	if r.JSONRPC != "2.0" || string(r.ID) != `"req-7"` || (r.Error == nil) == (r.Result == nil) {
		return nil, fmt.Errorf("malformed JSON-RPC response: %s", data)
	}
	return &r, nil
}

// post sends one request and returns the reply's body, or the data of its one event when stream. okOnly: a
// status other than 200 is an error (JSON-RPC answers every call with 200).
func post(ctx context.Context, hc *http.Client, url, auth string, body []byte, v10, stream, okOnly bool) ([]byte, error) {
	data, _, err := postStatus(ctx, hc, url, auth, body, v10, stream, okOnly)
	return data, err
}

func postStatus(ctx context.Context, hc *http.Client, url, auth string, body []byte, v10, stream, okOnly bool) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if v10 {
		req.Header.Set(a2ab.VersionHeader, a2ab.Version)
		req.Header.Set(a2ab.ExtensionsHeader, spec.A2AExtension)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if okOnly && resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, resp.StatusCode, fmt.Errorf("HTTP %s: %s", resp.Status, b)
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case stream && resp.StatusCode == http.StatusOK && mt == "text/event-stream":
		var events [][]byte
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		for sc.Scan() {
			if d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok {
				events = append(events, bytes.Clone(d))
			}
		}
		if len(events) != 1 {
			return nil, resp.StatusCode, fmt.Errorf("the streaming send gave %d events, want exactly one", len(events))
		}
		return events[0], resp.StatusCode, nil
	case (!stream || resp.StatusCode != http.StatusOK) && mt == "application/json":
		b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
		return b, resp.StatusCode, err
	}
	return nil, resp.StatusCode, fmt.Errorf("answered HTTP %d with Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
}

// HTTP+JSON ----------------------------------------------------------------------------------------------------

// rest submits over HTTP+JSON, alternating POST /a2a/message:send and /a2a/message:stream.
type rest struct {
	base string
	hc   *http.Client
	n    atomic.Int64
}

func (t *rest) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	path, stream := a2ab.RESTSendPath, t.n.Add(1)%2 == 0
	if stream {
		path = a2ab.RESTStreamPath
	}
	data, code, err := postStatus(ctx, t.hc, t.base+spec.A2APath+path, auth, A2ASendParams10(body), true, stream, false)
	if r, err := nothingBack(ctx, err); r {
		return harness.Result{}, err
	}
	if code != http.StatusOK {
		var e struct {
			Error struct {
				Code    int    `json:"code"`
				Status  string `json:"status"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(data, &e) != nil || e.Error.Code != code {
			return harness.Result{}, harness.Wire(fmt.Sprintf("HTTP %d without a google.rpc.Status body: %s", code, data), ReqA2A)
		}
		if code == http.StatusBadRequest && e.Error.Status == "INVALID_ARGUMENT" {
			return harness.Result{Problem: true}, nil
		}
		return harness.Result{}, harness.Wire(fmt.Sprintf("HTTP %d %s (%s); a submission's only error is 400 INVALID_ARGUMENT, every receipt is a 200", code, e.Error.Status, e.Error.Message), ReqD27)
	}
	var w struct {
		Message json.RawMessage `json:"message"`
	}
	if err := json.Unmarshal(data, &w); err != nil || w.Message == nil {
		return harness.Result{}, harness.Wire(fmt.Sprintf("the %s reply is not {\"message\": …}: %s", path, data), ReqA2AReceipt)
	}
	receipt, err := A2AReceiptOf(w.Message, true)
	if err != nil {
		return harness.Result{}, receiptWire(err)
	}
	return checkReceipt(receipt)
}

// gRPC ---------------------------------------------------------------------------------------------------------

// grpcClient submits over gRPC to host:port of the base URL (TLS for https), the response as a raw part holding
// the body's exact bytes, alternating SendMessage and SendStreamingMessage.
type grpcClient struct {
	base string
	once sync.Once
	conn *grpc.ClientConn
	err  error
	n    atomic.Int64
}

func (t *grpcClient) client() (a2apb.A2AServiceClient, error) {
	t.once.Do(func() {
		creds := insecure.NewCredentials()
		if strings.HasPrefix(t.base, "https:") {
			creds = credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})
		}
		t.conn, t.err = grpc.NewClient(a2ab.GRPCTarget(t.base), grpc.WithTransportCredentials(creds),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(a2ab.MaxRequest), grpc.MaxCallSendMsgSize(a2ab.MaxRequest)))
	})
	if t.err != nil {
		return nil, t.err
	}
	return a2apb.NewA2AServiceClient(t.conn), nil
}

// Close closes the submitter's connection.
func (t *grpcClient) Close() {
	if t.conn != nil {
		_ = t.conn.Close()
	}
}

func (t *grpcClient) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	c, err := t.client()
	if err != nil {
		return harness.Result{}, err
	}
	meta, _ := structpb.NewStruct(map[string]any{"aqpObject": "response"})
	req := &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: "m-1", Role: a2apb.Role_ROLE_USER,
		Extensions: []string{spec.A2AExtension},
		Parts: []*a2apb.Part{{Content: &a2apb.Part_Text{Text: "my answer"}},
			{Content: &a2apb.Part_Raw{Raw: body}, MediaType: "application/json", Metadata: meta}}}}
	md := metadata.Pairs(strings.ToLower(a2ab.VersionHeader), a2ab.Version, strings.ToLower(a2ab.ExtensionsHeader), spec.A2AExtension)
	if auth != "" {
		md.Append("authorization", auth)
	}
	ctx = metadata.NewOutgoingContext(ctx, md)
	var msg *a2apb.Message
	if t.n.Add(1)%2 == 0 {
		stream, err := c.SendStreamingMessage(ctx, req)
		if err == nil {
			var events []*a2apb.StreamResponse
			for {
				ev, rerr := stream.Recv()
				if rerr != nil {
					if rerr != io.EOF {
						err = rerr
					}
					break
				}
				events = append(events, ev)
			}
			if err == nil && len(events) != 1 {
				return harness.Result{}, harness.Wire(fmt.Sprintf("SendStreamingMessage gave %d events, want exactly one", len(events)), ReqA2A)
			}
			if err == nil {
				msg = events[0].GetMessage()
			}
		}
		if err != nil {
			return t.grpcFailure(ctx, err)
		}
	} else {
		resp, err := c.SendMessage(ctx, req)
		if err != nil {
			return t.grpcFailure(ctx, err)
		}
		msg = resp.GetMessage()
	}
	if msg == nil {
		return harness.Result{}, harness.Wire("the reply is not a Message", ReqA2AReceipt)
	}
	if msg.GetRole() != a2apb.Role_ROLE_AGENT || msg.GetMessageId() == "" || len(msg.GetParts()) != 1 {
		return harness.Result{}, harness.Wire(fmt.Sprintf("the reply is not an agent Message with one part: %v", msg), ReqA2AReceipt)
	}
	p := msg.GetParts()[0]
	raw, ok := p.GetContent().(*a2apb.Part_Raw)
	if !ok || p.GetMetadata().GetFields()["aqpObject"].GetStringValue() != "receipt" || p.GetMediaType() != "application/json" {
		return harness.Result{}, harness.Wire(fmt.Sprintf("the reply's part is not a raw application/json part marked receipt: %v", p), ReqA2AReceipt, ReqD33)
	}
	return checkReceipt(raw.Raw)
}

func (t *grpcClient) grpcFailure(ctx context.Context, err error) (harness.Result, error) {
	st, ok := status.FromError(err)
	switch {
	case ctx.Err() != nil || !ok || st.Code() == codes.Unavailable:
		return harness.Result{}, err // nothing came back: not a wire form to judge
	case st.Code() == codes.InvalidArgument:
		return harness.Result{Problem: true}, nil
	case st.Code() == codes.FailedPrecondition || st.Code() == codes.Unimplemented:
		return harness.Result{}, harness.Wire(fmt.Sprintf("gRPC %s (%s) to a well-formed send", st.Code(), st.Message()), ReqA2A)
	}
	return harness.Result{}, harness.Wire(fmt.Sprintf("gRPC %s (%s); a submission's only error is InvalidArgument, every receipt is a result", st.Code(), st.Message()), ReqD27)
}

// shared ----------------------------------------------------------------------------------------------------------

// nothingBack reports whether a request error means no reply came back at all (not a wire form to judge), and
// turns any other error into the binding's wire failure.
func nothingBack(ctx context.Context, err error) (bool, error) {
	var ue *url.Error
	switch {
	case err == nil:
		return false, nil
	case errors.As(err, &ue) || ctx.Err() != nil:
		return true, err
	}
	return true, harness.Wire(err.Error(), ReqA2A)
}

// A2AReceiptOf checks a reply Message is the agent's, with one part marked receipt, and returns that part's content:
// a 1.0 message (role ROLE_AGENT, the part's data, mediaType application/json) when v10, else a 0.3 message
// (kind message, role agent, a data part).
func A2AReceiptOf(msg json.RawMessage, v10 bool) ([]byte, error) {
	var m struct {
		Kind       string   `json:"kind"`
		MessageID  string   `json:"messageId"`
		Role       string   `json:"role"`
		Extensions []string `json:"extensions"`
		Parts      []struct {
			Kind      string            `json:"kind"`
			Data      json.RawMessage   `json:"data"`
			Raw       *string           `json:"raw"`
			MediaType string            `json:"mediaType"`
			Metadata  map[string]string `json:"metadata"`
		} `json:"parts"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, fmt.Errorf("the result is not a Message: %v: %s", err, msg)
	}
	hasExt := strings.Contains(strings.Join(m.Extensions, " "), spec.A2AExtension)
	if v10 {
		if m.Role != "ROLE_AGENT" || m.MessageID == "" || m.Kind != "" || !hasExt {
			return nil, &notV10{fmt.Errorf("the result is not an A2A 1.0 agent Message (role ROLE_AGENT, no kind, the AQP extension listed): %s", msg)}
		}
		if len(m.Parts) != 1 || m.Parts[0].Metadata["aqpObject"] != "receipt" || m.Parts[0].MediaType != "application/json" {
			return nil, fmt.Errorf("the result is not a reply Message with one application/json part marked receipt: %s", msg)
		}
		if m.Parts[0].Raw != nil {
			return base64.StdEncoding.DecodeString(*m.Parts[0].Raw)
		}
		if m.Parts[0].Data == nil {
			return nil, fmt.Errorf("the receipt part has neither data nor raw: %s", msg)
		}
		return m.Parts[0].Data, nil
	}
	if m.Kind != "message" || m.Role != "agent" || m.MessageID == "" || len(m.Parts) != 1 ||
		m.Parts[0].Kind != "data" || m.Parts[0].Metadata["aqpObject"] != "receipt" || !hasExt {
		return nil, fmt.Errorf("the result is not a reply Message with one receipt DataPart: %s", msg)
	}
	return m.Parts[0].Data, nil
}

// notV10 is a reply that is not in A2A 1.0's form at all (D32), as opposed to one whose receipt part is wrong.
type notV10 struct{ error }

// receiptWire is the wire failure for a reply whose receipt could not be read: AQP-D32 too when the reply is not
// in 1.0's form.
func receiptWire(err error) error {
	var nv *notV10
	if errors.As(err, &nv) {
		return harness.Wire(err.Error(), ReqA2AReceipt, ReqD32)
	}
	return harness.Wire(err.Error(), ReqA2AReceipt)
}

// checkReceipt checks the receipt part is a valid QueryReceipt whose retryable follows the binding's table.
func checkReceipt(receipt []byte) (harness.Result, error) {
	code, ok := harness.ReceiptCode(receipt)
	if !ok {
		return harness.Result{}, harness.Wire(fmt.Sprintf("the receipt part is not a receipt: %s", receipt), ReqA2AReceipt)
	}
	if errs := core.Validate(core.KindReceipt, receipt); len(errs) > 0 {
		return harness.Result{}, harness.Wire(fmt.Sprintf("the receipt part is not a valid QueryReceipt (%v): %s", errs, receipt), ReqSameObjects)
	}
	if code != "" && !code.IsReceiptCode() {
		return harness.Result{}, harness.Wire(fmt.Sprintf("code %q is not in the binding's table", code), ReqA2AReceipt)
	}
	var r struct {
		Retryable  bool `json:"retryable"`
		RetryAfter *int `json:"retryAfter"`
	}
	_ = json.Unmarshal(receipt, &r)
	if want := a2ab.WireFor(code).Retryable; r.Retryable != want || (r.RetryAfter != nil) != want {
		return harness.Result{}, harness.Wire(fmt.Sprintf("code %q: retryable %v with retryAfter %v; the table says retryable %v", code, r.Retryable, r.RetryAfter, want), ReqA2AReceipt)
	}
	return harness.Result{Receipt: bytes.Clone(receipt)}, nil
}
