package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/errordetails"
	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/decodegate"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Name is the binding's name, as a query's delivery.binding spells it.
const Name = spec.BindingA2A

// The protocol generations the binding serves, as an A2A-Version header and an agent card's protocolVersion
// write them.
const (
	// Version is A2A 1.0, the generation every transport serves.
	Version = string(a2a.Version)
	// LegacyVersion is A2A 0.3, served over JSON-RPC for peers of the previous generation.
	LegacyVersion = "0.3"
)

// The operations the binding takes a response with. SendMethod is delivery.operation (D32).
const (
	// SendMethod is A2A 1.0's SendMessage: a JSON-RPC method and a gRPC method.
	SendMethod = spec.A2AOperation
	// StreamMethod is A2A 1.0's SendStreamingMessage, answered with one event: the reply.
	StreamMethod = "SendStreamingMessage"
	// LegacySendMethod is A2A 0.3's message/send.
	LegacySendMethod = spec.A2ALegacyOperation
	// LegacyStreamMethod is A2A 0.3's message/stream.
	LegacyStreamMethod = "message/stream"
)

// The HTTP+JSON transport's paths, below the binding's endpoint.
const (
	RESTSendPath   = "/message:send"
	RESTStreamPath = "/message:stream"
)

// GRPCService is the gRPC service A2A 1.0 defines; its methods are served at /GRPCService/Method.
const GRPCService = "lf.a2a.v1.A2AService"

// Service parameters (HTTP headers, gRPC metadata) A2A 1.0 defines.
const (
	// VersionHeader names the A2A version a request is written in.
	VersionHeader = a2a.SvcParamVersion
	// ExtensionsHeader lists the extensions a request activates; a 1.0 request must list the AQP extension.
	ExtensionsHeader = a2a.SvcParamExtensions
)

// MaxRequest bounds one request on every transport: the largest response the core validates plus room for the
// envelope (base64 of a raw part takes 4/3 of the text), so a response over the core's bound still reaches the
// collector, which answers it as HTTPS's 413 does: no receipt (D34).
const MaxRequest = httpio.MaxBody*4/3 + 64<<10

// Endpoint is what the A2A binding serves: /a2a, delivery.operation SendMessage, and every generation and
// transport (D32), as /.well-known/aqp lists them.
func Endpoint() collector.Endpoint {
	return collector.Endpoint{Binding: Name, Path: spec.A2APath, Operation: spec.A2AOperation, Transports: []collector.Transport{
		{ProtocolVersion: Version, Name: "JSONRPC", Path: spec.A2APath, Operation: SendMethod},
		{ProtocolVersion: Version, Name: "HTTP+JSON", Path: spec.A2APath, Operation: "POST " + spec.A2APath + RESTSendPath},
		{ProtocolVersion: Version, Name: "GRPC", HostPort: true, Operation: GRPCService + "/" + SendMethod},
		{ProtocolVersion: LegacyVersion, Name: "JSONRPC", Path: spec.A2APath, Operation: LegacySendMethod},
	}}
}

// Binding is the A2A binding as a service composes it: it declares its Endpoint, builds its handler over the
// Submitter the service gives it, and serves the HTTP+JSON paths, the gRPC service and the agent card beside it.
type Binding struct{}

// Endpoint implements the service's binding contract.
func (Binding) Endpoint() collector.Endpoint { return Endpoint() }

// Handler implements the service's binding contract: the server for sub.
func (Binding) Handler(sub collector.Submitter) http.Handler { return NewServer(sub) }

// Routes implements the service's optional extra-routes contract: the HTTP+JSON transport below /a2a/, the gRPC
// service (which a server reaches only over HTTP/2: `aqp serve` accepts unencrypted HTTP/2 for it), and the agent
// card, at the collector's public URL.
func (Binding) Routes(publicURL string, sub collector.Submitter) map[string]http.Handler {
	s := NewServer(sub)
	return map[string]http.Handler{
		spec.A2APath + "/":      s,
		"/" + GRPCService + "/": s.GRPC(),
		spec.A2AAgentCardPath:   CardHandler(publicURL),
	}
}

// Server is the A2A binding's endpoint over a Submitter: JSON-RPC of both generations at the path it is mounted
// at, and HTTP+JSON below it. GRPC returns the gRPC service over the same Submitter.
type Server struct {
	sub collector.Submitter
	// gate bounds the decodings in flight that build values per element of the body: 0.3's parts (encoding/json)
	// and every gRPC call (grpc-go's protobuf, before our handler), D34.
	gate *decodegate.Gate
}

// NewServer returns the binding's handler; it answers at whatever path it is mounted (spec.A2APath in a collector)
// and, for HTTP+JSON, at that path + RESTSendPath and RESTStreamPath.
func NewServer(sub collector.Submitter) *Server {
	return &Server{sub: sub, gate: decodegate.New(0)}
}

