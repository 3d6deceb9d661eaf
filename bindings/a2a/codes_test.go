package a2a

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// TestEveryReceiptCodeHasAWire: the table covers every receipt code, and exactly the two codes §4 makes
// retryable surface as retryable.
func TestEveryReceiptCodeHasAWire(t *testing.T) {
	retryable := map[core.Code]bool{"rate_limited": true, "unavailable": true}
	for _, c := range core.ReceiptCodes() {
		s, ok := wireOf[c]
		if !ok {
			t.Errorf("receipt code %s has no A2A wire form in the binding's table", c)
			continue
		}
		if s.Retryable != retryable[c] {
			t.Errorf("%s: retryable %v, §4 says %v", c, s.Retryable, retryable[c])
		}
	}
	if len(wireOf) != len(core.ReceiptCodes()) {
		t.Errorf("the table has %d entries for %d receipt codes", len(wireOf), len(core.ReceiptCodes()))
	}
	if WireFor("").Retryable || WireFor("no_such_code").Retryable {
		t.Error("accepted, and a code outside the table, must not be retryable")
	}
}

// TestErrorFormsOnEveryTransport writes every entry of the error table over each transport — a JSON-RPC error of
// both generations, an HTTP+JSON google.rpc.Status, a gRPC status — and reads back the code, the status and the
// ErrorInfo reason a2a-go/v2 names the error by.
func TestErrorFormsOnEveryTransport(t *testing.T) {
	if len(errorForms) != 7 {
		t.Fatalf("the table has %d entries", len(errorForms))
	}
	for _, f := range errorForms {
		reason := a2a.ErrorReason(f.Err)
		for _, v10 := range []bool{true, false} {
			var r struct {
				ID    json.RawMessage
				Error struct {
					Code    int
					Message string
					Data    json.RawMessage
				}
			}
			if err := json.Unmarshal(rpcError(json.RawMessage(`"x"`), f.Err, "m", nil, v10), &r); err != nil {
				t.Fatal(err)
			}
			if r.Error.Code != f.JSONRPC || r.Error.Message != "m" || string(r.ID) != `"x"` {
				t.Errorf("%v JSON-RPC (1.0 %v): %+v", f.Err, v10, r)
			}
			if v10 != strings.Contains(string(r.Error.Data), `"reason":"`+reason+`"`) {
				t.Errorf("%v JSON-RPC (1.0 %v): data %s, want an ErrorInfo naming %s only in 1.0", f.Err, v10, r.Error.Data, reason)
			}
		}
		w := httptest.NewRecorder()
		writeRESTError(w, f.Err, "m")
		var s struct {
			Error struct {
				Code    int
				Status  string
				Details []map[string]any
			}
		}
		if err := json.Unmarshal(w.Body.Bytes(), &s); err != nil || w.Code != f.HTTPStatus || s.Error.Code != f.HTTPStatus ||
			s.Error.Status != f.Status || len(s.Error.Details) != 1 || s.Error.Details[0]["reason"] != reason {
			t.Errorf("%v HTTP+JSON: %d %s", f.Err, w.Code, w.Body.Bytes())
		}
		st, _ := status.FromError(grpcError(f.Err, "m", core.Errors{{Code: core.CodeAnswerInvalid, Pointer: "/answer", Message: "bad"}}))
		if st.Code() != f.GRPC || st.Message() != "m" || len(st.Details()) != 2 {
			t.Errorf("%v gRPC: %v %v", f.Err, st.Code(), st.Details())
			continue
		}
		if info, ok := st.Details()[0].(*errdetails.ErrorInfo); !ok || info.Reason != reason || info.Domain != a2a.ProtocolDomain {
			t.Errorf("%v gRPC: detail %v", f.Err, st.Details()[0])
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("errorFormFor of an error outside the table did not panic")
		}
	}()
	errorFormFor(errors.New("not in the table"))
}
