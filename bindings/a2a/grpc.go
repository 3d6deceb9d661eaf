package a2a

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net"
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/google/uuid"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/decodegate"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// GRPC returns the binding's gRPC service, A2A 1.0's lf.a2a.v1.A2AService, as an http.Handler: grpc-go's server
// answering over net/http's HTTP/2 (unencrypted or TLS), so it shares the collector's one listener and port (the
// agent card's gRPC interface is that host:port). SendMessage and SendStreamingMessage take the response; every
// other method is A2A's unsupported-operation error. A request is bounded by MaxRequest before it is decoded.
//
// The response travels exactly as a raw part: its JSON text as bytes (D33). A data part is a protobuf Value, whose
// numbers are doubles and whose objects keep no member order, so it is accepted only when no number needs more
// than maxSignificantDigits digits, and is written as JSON (members sorted, numbers shortest) before the core reads
// it. The receipt always comes back as a raw part holding its exact bytes.
func (s *Server) GRPC() http.Handler {
	gs := grpc.NewServer(grpc.MaxRecvMsgSize(MaxRequest), grpc.MaxSendMsgSize(MaxRequest))
	a2apb.RegisterA2AServiceServer(gs, &grpcService{Handler: a2agrpc.NewHandler(unsupported{}), s: s})
	// grpc-go reads and decodes a message — part metadata into protobuf Structs, tens of bytes of memory per byte —
	// before any handler of ours runs, so the number of calls decoding at once is bounded in front of it (D34).
	// The slot is given back once the response's bytes are cut from the decoded message (send), so submissions
	// waiting on the store's commit do not hold it and group commit can batch them.
	return s.gate.HandlerUntilDecoded(gs)
}

// grpcService is the A2A gRPC service: a2a-go's translation layer over a handler that supports nothing, with the
// two send methods answered by the binding itself, from the protobuf message as received.
type grpcService struct {
	*a2agrpc.Handler
	s *Server
}

// SendMessage implements a2apb.A2AServiceServer.
func (g *grpcService) SendMessage(ctx context.Context, req *a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error) {
	msg, err := g.send(ctx, req)
	if err != nil {
		return nil, err
	}
	return &a2apb.SendMessageResponse{Payload: &a2apb.SendMessageResponse_Message{Message: msg}}, nil
}

// SendStreamingMessage implements a2apb.A2AServiceServer: one event, the reply.
func (g *grpcService) SendStreamingMessage(req *a2apb.SendMessageRequest, stream grpc.ServerStreamingServer[a2apb.StreamResponse]) error {
	msg, err := g.send(stream.Context(), req)
	if err != nil {
		return err
	}
	return stream.Send(&a2apb.StreamResponse{Payload: &a2apb.StreamResponse_Message{Message: msg}})
}

func (g *grpcService) send(ctx context.Context, req *a2apb.SendMessageRequest) (*a2apb.Message, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if err, msg := checkParams(gen10, md.Get(VersionHeader), md.Get(ExtensionsHeader)); err != nil {
		g.s.rejected("a2a-service-params")
		return nil, grpcError(err, msg, nil)
	}
	call, perr := parseSendPB(req)
	// Decoding is over: what goes on is the response's bytes, bounded like every binding's.
	decodegate.Decoded(ctx)
	if perr != "" {
		g.s.rejected("params")
		return nil, grpcError(a2a.ErrInvalidParams, perr, nil)
	}
	var auth string
	if v := md.Get("authorization"); len(v) > 0 {
		auth = v[0]
	}
	var client string
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		client = p.Addr.String()
		if host, _, err := net.SplitHostPort(client); err == nil {
			client = host
		}
	}
	out := g.s.sub.Submit(ctx, collector.Submission{Body: call.response, Authorization: auth, Binding: Name, Client: client})
	if out.Problem != nil {
		return nil, grpcError(a2a.ErrInvalidParams, "no receipt can be formed: "+out.Problem.Detail, out.Problem.Errors)
	}
	_ = grpc.SetHeader(ctx, metadata.Pairs(ExtensionsHeader, spec.A2AExtension))
	return replyPB(call, out.Receipt), nil
}