// ServeHTTP answers JSON-RPC at the endpoint and HTTP+JSON below it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasSuffix(r.URL.Path, RESTSendPath):
		s.serveREST(w, r, false)
	case strings.HasSuffix(r.URL.Path, RESTStreamPath):
		s.serveREST(w, r, true)
	case strings.HasSuffix(strings.TrimSuffix(r.URL.Path, "/"), spec.A2APath) || r.URL.Path == "/" || r.URL.Path == "":
		s.serveJSONRPC(w, r)
	default:
		s.rejected("path")
		writeRESTError(w, a2a.ErrUnsupportedOperation, "an AQP collector keeps no tasks and sends no push notifications; "+
			"over HTTP+JSON it takes only POST "+spec.A2APath+RESTSendPath+" and "+spec.A2APath+RESTStreamPath)
	}
}

func (s *Server) rejected(reason string) { s.sub.WireRejected(Name, reason) }

// generation is a protocol generation's wire forms.
type generation struct {
	version string
	reply   func(messageID, contextID, taskID string, receipt []byte) []byte
	// result wraps the reply Message as a send result of this generation (1.0: {"message": …}).
	result func(msg []byte) []byte
}

var (
	gen10 = generation{version: Version, reply: replyMessage10, result: func(m []byte) []byte {
		return append(append([]byte(`{"message":`), m...), '}')
	}}
	gen03 = generation{version: LegacyVersion, reply: replyMessage03, result: func(m []byte) []byte { return m }}
)

// methods10 and methods03 are the operations each generation defines that the binding does not serve: they get
// A2A's unsupported-operation error (D27), an unknown method JSON-RPC's method-not-found.
var (
	methods10 = []string{"GetTask", "ListTasks", "CancelTask", "SubscribeToTask", "CreateTaskPushNotificationConfig",
		"GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig",
		"GetExtendedAgentCard"}
	methods03 = []string{"tasks/get", "tasks/list", "tasks/cancel", "tasks/resubscribe", "tasks/pushNotificationConfig/set",
		"tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete",
		"agent/getAuthenticatedExtendedCard", "agent/getExtendedCard"}
)

func (s *Server) serveJSONRPC(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.rejected("method")
		w.Header().Set("Allow", http.MethodPost)
		writeRPCError(w, http.StatusMethodNotAllowed, nil, a2a.ErrInvalidRequest, r.Method+" is not allowed: JSON-RPC requests are POSTed", true)
		return
	}
	body, ok := s.readBody(w, r, func(status int, err error, msg string) { writeRPCError(w, status, nil, err, msg, true) })
	if !ok {
		return
	}
	env, err := scanEnvelope(body)
	if err != nil {
		s.rejected("json")
		writeRPCError(w, http.StatusOK, nil, a2a.ErrParseError, "the request is not a JSON-RPC request object: "+err.Error(), true)
		return
	}
	if msg, ok := validID(env.ID); !ok || env.JSONRPC != "2.0" {
		if ok {
			msg = `"jsonrpc" must be "2.0"`
		}
		s.rejected("jsonrpc")
		writeRPCError(w, http.StatusOK, nil, a2a.ErrInvalidRequest, msg, true)
		return
	}
	var g generation
	var stream bool
	switch env.Method {
	case SendMethod, StreamMethod:
		g, stream = gen10, env.Method == StreamMethod
	case LegacySendMethod, LegacyStreamMethod:
		g, stream = gen03, env.Method == LegacyStreamMethod
	case "":
		s.rejected("jsonrpc")
		writeRPCError(w, http.StatusOK, env.ID, a2a.ErrInvalidRequest, `"method" is missing`, true)
		return
	default:
		s.rejected("method")
		if slices.Contains(methods10, env.Method) || slices.Contains(methods03, env.Method) {
			writeRPCError(w, http.StatusOK, env.ID, a2a.ErrUnsupportedOperation, errUnsupported(env.Method), slices.Contains(methods10, env.Method))
			return
		}
		writeRPCError(w, http.StatusOK, env.ID, a2a.ErrMethodNotFound, "A2A defines no method "+strconv.Quote(env.Method)+
			"; an AQP collector takes "+SendMethod+" (A2A 1.0) and "+LegacySendMethod+" (A2A 0.3)", true)
		return
	}
	if err, msg := checkParams(g, r.Header.Values(VersionHeader), r.Header.Values(ExtensionsHeader)); err != nil {
		s.rejected("a2a-service-params")
		writeRPCError(w, http.StatusOK, env.ID, err, msg, g.version == Version)
		return
	}
	var call callParts
	var perr string
	if g.version == LegacyVersion {
		// 0.3's parts are decoded by encoding/json, a value per element: at most a gate's worth at once.
		if !s.gate.Enter(r.Context()) {
			return
		}
		call, perr = parseSend03(env.Params)
		s.gate.Leave()
	} else {
		call, perr = scanSend10(env.Params)
	}
	if perr != "" {
		s.rejected("params")
		s.writeRPC(w, stream, rpcError(env.ID, a2a.ErrInvalidParams, env.Method+": "+perr, nil, g.version == Version))
		return
	}
	reply, problem := s.submit(r.Context(), g, call, r.Header.Get("Authorization"), httpio.ClientAddress(r))
	if problem != nil {
		s.writeRPC(w, stream, rpcError(env.ID, a2a.ErrInvalidParams, "no receipt can be formed: "+problem.Detail, problem.Errors, g.version == Version))
		return
	}
	if g.version == Version {
		w.Header().Set(ExtensionsHeader, spec.A2AExtension)
	}
	s.writeRPC(w, stream, rpcResult(env.ID, g.result(reply)))
}

