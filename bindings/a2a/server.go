// Package a2a is AQP's A2A binding (§6): a collector is an A2A agent. A respondent sends `message/send` (or
// `message/stream`) to /a2a with a DataPart whose data is the QueryResponse and whose metadata is
// {"aqpObject": "response"}, the query's capability as its HTTP bearer token; the reply is a Message with the
// QueryReceipt as a DataPart ({"aqpObject": "receipt"}). The agent card at /.well-known/agent-card.json declares
// the AQP extension. client.go delivers responses for a respondent with a2a-go's client; carriage.go carries
// queries to respondents in a Message's or Task's metadata and wraps an a2a-go executor so that an existing agent
// asks them; codes.go says how each receipt code surfaces on the wire.
//
// Both directions keep the bytes: the response reaches the core exactly as the client wrote it (its text is cut
// from the request body, never re-encoded from a2a-go's map of float64s, so an integer of 2^53 + 1 survives), and
// the receipt leaves exactly as the core wrote it (a2a-go's encoder would sort its members and escape <, > and &).
// Every other method is answered by a2a-go's JSON-RPC handler over a RequestHandler that supports none of them.
package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strconv"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Name is the binding's name, as a query's delivery.binding spells it.
const Name = spec.BindingA2A

// The A2A methods the binding takes a response with; SendMethod is delivery.operation.
const (
	SendMethod   = spec.A2AOperation
	StreamMethod = "message/stream"
)

// The part metadata that marks AQP objects in a Message (§6).
const (
	// ObjectKey is the part metadata member naming the AQP object a DataPart carries.
	ObjectKey = "aqpObject"
	// ObjectResponse marks the DataPart whose data is the QueryResponse.
	ObjectResponse = "response"
	// ObjectReceipt marks the DataPart whose data is the QueryReceipt.
	ObjectReceipt = "receipt"
)

// MaxRequest bounds a JSON-RPC request: the largest response the core validates plus room for the envelope, so a
// response over the core's bound still reaches the core (which answers it with a receipt when it can).
const MaxRequest = httpio.MaxBody + 64<<10

// Endpoint is what the A2A binding serves: JSON-RPC at /a2a, delivery.operation message/send.
func Endpoint() collector.Endpoint {
	return collector.Endpoint{Binding: Name, Path: spec.A2APath, Operation: spec.A2AOperation}
}

// Binding is the A2A binding as a service composes it: it declares its Endpoint, builds its handler over the
// Submitter the service gives it, and serves the agent card beside it.
type Binding struct{}

// Endpoint implements the service's binding contract.
func (Binding) Endpoint() collector.Endpoint { return Endpoint() }

// Handler implements the service's binding contract: the server for sub.
func (Binding) Handler(sub collector.Submitter) http.Handler { return NewServer(sub) }

// Routes implements the service's optional extra-routes contract: the agent card, at the collector's public URL.
func (Binding) Routes(publicURL string, _ collector.Submitter) map[string]http.Handler {
	return map[string]http.Handler{spec.A2AAgentCardPath: a2asrv.NewStaticAgentCardHandler(AgentCard(publicURL))}
}

// AgentCard is the collector's agent card: the AQP extension, one skill (submitting responses), the JSON-RPC
// transport at publicURL + /a2a, and the bearer scheme the capability travels in.
func AgentCard(publicURL string) *a2a.AgentCard {
	url := strings.TrimSuffix(publicURL, "/") + spec.A2APath
	return &a2a.AgentCard{
		Name:               "AQP collector",
		Description:        "Collects answers to Agent Query Protocol queries: send a QueryResponse as a DataPart (metadata {\"aqpObject\": \"response\"}) with the query's capability as the bearer token; the reply carries the QueryReceipt.",
		URL:                url,
		PreferredTransport: a2a.TransportProtocolJSONRPC,
		AdditionalInterfaces: []a2a.AgentInterface{
			{Transport: a2a.TransportProtocolJSONRPC, URL: url},
		},
		ProtocolVersion: "0.3.0",
		Version:         spec.ProtocolVersion,
		Capabilities: a2a.AgentCapabilities{
			Streaming: true,
			Extensions: []a2a.AgentExtension{{
				URI:         spec.A2AExtension,
				Description: "Agent Query Protocol " + spec.ProtocolVersion + ": QueryResponse in, QueryReceipt out, as DataParts marked by metadata aqpObject.",
				Required:    true,
			}},
		},
		DefaultInputModes:  []string{"application/json"},
		DefaultOutputModes: []string{"application/json"},
		Skills: []a2a.AgentSkill{{
			ID:          "aqp-submit-response",
			Name:        "Submit an AQP response",
			Description: "Takes one QueryResponse answering a query this collector issued and returns its QueryReceipt (accepted or rejected, with the reason).",
			Tags:        []string{"aqp", "query", "response"},
			InputModes:  []string{"application/json"},
			OutputModes: []string{"application/json"},
		}},
		SecuritySchemes: a2a.NamedSecuritySchemes{
			"aqpCapability": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer",
				Description: "The query's capability: the value of its delivery.authorization."},
		},
		Security: []a2a.SecurityRequirements{{"aqpCapability": a2a.SecuritySchemeScopes{}}},
	}
}