// parseSendPB finds the one AQP response part of a gRPC SendMessageRequest; the error says what was expected.
func parseSendPB(req *a2apb.SendMessageRequest) (callParts, string) {
	m := req.GetMessage()
	if m == nil {
		return callParts{}, `"message" is missing; ` + expected10
	}
	if m.GetMessageId() == "" || m.GetRole() == a2apb.Role_ROLE_UNSPECIFIED {
		return callParts{}, `"message" needs "message_id" and "role" (A2A 1.0 Message); ` + expected10
	}
	var found []int
	var content []byte
	for i, p := range m.GetParts() {
		if p.GetMetadata().GetFields()[ObjectKey].GetStringValue() != ObjectResponse {
			continue
		}
		found = append(found, i)
		switch c := p.GetContent().(type) {
		case *a2apb.Part_Raw:
			if mt := mediaTypeOf(p.GetMediaType()); mt != "" && mt != MediaTypeJSON {
				return callParts{}, fmt.Sprintf(`"message.parts[%d]" is a raw part of media_type %q; the QueryResponse's JSON text is %q`, i, p.GetMediaType(), MediaTypeJSON)
			}
			content = c.Raw
		case *a2apb.Part_Data:
			if _, ok := c.Data.GetKind().(*structpb.Value_StructValue); !ok {
				return callParts{}, fmt.Sprintf(`"message.parts[%d].data" is not an object; %s`, i, expected10)
			}
			b, err := valueJSON(c.Data)
			if err != nil {
				return callParts{}, fmt.Sprintf(`"message.parts[%d].data": %v`, i, err)
			}
			content = b
		default:
			return callParts{}, fmt.Sprintf(`"message.parts[%d]" is a text or url part; %s`, i, expected10)
		}
	}
	switch {
	case len(found) == 0:
		return callParts{}, expected10 + "; it carries none"
	case len(found) > 1:
		return callParts{}, fmt.Sprintf("%s; it carries %d (parts %v)", expected10, len(found), found)
	}
	return callParts{response: content, contextID: m.GetContextId(), taskID: m.GetTaskId()}, ""
}

// replyPB is the agent's reply as gRPC carries it: a Message (ROLE_AGENT) in the request's context whose one raw
// part (media_type application/json, metadata {"aqpObject": "receipt"}) is the receipt's exact bytes.
func replyPB(call callParts, receipt []byte) *a2apb.Message {
	meta, _ := structpb.NewStruct(map[string]any{ObjectKey: ObjectReceipt})
	return &a2apb.Message{
		MessageId:  uuid.NewString(),
		ContextId:  call.contextID,
		TaskId:     call.taskID,
		Role:       a2apb.Role_ROLE_AGENT,
		Extensions: []string{spec.A2AExtension},
		Parts:      []*a2apb.Part{{Content: &a2apb.Part_Raw{Raw: receipt}, MediaType: MediaTypeJSON, Metadata: meta}},
	}
}

// grpcError is one of the binding's A2A errors as gRPC carries it: its status code, with a google.rpc.ErrorInfo
// naming the reason in A2A's domain, and the AQP validation errors, when there are any, as a Struct detail.
func grpcError(err error, message string, errs core.Errors) error {
	st := status.New(errorFormFor(err).GRPC, message)
	withInfo, werr := st.WithDetails(&errdetails.ErrorInfo{Reason: a2a.ErrorReason(err), Domain: a2a.ProtocolDomain})
	if werr == nil {
		st = withInfo
	}
	if len(errs) > 0 {
		var list []any
		b, _ := json.Marshal(errs)
		_ = json.Unmarshal(b, &list)
		if detail, serr := structpb.NewStruct(map[string]any{"errors": list}); serr == nil {
			if with, werr := st.WithDetails(detail); werr == nil {
				st = with
			}
		}
	}
	return st.Err()
}

// unsupported is the RequestHandler behind every gRPC method but the two sends: a collector keeps no tasks and
// sends no push notifications, so each answers with A2A's unsupported-operation error.
type unsupported struct{}

var _ a2asrv.RequestHandler = unsupported{}

func errUnsupportedOp(method string) error {
	return a2a.NewError(a2a.ErrUnsupportedOperation, errUnsupported(method))
}

func (unsupported) GetTask(context.Context, *a2a.GetTaskRequest) (*a2a.Task, error) {
	return nil, errUnsupportedOp("GetTask")
}
func (unsupported) ListTasks(context.Context, *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	return nil, errUnsupportedOp("ListTasks")
}
func (unsupported) CancelTask(context.Context, *a2a.CancelTaskRequest) (*a2a.Task, error) {
	return nil, errUnsupportedOp("CancelTask")
}
func (unsupported) SendMessage(context.Context, *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	return nil, errUnsupportedOp("SendMessage") // never reached: grpcService answers it
}
func (unsupported) SubscribeToTask(context.Context, *a2a.SubscribeToTaskRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(nil, errUnsupportedOp("SubscribeToTask")) }
}
func (unsupported) SendStreamingMessage(context.Context, *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(nil, errUnsupportedOp("SendStreamingMessage")) }
}
func (unsupported) GetTaskPushConfig(context.Context, *a2a.GetTaskPushConfigRequest) (*a2a.PushConfig, error) {
	return nil, errUnsupportedOp("GetTaskPushNotificationConfig")
}
func (unsupported) ListTaskPushConfigs(context.Context, *a2a.ListTaskPushConfigRequest) (*a2a.ListTaskPushConfigResponse, error) {
	return nil, errUnsupportedOp("ListTaskPushNotificationConfigs")
}
func (unsupported) CreateTaskPushConfig(context.Context, *a2a.PushConfig) (*a2a.PushConfig, error) {
	return nil, errUnsupportedOp("CreateTaskPushNotificationConfig")
}
func (unsupported) DeleteTaskPushConfig(context.Context, *a2a.DeleteTaskPushConfigRequest) error {
	return errUnsupportedOp("DeleteTaskPushNotificationConfig")
}
func (unsupported) GetExtendedAgentCard(context.Context, *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	return nil, errUnsupportedOp("GetExtendedAgentCard")
}