// checkParams applies A2A 1.0's service parameters to a request of generation g: an A2A-Version the binding does
// not serve for g is refused (VersionNotSupported), and a 1.0 request that does not activate the AQP extension
// by A2A-Extensions is refused (ExtensionSupportRequired: the card declares it required). A 0.3 request needs no
// activation (0.3 has no way to refuse one).
func checkParams(g generation, versions, extensions []string) (error, string) {
	if v := strings.TrimSpace(strings.Join(versions, ",")); v != "" && v != g.version {
		return a2a.ErrVersionNotSupported, "A2A-Version " + strconv.Quote(v) + " is not served for this operation: an AQP collector " +
			"serves A2A " + Version + " (SendMessage, on JSON-RPC, HTTP+JSON and gRPC) and " + LegacyVersion + " (message/send, on JSON-RPC)"
	}
	if g.version != Version {
		return nil, ""
	}
	for _, line := range extensions {
		for _, uri := range strings.Split(line, ",") {
			if strings.TrimSpace(uri) == spec.A2AExtension {
				return nil, ""
			}
		}
	}
	return a2a.ErrExtensionSupportRequired, "the AQP extension is required: activate it by listing " + spec.A2AExtension +
		" in the " + ExtensionsHeader + " service parameter (an HTTP header, or gRPC metadata)"
}

// readBody reads a request body bounded by MaxRequest; on failure it has answered with fail.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, fail func(status int, err error, msg string)) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequest))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			s.rejected("size")
			fail(http.StatusRequestEntityTooLarge, a2a.ErrInvalidRequest, "the request is larger than "+strconv.Itoa(MaxRequest)+" bytes")
			return nil, false
		}
		s.rejected("read")
		fail(http.StatusBadRequest, a2a.ErrParseError, "reading the request: "+err.Error())
		return nil, false
	}
	return body, true
}

// submit hands a send request's response to the collector and returns the reply Message carrying its receipt, or
// the problem when no receipt can be formed.
func (s *Server) submit(ctx context.Context, g generation, call callParts, authorization, client string) ([]byte, *collector.Problem) {
	out := s.sub.Submit(ctx, collector.Submission{Body: call.response, Authorization: authorization, Binding: Name, Client: client})
	if out.Problem != nil {
		return nil, out.Problem
	}
	return g.reply(uuid.NewString(), call.contextID, call.taskID, out.Receipt), nil
}

// writeRPC writes one JSON-RPC response: as the body of a send, as the one event of a streaming send.
func (s *Server) writeRPC(w http.ResponseWriter, stream bool, resp []byte) {
	if !stream {
		httpio.WriteJSON(w, http.StatusOK, resp)
		return
	}
	writeEvent(w, resp)
}

// writeEvent writes a stream of one server-sent event whose data is data.
func writeEvent(w http.ResponseWriter, data []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ev := make([]byte, 0, len(data)+64)
	ev = append(ev, "id: "...)
	ev = append(ev, uuid.NewString()...)
	ev = append(ev, "\ndata: "...)
	ev = append(ev, data...)
	ev = append(ev, "\n\n"...)
	_, _ = w.Write(ev)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request, stream bool) {
	if r.Method != http.MethodPost {
		s.rejected("method")
		w.Header().Set("Allow", http.MethodPost)
		writeRESTErrorStatus(w, http.StatusMethodNotAllowed, a2a.ErrInvalidRequest, r.Method+" is not allowed on "+r.URL.Path+": POST a SendMessageRequest")
		return
	}
	if err, msg := checkParams(gen10, r.Header.Values(VersionHeader), r.Header.Values(ExtensionsHeader)); err != nil {
		s.rejected("a2a-service-params")
		writeRESTError(w, err, msg)
		return
	}
	body, ok := s.readBody(w, r, func(status int, err error, msg string) { writeRESTErrorStatus(w, status, err, msg) })
	if !ok {
		return
	}
	call, perr := scanSend10(body)
	if perr != "" {
		s.rejected("params")
		writeRESTError(w, a2a.ErrInvalidParams, perr)
		return
	}
	reply, problem := s.submit(r.Context(), gen10, call, r.Header.Get("Authorization"), httpio.ClientAddress(r))
	if problem != nil {
		writeRESTErrorWith(w, errorFormFor(a2a.ErrInvalidParams).HTTPStatus, a2a.ErrInvalidParams, "no receipt can be formed: "+problem.Detail, problem.Errors)
		return
	}
	w.Header().Set(ExtensionsHeader, spec.A2AExtension)
	result := gen10.result(reply)
	if stream {
		writeEvent(w, result)
		return
	}
	httpio.WriteJSON(w, http.StatusOK, result)
}

