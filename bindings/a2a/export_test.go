package a2a

import "github.com/agentqueryprotocol/aqp-go/internal/decodegate"

// ValueJSON exposes valueJSON to the package's external tests.
var ValueJSON = valueJSON

// DecodeGate exposes the server's decoding gate to the package's external tests.
func (s *Server) DecodeGate() *decodegate.Gate { return s.gate }