// Server is the A2A binding's JSON-RPC endpoint over a Submitter.
type Server struct {
	sub collector.Submitter
	sdk http.Handler
}

// NewServer returns the binding's JSON-RPC handler; it answers at whatever path it is mounted (spec.A2APath in a
// collector).
func NewServer(sub collector.Submitter) *Server {
	return &Server{sub: sub, sdk: a2asrv.NewJSONRPCHandler(unsupported{})}
}

// envelope is a JSON-RPC request with its id and params kept as text.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	ID      json.RawMessage `json:"id"`
	Params  json.RawMessage `json:"params"`
}

// ServeHTTP answers message/send and message/stream itself and hands every other request to a2a-go's handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.rejected("method")
		s.sdk.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequest))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			s.rejected("size")
			writeError(w, http.StatusRequestEntityTooLarge, nil, CodeInvalidRequest, "the JSON-RPC request is larger than "+strconv.Itoa(MaxRequest)+" bytes")
			return
		}
		s.rejected("read")
		writeError(w, http.StatusBadRequest, nil, CodeParseError, "reading the request: "+err.Error())
		return
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		s.rejected("json")
		writeError(w, http.StatusOK, nil, CodeParseError, "the request is not a JSON-RPC request object: "+err.Error())
		return
	}
	if env.Method != SendMethod && env.Method != StreamMethod {
		// a2a-go writes its JSON-RPC errors without a Content-Type; a streaming method sets its own.
		w.Header().Set("Content-Type", "application/json")
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.sdk.ServeHTTP(w, r)
		return
	}
	if msg, ok := validID(env.ID); !ok || env.JSONRPC != "2.0" {
		if ok {
			msg = `"jsonrpc" must be "2.0"`
		}
		s.rejected("jsonrpc")
		writeError(w, http.StatusOK, nil, CodeInvalidRequest, msg)
		return
	}
	stream := env.Method == StreamMethod
	call, perr := parseCall(env.Params)
	if perr != "" {
		s.rejected("params")
		s.writeReply(w, stream, errorResponse(env.ID, CodeInvalidParams, env.Method+": "+perr, nil))
		return
	}
	out := s.sub.Submit(r.Context(), collector.Submission{Body: call.response, Authorization: r.Header.Get("Authorization"),
		Binding: Name, Client: httpio.ClientAddress(r)})
	if out.Problem != nil {
		s.writeReply(w, stream, errorResponse(env.ID, ProblemCode, "no receipt can be formed: "+out.Problem.Detail, out.Problem.Errors))
		return
	}
	s.writeReply(w, stream, resultResponse(env.ID, ReplyMessage(call.contextID, call.taskID, out.Receipt)))
}

func (s *Server) rejected(reason string) { collector.RejectedOnWire(s.sub, Name, reason) }

