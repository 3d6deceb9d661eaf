package a2a_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/structpb"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
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
	for _, c := range targets.A2AColumns {
		if c.Name == targets.A2AColumnGRPC {
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

// TestGRPCDataPartNumbers: a gRPC data part's numbers are written as JSON the way they are read — integers without an
// exponent, others in shortest form — and one a double may have rounded (more than 15 significant digits) is
// refused naming its member and D33.
func TestGRPCDataPartNumbers(t *testing.T) {
	for _, tc := range []struct {
		in      any
		want    string
		refused bool
	}{
		{123456789012345.0, "123456789012345", false},
		{1e20, "100000000000000000000", false},
		{0.92, "0.92", false},
		{-3.0, "-3", false},
		{1e300, "1e+300", false},
		{1234567890123456.0, "", true},
		{math.Nextafter(0.3, 1), "", true}, // 0.30000000000000004
		{9007199254740993.0, "", true},
	} {
		v, err := structpb.NewValue(map[string]any{"n": tc.in})
		if err != nil {
			t.Fatal(err)
		}
		got, err := a2ab.ValueJSON(v)
		switch {
		case tc.refused && (err == nil || !strings.Contains(err.Error(), "D33") || !strings.Contains(err.Error(), "/n")):
			t.Errorf("%v: got %s, %v; want a refusal naming /n and D33", tc.in, got, err)
		case !tc.refused && (err != nil || string(got) != `{"n":`+tc.want+`}`):
			t.Errorf("%v: got %s, %v; want {\"n\":%s}", tc.in, got, err, tc.want)
		}
	}
}
