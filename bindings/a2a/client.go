package a2a

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	"github.com/go-json-experiment/json/jsontext"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// maxCard bounds the agent card a client reads.
const maxCard = 256 << 10

// Client delivers QueryResponses over the A2A binding with a2a-go/v2's client: a respondent's transport. It reads
// the collector's agent card (at the delivery endpoint's origin) and delivers over the newest generation the card
// lists — A2A 1.0 over JSON-RPC, HTTP+JSON or gRPC, else 0.3 over JSON-RPC — on an interface of the delivery
// endpoint's own host (a card cannot send a response elsewhere); a collector without a card is reached over
// JSON-RPC at the endpoint, in the generation delivery.operation names (D32). It tells three outcomes apart, as every
// transport does: a receipt (accepted or rejected), a problem (the collector formed no receipt: invalid params), and
// a transport failure (nothing was decided).
//
// The response goes exactly as given: over JSON-RPC and HTTP+JSON as a data part whose value is the response's own
// text, over gRPC as a raw part holding it (D33). The receipt comes back exactly as the collector wrote it: the
// client keeps the reply's bytes (read by its own http.RoundTripper around the caller's, bounded by MaxRequest) and
// cuts the receipt part's text from them; over gRPC the receipt is a raw part's bytes.
type Client struct {
	// HTTP sends the requests; nil uses http.DefaultClient. A respondent sets one whose dialer enforces its
	// destination policy; every HTTP connection the client makes goes through it.
	HTTP *http.Client
	// Dial opens gRPC connections (plain: without TLS, for an http delivery endpoint); nil dials with a
	// net.Dialer. A respondent sets its policy's Dialer, so gRPC connections obey the same rules.
	Dial func(ctx context.Context, plain bool, addr string) (net.Conn, error)
	// TLSConfig configures gRPC's TLS (a private root, say); nil uses the system roots. HTTP's TLS is HTTP's
	// client's. A respondent sets its policy's TLSConfig, so both transports trust the same roots.
	TLSConfig *tls.Config
	// Version, when set, is the only A2A generation to deliver over: Version ("1.0") or LegacyVersion ("0.3").
	Version string
	// Transport, when set, is the only transport to deliver over: a2a.TransportProtocolJSONRPC, HTTPJSON or GRPC.
	Transport a2a.TransportProtocol
}

var _ respondent.Transport = (*Client)(nil)

// Binding implements respondent.Transport.
func (c *Client) Binding() string { return Name }

// Deliver implements respondent.Transport: it sends response to d and returns the receipt bytes, a
// *respondent.ProblemError when the collector formed none (or the response cannot be a part's content), or a
// *respondent.TransportError when nothing was decided. The call is bounded by ctx; give it a deadline.
func (c *Client) Deliver(ctx context.Context, d respondent.Delivery, response []byte) ([]byte, error) {
	te := func(err error) error {
		return &respondent.TransportError{Binding: Name, Endpoint: d.Endpoint, Err: err}
	}
	if d.Operation != "" && d.Operation != SendMethod && d.Operation != LegacySendMethod {
		return nil, te(fmt.Errorf("delivery.operation is %q; the A2A binding sends %s (A2A 1.0) or %s (0.3)", d.Operation, SendMethod, LegacySendMethod))
	}
	data, err := dataOf(response)
	if err != nil {
		return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: err.Error()}
	}
	hc := c.httpClient()
	iface, err := c.pick(ctx, hc, d, "")
	if err != nil {
		return nil, te(err)
	}
	client, err := a2aclient.NewFromEndpoints(ctx, []*a2a.AgentInterface{iface}, c.factoryOptions(hc, d.Endpoint)...)
	if err != nil {
		return nil, te(err)
	}
	defer func() { _ = client.Destroy() }()

	var part *a2a.Part
	switch {
	case iface.ProtocolVersion == LegacyVersion:
		part = &a2a.Part{Content: a2a.Data{Value: data}}
	case iface.ProtocolBinding == a2a.TransportProtocolGRPC:
		part = &a2a.Part{Content: a2a.Raw(bytes.Clone(response)), MediaType: MediaTypeJSON}
	default:
		part = &a2a.Part{Content: a2a.Data{Value: json.RawMessage(response)}, MediaType: MediaTypeJSON}
	}
	part.Metadata = map[string]any{ObjectKey: ObjectResponse}
	msg := a2a.NewMessage(a2a.MessageRoleUser, part)
	msg.Extensions = []string{spec.A2AExtension}
	params := a2aclient.ServiceParams{"authorization": nil, strings.ToLower(ExtensionsHeader): {spec.A2AExtension}}
	if d.Authorization != "" {
		params["authorization"] = []string{d.Authorization}
	} else {
		delete(params, "authorization")
	}
	kept := &keptReply{}
	callCtx := a2aclient.AttachServiceParams(context.WithValue(ctx, keptReplyKey{}, kept), params)
	result, sendErr := client.SendMessage(callCtx, &a2a.SendMessageRequest{Message: msg})

	if iface.ProtocolBinding == a2a.TransportProtocolGRPC {
		return grpcReceipt(d, result, sendErr)
	}
	if kept.err != nil {
		return nil, te(kept.err)
	}
	if kept.body == nil {
		if sendErr == nil {
			sendErr = errors.New("no reply was read")
		}
		return nil, te(sendErr)
	}
	receipt, problem, err := receiptFromReply(iface, kept)
	switch {
	case problem != "":
		return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: problem}
	case err != nil:
		return nil, te(err)
	}
	return receipt, nil
}

