package a2a_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// signalSubmitter reports each submission it is handed on a channel and answers with a problem.
type signalSubmitter chan struct{}

func (s signalSubmitter) WireRejected(string, string) {}

func (s signalSubmitter) Submit(context.Context, collector.Submission) collector.Outcome {
	s <- struct{}{}
	return collector.Outcome{Problem: &collector.Problem{Detail: "test"}}
}

// TestDecodingWaitsAtTheGate: the paths on which a library decodes a request into values per element before the
// binding's handler sees it — every gRPC call (grpc-go's protobuf Structs) and A2A 0.3's parts (encoding/json) —
// wait at the binding's decoding gate, so their number in flight, not the number of connections, bounds the
// process's memory (issue 16 item 1, D34). With every slot held, a request must wait at the gate and never reach
// the collector; on the code before the gate it reached the Submitter at once.
func TestDecodingWaitsAtTheGate(t *testing.T) {
	for _, tr := range []string{trGRPC, trLegacy} {
		t.Run(tr, func(t *testing.T) {
			sub := make(signalSubmitter, 1)
			s := a2ab.NewServer(sub)
			mux := http.NewServeMux()
			mux.Handle("/a2a", s)
			mux.Handle("/"+a2ab.GRPCService+"/", s.GRPC())
			ts := httptest.NewUnstartedServer(mux)
			ts.Config.Protocols = new(http.Protocols)
			ts.Config.Protocols.SetHTTP1(true)
			ts.Config.Protocols.SetUnencryptedHTTP2(true)
			ts.Start()
			defer ts.Close()
			g := s.DecodeGate()
			for i := 0; i < g.Cap(); i++ {
				if !g.Enter(context.Background()) {
					t.Fatal("could not fill the gate")
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				resp := responseWith("0198c7cb-1af1-7e79-bd7f-02f8a89b8857", rid, `"yes"`)
				if tr == trGRPC {
					conn, err := grpc.NewClient(a2ab.GRPCTarget(ts.URL), grpc.WithTransportCredentials(insecure.NewCredentials()))
					if err != nil {
						t.Error(err)
						return
					}
					defer conn.Close()
					cctx := metadata.AppendToOutgoingContext(ctx, "a2a-extensions", spec.A2AExtension)
					_, _ = a2apb.NewA2AServiceClient(conn).SendMessage(cctx, &a2apb.SendMessageRequest{Message: &a2apb.Message{
						MessageId: "m", Role: a2apb.Role_ROLE_USER, Parts: []*a2apb.Part{{Content: &a2apb.Part_Raw{Raw: resp}, MediaType: "application/json", Metadata: responseMeta()}}}})
					return
				}
				body := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"m","role":"user",` +
					`"kind":"message","parts":[{"kind":"data","data":` + string(resp) + `,"metadata":{"aqpObject":"response"}}]}}}`
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/a2a", bytes.NewReader([]byte(body)))
				req.Header.Set("Content-Type", "application/json")
				if r, err := http.DefaultClient.Do(req); err == nil {
					r.Body.Close()
				}
			}()
			for g.Waiting() == 0 {
				select {
				case <-sub:
					t.Fatal("the request reached the collector past a full decoding gate")
				default:
					runtime.Gosched()
				}
			}
			cancel()
			<-done
			for i := 0; i < g.Cap(); i++ {
				g.Leave()
			}
		})
	}
}

// heldSubmitter holds every submission inside Submit until want of them are there at once, or until release
// closes; it then answers each with a problem.
type heldSubmitter struct {
	inside  chan struct{}
	release chan struct{}
}

func (s heldSubmitter) WireRejected(string, string) {}

func (s heldSubmitter) Submit(ctx context.Context, _ collector.Submission) collector.Outcome {
	s.inside <- struct{}{}
	select {
	case <-s.release:
	case <-ctx.Done():
	}
	return collector.Outcome{Problem: &collector.Problem{Detail: "test"}}
}

// TestGRPCLeavesTheGateOnceDecoded: a gRPC call holds a decoding slot only while grpc-go decodes it; once the
// response's bytes are cut from the message, the slot is given back, so more submissions than the gate has slots
// can wait on the collector at once — which is what lets a durable store's group commit batch them. Before, the
// slot was held through the commit, and at most the gate's capacity of gRPC submissions were ever in flight.
func TestGRPCLeavesTheGateOnceDecoded(t *testing.T) {
	sub := heldSubmitter{inside: make(chan struct{}), release: make(chan struct{})}
	s := a2ab.NewServer(sub)
	mux := http.NewServeMux()
	mux.Handle("/"+a2ab.GRPCService+"/", s.GRPC())
	ts := httptest.NewUnstartedServer(mux)
	ts.Config.Protocols = new(http.Protocols)
	ts.Config.Protocols.SetHTTP1(true)
	ts.Config.Protocols.SetUnencryptedHTTP2(true)
	ts.Start()
	defer ts.Close()
	conn, err := grpc.NewClient(a2ab.GRPCTarget(ts.URL), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := a2apb.NewA2AServiceClient(conn)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	want := s.DecodeGate().Cap() + 2
	done := make(chan struct{}, want)
	for i := 0; i < want; i++ {
		go func() {
			defer func() { done <- struct{}{} }()
			resp := responseWith("0198c7cb-1af1-7e79-bd7f-02f8a89b8857", rid, `"yes"`)
			cctx := metadata.AppendToOutgoingContext(ctx, "a2a-extensions", spec.A2AExtension)
			_, _ = client.SendMessage(cctx, &a2apb.SendMessageRequest{Message: &a2apb.Message{
				MessageId: "m", Role: a2apb.Role_ROLE_USER, Parts: []*a2apb.Part{{Content: &a2apb.Part_Raw{Raw: resp}, MediaType: "application/json", Metadata: responseMeta()}}}})
		}()
	}
	for n := 0; n < want; n++ {
		select {
		case <-sub.inside:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d gRPC submissions reached the collector at once; the gate has %d slots, held past decoding", n, want, s.DecodeGate().Cap())
		}
	}
	if w := s.DecodeGate().Waiting(); w != 0 {
		t.Errorf("%d callers still wait at the gate with every submission past decoding", w)
	}
	close(sub.release)
	for i := 0; i < want; i++ {
		<-done
	}
}