// validID checks a JSON-RPC id: a string, a number, null or absent.
func validID(id json.RawMessage) (string, bool) {
	t := bytes.TrimSpace(id)
	if len(t) == 0 || t[0] == '"' || t[0] == '-' || (t[0] >= '0' && t[0] <= '9') || string(t) == "null" {
		return "", true
	}
	return `"id" must be a string, a number or null`, false
}

// rpcResult is a JSON-RPC result response echoing the request's id exactly as written (an id past 2^53 is not
// rounded).
func rpcResult(id json.RawMessage, result []byte) []byte {
	b := make([]byte, 0, len(result)+64)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, idOrNull(id)...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}')
}

// rpcError is a JSON-RPC error response for one of the binding's A2A errors. A 1.0 error's data is A2A 1.0's
// list of typed details — a google.rpc.ErrorInfo naming the reason in A2A's domain, and the AQP validation errors
// (when there are any) as a Struct detail {"errors": […]}; a 0.3 error's data is the validation errors themselves.
func rpcError(id json.RawMessage, err error, message string, errs core.Errors, v10 bool) []byte {
	var data any
	switch {
	case v10:
		data = details(err, errs)
	case len(errs) > 0:
		data = errs
	}
	e := struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}{errorFormFor(err).JSONRPC, message, data}
	eb, _ := json.Marshal(e)
	b := make([]byte, 0, len(eb)+64)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, idOrNull(id)...)
	b = append(b, `,"error":`...)
	b = append(b, eb...)
	return append(b, '}')
}

func idOrNull(id json.RawMessage) []byte {
	if len(bytes.TrimSpace(id)) == 0 {
		return []byte("null")
	}
	var buf bytes.Buffer
	if json.Compact(&buf, id) != nil {
		return []byte("null")
	}
	return buf.Bytes()
}

func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, err error, message string, v10 bool) {
	httpio.WriteJSON(w, status, rpcError(id, err, message, nil, v10))
}

// writeRESTError writes one of the binding's A2A errors as HTTP+JSON writes it: google.rpc.Status (AIP-193) with an
// ErrorInfo detail, at the error's HTTP status.
func writeRESTError(w http.ResponseWriter, err error, message string) {
	writeRESTErrorWith(w, errorFormFor(err).HTTPStatus, err, message, nil)
}

func writeRESTErrorStatus(w http.ResponseWriter, status int, err error, message string) {
	writeRESTErrorWith(w, status, err, message, nil)
}

func writeRESTErrorWith(w http.ResponseWriter, status int, err error, message string, errs core.Errors) {
	f := errorFormFor(err)
	body := struct {
		Error struct {
			Code    int                   `json:"code"`
			Status  string                `json:"status"`
			Message string                `json:"message"`
			Details []*errordetails.Typed `json:"details"`
		} `json:"error"`
	}{}
	body.Error.Code, body.Error.Status, body.Error.Message, body.Error.Details = status, f.Status, message, details(err, errs)
	b, _ := json.Marshal(body)
	httpio.WriteJSON(w, status, b)
}

// details are A2A 1.0's typed error details for one of the binding's errors: a google.rpc.ErrorInfo naming the
// reason in A2A's domain, then the AQP validation errors, when there are any, as a Struct detail {"errors": […]}.
func details(err error, errs core.Errors) []*errordetails.Typed {
	d := []*errordetails.Typed{errordetails.NewErrorInfo(a2a.ErrorReason(err), a2a.ProtocolDomain, nil)}
	if len(errs) > 0 {
		var list []any
		b, _ := json.Marshal(errs)
		_ = json.Unmarshal(b, &list)
		d = append(d, errordetails.NewFromStruct(map[string]any{"errors": list}))
	}
	return d
}

// errUnsupported says why an A2A operation other than sending a message is refused.
func errUnsupported(method string) string {
	return method + " is not supported: an AQP collector keeps no tasks and sends no push notifications; it takes only " +
		SendMethod + " and " + StreamMethod + " (A2A 1.0), " + LegacySendMethod + " and " + LegacyStreamMethod + " (A2A 0.3)"
}