func (c *Client) httpClient() *http.Client {
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
	return &hc
}

// pick reads the agent card and chooses the interface to deliver over. The card is at cardBase's well-known path:
// the endpoint's origin when cardBase is "" (a collector's card, §6), else below cardBase (an agent's), where any
// failure to read one means the agent has none.
func (c *Client) pick(ctx context.Context, hc *http.Client, d respondent.Delivery, cardBase string) (*a2a.AgentInterface, error) {
	ep, err := url.Parse(d.Endpoint)
	if err != nil || ep.Host == "" {
		return nil, fmt.Errorf("delivery.endpoint %q is not an absolute URL", d.Endpoint)
	}
	base := cardBase
	if base == "" {
		base = ep.Scheme + "://" + ep.Host
	}
	card, err := readCard(ctx, hc, base)
	var notOK *agentcard.ErrStatusNotOK
	switch {
	case (errors.As(err, &notOK) && notOK.StatusCode == http.StatusNotFound) || (err != nil && cardBase != ""):
		// No card: JSON-RPC at the endpoint, in the generation the operation names.
		v := Version
		if d.Operation == LegacySendMethod {
			v = LegacyVersion
		}
		card = &a2a.AgentCard{SupportedInterfaces: []*a2a.AgentInterface{{URL: d.Endpoint, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.ProtocolVersion(v)}}}
	case err != nil:
		return nil, fmt.Errorf("reading the agent card of %s: %w", ep.Host, err)
	}
	var candidates []*a2a.AgentInterface
	var refused []string
	for _, gen := range []string{Version, LegacyVersion} {
		if c.Version != "" && c.Version != gen {
			continue
		}
		for _, in := range card.SupportedInterfaces {
			if in == nil || majorMinor(string(in.ProtocolVersion)) != gen || (c.Transport != "" && in.ProtocolBinding != c.Transport) {
				continue
			}
			if gen == LegacyVersion && in.ProtocolBinding != a2a.TransportProtocolJSONRPC {
				continue
			}
			if !slices.Contains([]a2a.TransportProtocol{a2a.TransportProtocolJSONRPC, a2a.TransportProtocolHTTPJSON, a2a.TransportProtocolGRPC}, in.ProtocolBinding) {
				continue
			}
			if host := interfaceHost(in); !strings.EqualFold(host, ep.Hostname()) {
				refused = append(refused, fmt.Sprintf("%s %s at %s (not the delivery endpoint's host %s)", in.ProtocolBinding, in.ProtocolVersion, in.URL, ep.Hostname()))
				continue
			}
			candidates = append(candidates, in)
		}
	}
	if len(candidates) == 0 {
		want := "A2A " + Version + " (JSONRPC, HTTP+JSON, GRPC) or " + LegacyVersion + " (JSONRPC)"
		if c.Version != "" || c.Transport != "" {
			want = strings.TrimSpace("A2A " + c.Version + " " + string(c.Transport))
		}
		return nil, fmt.Errorf("the agent card of %s lists no interface for %s on the delivery endpoint's host%s", ep.Host, want, refusedList(refused))
	}
	return candidates[0], nil
}