// writeReply writes one JSON-RPC response: as the body of message/send, as the one event of message/stream.
func (s *Server) writeReply(w http.ResponseWriter, stream bool, resp []byte) {
	if !stream {
		httpio.WriteJSON(w, http.StatusOK, resp)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ev := make([]byte, 0, len(resp)+64)
	ev = append(ev, "id: "...)
	ev = append(ev, uuid.NewString()...)
	ev = append(ev, "\ndata: "...)
	ev = append(ev, resp...)
	ev = append(ev, "\n\n"...)
	_, _ = w.Write(ev)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// call is what a message/send request carries for AQP.
type call struct {
	response          []byte
	contextID, taskID string
}

// sendParams is MessageSendParams with each part kept as text.
type sendParams struct {
	Message *struct {
		Kind      string            `json:"kind"`
		MessageID string            `json:"messageId"`
		ContextID string            `json:"contextId"`
		TaskID    string            `json:"taskId"`
		Role      string            `json:"role"`
		Parts     []json.RawMessage `json:"parts"`
	} `json:"message"`
}

// rawPart is one part with its data kept as text.
type rawPart struct {
	Kind     string          `json:"kind"`
	Data     json.RawMessage `json:"data"`
	Metadata map[string]any  `json:"metadata"`
}

// expected says what a message/send request must carry, for every invalid-params error.
const expected = `the message must carry exactly one part of kind "data" with metadata {"aqpObject": "response"} whose data is the QueryResponse`

// parseCall finds the one AQP response part of a message/send request; the error says what was expected.
func parseCall(params json.RawMessage) (call, string) {
	var p sendParams
	if len(params) == 0 || string(params) == "null" {
		return call{}, `"params" is missing: it must be MessageSendParams ({"message": {...}}); ` + expected
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return call{}, `"params" is not MessageSendParams: ` + err.Error()
	}
	if p.Message == nil {
		return call{}, `"params.message" is missing; ` + expected
	}
	m := p.Message
	if m.MessageID == "" || m.Role == "" {
		return call{}, `"params.message" needs "messageId" and "role" (A2A Message); ` + expected
	}
	var found []int
	var data json.RawMessage
	for i, raw := range m.Parts {
		var part rawPart
		if err := json.Unmarshal(raw, &part); err != nil {
			return call{}, fmt.Sprintf(`"params.message.parts[%d]" is not a Part: %v`, i, err)
		}
		if part.Kind != "data" || part.Metadata[ObjectKey] != ObjectResponse {
			continue
		}
		found = append(found, i)
		data = part.Data
	}
	switch {
	case len(found) == 0:
		return call{}, expected + "; it carries none"
	case len(found) > 1:
		return call{}, fmt.Sprintf("%s; it carries %d (parts %v)", expected, len(found), found)
	case len(data) == 0 || string(data) == "null":
		return call{}, fmt.Sprintf(`"params.message.parts[%d].data" is missing; %s`, found[0], expected)
	}
	return call{response: data, contextID: m.ContextID, taskID: m.TaskID}, ""
}

// validID checks a JSON-RPC id: a string, a number, null or absent.
func validID(id json.RawMessage) (string, bool) {
	t := bytes.TrimSpace(id)
	if len(t) == 0 || t[0] == '"' || t[0] == '-' || (t[0] >= '0' && t[0] <= '9') || string(t) == "null" {
		return "", true
	}
	return `"id" must be a string, a number or null`, false
}

// ReplyMessage is the agent's reply carrying a receipt: a Message (role agent) in the request's context, with the
// receipt bytes, unchanged, as the data of its one DataPart (metadata {"aqpObject": "receipt"}).
func ReplyMessage(contextID, taskID string, receipt []byte) []byte {
	b := make([]byte, 0, len(receipt)+256)
	b = append(b, `{"kind":"message","messageId":`...)
	b = appendString(b, uuid.NewString())
	b = append(b, `,"role":"agent"`...)
	if contextID != "" {
		b = append(b, `,"contextId":`...)
		b = appendString(b, contextID)
	}
	if taskID != "" {
		b = append(b, `,"taskId":`...)
		b = appendString(b, taskID)
	}
	b = append(b, `,"extensions":[`...)
	b = appendString(b, spec.A2AExtension)
	b = append(b, `],"parts":[{"kind":"data","data":`...)
	b = append(b, receipt...)
	b = append(b, `,"metadata":{"aqpObject":"receipt"}}]}`...)
	return b
}

func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

func resultResponse(id json.RawMessage, result []byte) []byte {
	b := make([]byte, 0, len(result)+64)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, idOrNull(id)...)
	b = append(b, `,"result":`...)
	b = append(b, result...)
	return append(b, '}')
}

func errorResponse(id json.RawMessage, code int, message string, data any) []byte {
	e := struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}{code, message, data}
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

func writeError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	httpio.WriteJSON(w, status, errorResponse(id, code, message, nil))
}

// unsupported is the RequestHandler behind every method other than message/send and message/stream: a collector
// keeps no tasks and sends no push notifications, so each answers with A2A's unsupported-operation error.
type unsupported struct{}

var _ a2asrv.RequestHandler = unsupported{}

var errUnsupported = fmt.Errorf("an AQP collector keeps no tasks and sends no push notifications; it takes only %s and %s: %w",
	SendMethod, StreamMethod, a2a.ErrUnsupportedOperation)

func (unsupported) OnGetTask(context.Context, *a2a.TaskQueryParams) (*a2a.Task, error) {
	return nil, errUnsupported
}
func (unsupported) OnCancelTask(context.Context, *a2a.TaskIDParams) (*a2a.Task, error) {
	return nil, errUnsupported
}
func (unsupported) OnSendMessage(context.Context, *a2a.MessageSendParams) (a2a.SendMessageResult, error) {
	return nil, errUnsupported // never reached: the Server answers message/send itself
}
func (unsupported) OnResubscribeToTask(context.Context, *a2a.TaskIDParams) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(nil, errUnsupported) }
}
func (unsupported) OnSendMessageStream(context.Context, *a2a.MessageSendParams) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(nil, errUnsupported) }
}
func (unsupported) OnGetTaskPushConfig(context.Context, *a2a.GetTaskPushConfigParams) (*a2a.TaskPushConfig, error) {
	return nil, errUnsupported
}
func (unsupported) OnListTaskPushConfig(context.Context, *a2a.ListTaskPushConfigParams) ([]*a2a.TaskPushConfig, error) {
	return nil, errUnsupported
}
func (unsupported) OnSetTaskPushConfig(context.Context, *a2a.TaskPushConfig) (*a2a.TaskPushConfig, error) {
	return nil, errUnsupported
}
func (unsupported) OnDeleteTaskPushConfig(context.Context, *a2a.DeleteTaskPushConfigParams) error {
	return errUnsupported
}
func (unsupported) OnGetExtendedAgentCard(context.Context) (*a2a.AgentCard, error) {
	return nil, errUnsupported
}
