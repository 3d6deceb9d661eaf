package a2a

import (
	"context"

	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/grpc/metadata"

	"github.com/agentqueryprotocol/aqp-go/internal/decodegate"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// ValueJSON exposes valueJSON to the package's external tests.
var ValueJSON = valueJSON

// DecodeGate exposes the server's decoding gate to the package's external tests.
func (s *Server) DecodeGate() *decodegate.Gate { return s.gate }

// SendPB runs the gRPC transport's SendMessage handling on req, as a call activating the AQP extension.
func SendPB(s *Server, req *a2apb.SendMessageRequest) (*a2apb.Message, error) {
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs(ExtensionsHeader, spec.A2AExtension))
	return (&grpcService{s: s}).send(ctx, req)
}

// ErrorFormFor exposes the binding's A2A error table to the package's external tests.
var ErrorFormFor = errorFormFor