func refusedList(refused []string) string {
	if len(refused) == 0 {
		return ""
	}
	return "; refused: " + strings.Join(refused, ", ")
}

// readCard fetches and parses an agent card of either generation (a 1.0 card, or a 0.3 card the compatibility
// parser reads).
func readCard(ctx context.Context, hc *http.Client, origin string) (*a2a.AgentCard, error) {
	var body []byte
	r := &agentcard.Resolver{Client: hc, CardParser: func(b []byte) (*a2a.AgentCard, error) {
		body = b
		return agentcard.DefaultCardParser(b)
	}}
	card, err := r.Resolve(ctx, origin)
	if err == nil && len(card.SupportedInterfaces) > 0 {
		return card, nil
	}
	if body == nil {
		return nil, err
	}
	card, err = a2av0.NewAgentCardParser()(body)
	if err == nil && len(card.SupportedInterfaces) == 0 {
		// The 0.3 parser reads any JSON object; one that names no interface is no card (a bare a2a-go agent's
		// JSON-RPC handler answers every path, the well-known one with a JSON-RPC error).
		return nil, fmt.Errorf("%s%s is not an agent card: it lists no interface", origin, spec.A2AAgentCardPath)
	}
	return card, err
}

// majorMinor reduces a protocol version to major.minor ("1.0.0" → "1.0").
func majorMinor(v string) string {
	parts := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// interfaceHost is the host an interface is dialled at: a URL's hostname, or gRPC's host:port.
func interfaceHost(in *a2a.AgentInterface) string {
	if u, err := url.Parse(in.URL); err == nil && u.Host != "" {
		return u.Hostname()
	}
	if host, _, err := net.SplitHostPort(in.URL); err == nil {
		return host
	}
	return in.URL
}

// factoryOptions are the transports the client can deliver over, each sending through hc (gRPC through Dial, with
// TLS when the delivery endpoint is https).
func (c *Client) factoryOptions(hc *http.Client, endpoint string) []a2aclient.FactoryOption {
	plain := strings.HasPrefix(endpoint, "http:")
	tc := &tls.Config{}
	if c.TLSConfig != nil {
		tc = c.TLSConfig.Clone()
	}
	if tc.MinVersion < tls.VersionTLS12 {
		tc.MinVersion = tls.VersionTLS12
	}
	creds := credentials.NewTLS(tc)
	if plain {
		creds = insecure.NewCredentials()
	}
	dial := c.Dial
	if dial == nil {
		dial = func(ctx context.Context, _ bool, addr string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		}
	}
	return []a2aclient.FactoryOption{
		a2aclient.WithDefaultsDisabled(),
		a2aclient.WithJSONRPCTransport(hc),
		a2aclient.WithRESTTransport(hc),
		a2agrpc.WithGRPCTransport(grpc.WithTransportCredentials(creds),
			grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) { return dial(ctx, plain, addr) }),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxRequest))),
		a2aclient.WithCompatTransport(a2av0.Version, a2a.TransportProtocolJSONRPC, a2av0.NewJSONRPCTransportFactory(a2av0.JSONRPCTransportConfig{Client: hc})),
	}
}

