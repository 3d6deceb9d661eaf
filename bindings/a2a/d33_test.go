package a2a_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentqueryprotocol/aqp-go/bindings/a2a/a2atest"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
)

// dataPartReceipts is a broken A2A gRPC agent: it answers every SendMessage with the receipt as a data part (a
// protobuf Value, which keeps neither member order nor every digit) instead of a raw part.
type dataPartReceipts struct {
	a2apb.UnimplementedA2AServiceServer
}

func (dataPartReceipts) SendMessage(context.Context, *a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error) {
	receipt, _ := structpb.NewValue(map[string]any{"protocolVersion": "2026-07-30", "queryId": "0198c7cb-1af1-7e79-bd7f-02f8a89b8857",
		"responseId": "0198c7d0-2180-7729-b005-d33c99fc7452", "status": "accepted", "retryable": false, "receivedAt": "2026-07-30T17:05:13.000Z"})
	meta, _ := structpb.NewStruct(map[string]any{"aqpObject": "receipt"})
	return &a2apb.SendMessageResponse{Payload: &a2apb.SendMessageResponse_Message{Message: &a2apb.Message{
		MessageId: "r-1", Role: a2apb.Role_ROLE_AGENT,
		Parts: []*a2apb.Part{{Content: &a2apb.Part_Data{Data: receipt}, MediaType: "application/json", Metadata: meta}}}}}, nil
}

// TestGRPCColumnRefusesADataPartReceipt is AQP-D33's failing proof: the gRPC column's submitter, against an agent
// replying with the receipt as a data part, fails with a RuleError naming AQP-D33.
func TestGRPCColumnRefusesADataPartReceipt(t *testing.T) {
	gs := grpc.NewServer()
	a2apb.RegisterA2AServiceServer(gs, dataPartReceipts{})
	ts := httptest.NewUnstartedServer(gs)
	ts.Config.Protocols = new(http.Protocols)
	ts.Config.Protocols.SetUnencryptedHTTP2(true)
	ts.Start()
	defer ts.Close()
	var grpcColumn harness.Column
	for _, c := range a2atest.Columns {
		if c.Name == a2atest.ColumnGRPC {
			grpcColumn = c
		}
	}
	sub := grpcColumn.Remote(ts.URL, ts.Client())
	_, err := sub.Submit(context.Background(), []byte(`{"protocolVersion":"2026-07-30"}`), "Bearer x")
	var re *harness.RuleError
	if !errors.As(err, &re) || !slices.Contains(harness.RuleRequirements(err), "AQP-D33") {
		t.Fatalf("err = %v, want a RuleError naming AQP-D33", err)
	}
}
