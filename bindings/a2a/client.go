package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Client delivers QueryResponses over the A2A binding with a2a-go's JSON-RPC client: a respondent's transport.
// It tells three outcomes apart, as every transport does: a receipt (accepted or rejected), a problem (the
// collector formed no receipt: JSON-RPC invalid params), and a transport failure (nothing was decided).
//
// The receipt is returned exactly as the collector wrote it: a2a-go decodes a DataPart's data into float64s, so
// the client also keeps the reply's bytes (read by its own http.RoundTripper around the caller's) and cuts the
// receipt part's text from them. The response goes as a DataPart whose data holds the response's members, each
// member's text unchanged (numbers keep every digit); a2a-go's encoder writes the members in sorted order and
// escapes <, > and & in strings — the same JSON value, and the same bytes on every retry.
type Client struct {
	// HTTP sends the requests; nil uses http.DefaultClient. A respondent sets one whose dialer enforces its
	// destination policy; every connection the client makes goes through it.
	HTTP *http.Client
}

var _ respondent.Transport = (*Client)(nil)

// Binding implements respondent.Transport.
func (c *Client) Binding() string { return Name }

// Deliver implements respondent.Transport: it sends response to d with message/send and returns the receipt
// bytes, a *respondent.ProblemError when the collector formed none (or the response cannot be a DataPart's data),
// or a *respondent.TransportError when nothing was decided. The call is bounded by ctx; give it a deadline.
func (c *Client) Deliver(ctx context.Context, d respondent.Delivery, response []byte) ([]byte, error) {
	te := func(err error) error {
		return &respondent.TransportError{Binding: Name, Endpoint: d.Endpoint, Err: err}
	}
	if d.Operation != "" && d.Operation != SendMethod {
		return nil, te(fmt.Errorf("delivery.operation is %q; the A2A binding sends %s", d.Operation, SendMethod))
	}
	data, err := dataOf(response)
	if err != nil {
		return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: err.Error()}
	}
	base := c.HTTP
	if base == nil {
		base = http.DefaultClient
	}
	hc := *base
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	hc.Transport = keepReply{next: next}
	client, err := a2aclient.NewFromEndpoints(ctx, []a2a.AgentInterface{{Transport: a2a.TransportProtocolJSONRPC, URL: d.Endpoint}},
		a2aclient.WithJSONRPCTransport(&hc), a2aclient.WithInterceptors(bearer(d.Authorization)))
	if err != nil {
		return nil, te(err)
	}
	defer func() { _ = client.Destroy() }()
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.DataPart{Data: data, Metadata: map[string]any{ObjectKey: ObjectResponse}})
	msg.Extensions = []string{spec.A2AExtension}
	kept := &keptReply{}
	_, sendErr := client.SendMessage(context.WithValue(ctx, keptReplyKey{}, kept), &a2a.MessageSendParams{Message: msg})
	if kept.err != nil {
		return nil, te(kept.err)
	}
	if kept.body == nil {
		if sendErr == nil {
			sendErr = errors.New("no reply was read")
		}
		return nil, te(sendErr)
	}
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(kept.body, &r); err != nil {
		return nil, te(fmt.Errorf("the reply is not a JSON-RPC response: %w", err))
	}
	switch {
	case r.Error != nil && r.Error.Code == ProblemCode:
		return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: r.Error.Message}
	case r.Error != nil:
		return nil, te(fmt.Errorf("JSON-RPC error %d: %s", r.Error.Code, r.Error.Message))
	case sendErr != nil:
		return nil, te(sendErr)
	}
	receipt, err := ReceiptFromResult(r.Result)
	if err != nil {
		return nil, te(err)
	}
	return receipt, nil
}

// ReceiptFromResult cuts the receipt's text from a message/send result: the data of its one part marked
// {"aqpObject": "receipt"}. The error says what the result lacks.
func ReceiptFromResult(result []byte) ([]byte, error) {
	var m struct {
		Kind  string            `json:"kind"`
		Parts []json.RawMessage `json:"parts"`
	}
	if err := json.Unmarshal(result, &m); err != nil {
		return nil, fmt.Errorf("the result is not a Message: %w", err)
	}
	if m.Kind != "message" {
		return nil, fmt.Errorf("the result is a %q, not the reply Message carrying a receipt", m.Kind)
	}
	var found [][]byte
	for _, raw := range m.Parts {
		var p rawPart
		if json.Unmarshal(raw, &p) == nil && p.Kind == "data" && p.Metadata[ObjectKey] == ObjectReceipt && len(p.Data) > 0 {
			found = append(found, p.Data)
		}
	}
	if len(found) != 1 {
		return nil, fmt.Errorf(`the reply Message carries %d DataParts marked {"aqpObject": "receipt"}, want exactly one`, len(found))
	}
	return bytes.Clone(found[0]), nil
}

// dataOf splits a response into its top-level members, each kept as its text, for a DataPart's data. The response
// must be one I-JSON object (no duplicate names, valid UTF-8): anything else cannot travel as a DataPart unchanged.
func dataOf(response []byte) (map[string]any, error) {
	const what = "the A2A binding carries a QueryResponse as a DataPart's data, which must be one JSON object"
	dec := jsontext.NewDecoder(bytes.NewReader(response))
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if tok.Kind() != '{' {
		return nil, fmt.Errorf("%s; the response is a JSON %s", what, tok.Kind())
	}
	out := map[string]any{}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		name := tok.String() // a token is valid only until the next read
		v, err := dec.ReadValue()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out[name] = json.RawMessage(bytes.Clone(v))
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("%s; text follows the object", what)
	}
	return out, nil
}

// bearer is an a2aclient interceptor that sends the query's capability as the Authorization header.
type bearer string

func (b bearer) Before(ctx context.Context, req *a2aclient.Request) (context.Context, error) {
	if b != "" {
		req.Meta["Authorization"] = []string{string(b)}
	}
	return ctx, nil
}

func (bearer) After(context.Context, *a2aclient.Response) error { return nil }

// keptReplyKey marks a call whose reply bytes keepReply keeps.
type keptReplyKey struct{}

type keptReply struct {
	body []byte
	err  error
}

// keepReply reads the whole reply of a marked call (at most MaxRequest bytes) so that its bytes survive a2a-go's
// decoding, and hands a2a-go a copy.
type keepReply struct{ next http.RoundTripper }

func (k keepReply) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := k.next.RoundTrip(req)
	kept, ok := req.Context().Value(keptReplyKey{}).(*keptReply)
	if err != nil || !ok {
		return resp, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		kept.err = fmt.Errorf("HTTP %s: %s", resp.Status, bytes.TrimSpace(b))
		return nil, kept.err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxRequest+1))
	switch {
	case err != nil:
		kept.err = fmt.Errorf("reading the reply: %w", err)
		return nil, kept.err
	case len(body) > MaxRequest:
		kept.err = fmt.Errorf("the reply is larger than %d bytes", MaxRequest)
		return nil, kept.err
	}
	kept.body = body
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}