// SendText sends one text message to the A2A agent at agentURL — as a host does when it calls an application that
// is an A2A agent — and returns its reply, a *a2a.Message or *a2a.Task whose metadata may carry queries. It reads
// the agent's card at agentURL's origin and speaks the newest generation and transport the card lists on that
// host (1.0 over JSON-RPC, HTTP+JSON or gRPC, else 0.3 over JSON-RPC); an agent without a card is spoken to over
// 1.0 JSON-RPC at agentURL. Every read is bounded (the card by maxCard, a reply by MaxRequest).
func SendText(ctx context.Context, hc *http.Client, agentURL, text string) (a2a.SendMessageResult, error) {
	c := &Client{HTTP: hc}
	h := c.httpClient()
	d := respondent.Delivery{Binding: Name, Endpoint: agentURL, Operation: SendMethod}
	iface, err := c.pick(ctx, h, d, strings.TrimSuffix(agentURL, "/"))
	if err != nil {
		return nil, err
	}
	client, err := a2aclient.NewFromEndpoints(ctx, []*a2a.AgentInterface{iface}, c.factoryOptions(h, agentURL)...)
	if err != nil {
		return nil, err
	}
	defer func() { _ = client.Destroy() }()
	// Marked as a kept reply: bounded by MaxRequest, not by the card's maxCard.
	res, err := client.SendMessage(context.WithValue(ctx, keptReplyKey{}, &keptReply{}),
		&a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
	if err != nil {
		return nil, fmt.Errorf("SendMessage to %s (%s %s): %w", iface.URL, iface.ProtocolBinding, iface.ProtocolVersion, err)
	}
	return res, nil
}

var grpcRedirect = regexp.MustCompile(`unexpected HTTP status code received from server: (3\d\d)\b`)

// grpcReceipt reads a gRPC send's outcome: the receipt is the reply's one raw part marked receipt; InvalidArgument
// is the collector's problem; anything else decided nothing.
func grpcReceipt(d respondent.Delivery, result a2a.SendMessageResult, err error) ([]byte, error) {
	te := func(err error) error {
		return &respondent.TransportError{Binding: Name, Endpoint: d.Endpoint, Err: err}
	}
	if err != nil {
		// grpc-go reports an HTTP status other than 200 as "unexpected HTTP status code received from server: N";
		// a 3xx is a redirect, refused at once as on every other transport (D29, D34).
		if m := grpcRedirect.FindStringSubmatch(err.Error()); m != nil {
			return nil, &respondent.PolicyError{Rule: respondent.RuleRedirect, Target: d.Endpoint,
				Reason: "the collector answered the gRPC call with HTTP " + m[1] + ", a redirect; redirects are never followed"}
		}
		if st, ok := status.FromError(errors.Unwrap(err)); ok && st.Code() == codes.InvalidArgument {
			return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: st.Message()}
		}
		if errors.Is(err, a2a.ErrInvalidParams) {
			return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: err.Error()}
		}
		return nil, te(err)
	}
	m, ok := result.(*a2a.Message)
	if !ok {
		return nil, te(fmt.Errorf("the result is a %T, not the reply Message carrying a receipt", result))
	}
	var found [][]byte
	for _, p := range m.Parts {
		if p == nil || p.Metadata[ObjectKey] != ObjectReceipt {
			continue
		}
		switch c := p.Content.(type) {
		case a2a.Raw:
			found = append(found, []byte(c))
		case a2a.Data:
			return nil, te(errors.New("the receipt came as a data part over gRPC, whose Value keeps neither member order nor every digit; the binding sends it as a raw part (D33)"))
		}
	}
	if len(found) != 1 {
		return nil, te(fmt.Errorf(`the reply Message carries %d parts marked {"aqpObject": "receipt"}, want exactly one`, len(found)))
	}
	return bytes.Clone(found[0]), nil
}

// receiptFromReply cuts the receipt from a JSON-RPC or HTTP+JSON reply: the result's one part marked receipt. A
// JSON-RPC invalid params, or an HTTP+JSON 400 INVALID_ARGUMENT, is the collector's problem, returned as its message.
func receiptFromReply(iface *a2a.AgentInterface, kept *keptReply) (receipt []byte, problem string, err error) {
	var msg json.RawMessage
	if iface.ProtocolBinding == a2a.TransportProtocolHTTPJSON {
		if kept.status != http.StatusOK {
			var e struct {
				Error struct {
					Status  string `json:"status"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if json.Unmarshal(kept.body, &e) == nil && e.Error.Status == "INVALID_ARGUMENT" {
				return nil, e.Error.Message, nil
			}
			return nil, "", fmt.Errorf("HTTP %d: %.300s", kept.status, bytes.TrimSpace(kept.body))
		}
		var r struct {
			Message json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal(kept.body, &r); err != nil || r.Message == nil {
			return nil, "", fmt.Errorf("the reply is not a send result carrying a message: %.300s", kept.body)
		}
		msg = r.Message
	} else {
		if kept.status != http.StatusOK {
			return nil, "", fmt.Errorf("HTTP %d: %.300s", kept.status, bytes.TrimSpace(kept.body))
		}
		var r struct {
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(kept.body, &r); err != nil {
			return nil, "", fmt.Errorf("the reply is not a JSON-RPC response: %w", err)
		}
		switch {
		case r.Error != nil && r.Error.Code == ProblemCode:
			return nil, r.Error.Message, nil
		case r.Error != nil && respondent.PermanentRPCCode(r.Error.Code):
			// The collector refused the request itself: the same bytes would be refused again (D34).
			return nil, fmt.Sprintf("JSON-RPC error %d: %s", r.Error.Code, r.Error.Message), nil
		case r.Error != nil:
			return nil, "", fmt.Errorf("JSON-RPC error %d: %s", r.Error.Code, r.Error.Message)
		}
		msg = r.Result
		if iface.ProtocolVersion != LegacyVersion {
			var w struct {
				Message json.RawMessage `json:"message"`
			}
			if err := json.Unmarshal(r.Result, &w); err != nil || w.Message == nil {
				return nil, "", fmt.Errorf("the result is not a send result carrying a message: %.300s", r.Result)
			}
			msg = w.Message
		}
	}
	receipt, err = receiptFromMessage(msg)
	return receipt, "", err
}

// receiptFromMessage cuts the receipt's text from a reply Message of either generation, as JSON writes it: the
// content of its one part marked {"aqpObject": "receipt"} (a 0.3 data part's data; a 1.0 data part's value or raw
// part's bytes). The error says what the message lacks.
func receiptFromMessage(msg []byte) ([]byte, error) {
	var m struct {
		Kind  string            `json:"kind"`
		Parts []json.RawMessage `json:"parts"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, fmt.Errorf("the result is not a Message: %w", err)
	}
	var found [][]byte
	for _, raw := range m.Parts {
		var p part10
		if json.Unmarshal(raw, &p) != nil || !marks(p.Metadata, ObjectReceipt) {
			continue
		}
		switch {
		case p.Data != nil:
			found = append(found, p.Data)
		case p.Raw != nil:
			var s string
			if json.Unmarshal(p.Raw, &s) == nil {
				if b, err := decodeBase64(s); err == nil {
					found = append(found, b)
				}
			}
		}
	}
	if len(found) != 1 {
		return nil, fmt.Errorf(`the reply Message carries %d parts marked {"aqpObject": "receipt"}, want exactly one`, len(found))
	}
	return bytes.Clone(found[0]), nil
}

// dataOf splits a response into its top-level members, each kept as its text, for a 0.3 DataPart's data (which
// a2a-go's 0.3 layer needs as a map). The response must be one I-JSON object (no duplicate names, valid UTF-8):
// anything else cannot travel as a part's data unchanged.
func dataOf(response []byte) (map[string]any, error) {
	const what = "the A2A binding carries a QueryResponse as a part's data, which must be one JSON object"
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

// keptReplyKey marks a call whose reply bytes keepReply keeps.
type keptReplyKey struct{}

type keptReply struct {
	status int
	body   []byte
	err    error
}

// keepReply bounds every reply the client reads (an agent card by maxCard, a send's reply by MaxRequest: a
// hostile collector cannot make the respondent hold more), and keeps the whole reply of a marked call so that its
// bytes survive a2a-go's decoding, handing a2a-go a copy.
type keepReply struct{ next http.RoundTripper }

func (k keepReply) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := k.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		// A redirect is the http.Client's to judge (the destination policy refuses every one): not a reply.
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.LimitReader(resp.Body, maxCard), resp.Body}
		return resp, nil
	}
	kept, ok := req.Context().Value(keptReplyKey{}).(*keptReply)
	limit := int64(MaxRequest)
	if !ok {
		limit = maxCard
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	switch {
	case err != nil:
		err = fmt.Errorf("reading the reply: %w", err)
	case int64(len(body)) > limit:
		err = fmt.Errorf("the reply is larger than %d bytes", limit)
	}
	if err != nil {
		if ok {
			kept.err = err
		}
		return nil, err
	}
	if ok {
		kept.status, kept.body = resp.StatusCode, body
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}
