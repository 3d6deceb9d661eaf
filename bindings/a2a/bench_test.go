package a2a_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/structpb"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/bindings/loadwire"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/internal/workload"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// header10 are the service parameters of an A2A 1.0 request.
var header10 = http.Header{a2ab.VersionHeader: {a2ab.Version}, a2ab.ExtensionsHeader: {spec.A2AExtension}}

// replyAccepted: a 200 carrying an accepted receipt.
func replyAccepted(status int, reply []byte) bool {
	return status == http.StatusOK && bytes.Contains(reply, []byte(`accepted`))
}

// startH2C starts h on a loopback server speaking HTTP/1.1 and unencrypted HTTP/2, as `aqp serve` does.
func startH2C(h http.Handler) *httptest.Server {
	ts := httptest.NewUnstartedServer(h)
	ts.Config.Protocols = new(http.Protocols)
	ts.Config.Protocols.SetHTTP1(true)
	ts.Config.Protocols.SetUnencryptedHTTP2(true)
	ts.Start()
	return ts
}

// collectorServer serves HTTPS and A2A over a memory store, as `aqp serve` composes them.
func collectorServer(b *testing.B) (*httptest.Server, *collector.Collector) {
	ts := httptest.NewUnstartedServer(nil)
	url := "http://" + ts.Listener.Addr().String()
	svc, err := service.New(service.Config{Collector: collector.Config{Store: memory.New(), PublicURL: url, RateLimit: collector.RateLimit{Disabled: true}},
		Bindings: []service.Binding{https.Binding{}, a2ab.Binding{}}, AdminToken: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	ts.Config.Handler = svc.Handler()
	ts.Config.Protocols = new(http.Protocols)
	ts.Config.Protocols.SetHTTP1(true)
	ts.Config.Protocols.SetUnencryptedHTTP2(true)
	ts.Start()
	return ts, svc.Collector()
}

var a2aDraft = bytes.Replace([]byte(workload.Draft), []byte(`{`), []byte(`{"binding":"a2a",`), 1)

// BenchmarkSubmission measures one accepted submission per iteration — a fresh query each, memory store, loopback,
// 16×GOMAXPROCS goroutines — over each of the binding's transports, each beside its baseline: a bare a2a-go/v2
// agent of the same SDK version (a2asrv.NewHandler over an executor that yields a fixed reply Message) served by
// the SDK's own handler for that transport, sent the same requests. For gRPC there are two baselines: the SDK's
// handler on grpc-go's own server and listener, and the same grpc.Server answering through net/http's unencrypted
// HTTP/2, which is how the binding serves gRPC (on the collector's one listener). Compare ratios within one run, not
// absolute times.
func BenchmarkSubmission(b *testing.B) {
	handler := a2asrv.NewHandler(loadwire.FixedAgent())
	http1 := func(ts *httptest.Server) *http.Client { return ts.Client() }

	b.Run("jsonrpc-1.0/baseline=bare-a2a-go", func(b *testing.B) {
		ts := httptest.NewServer(a2asrv.NewJSONRPCHandler(handler))
		defer ts.Close()
		workload.RunHTTP(b, http1(ts), workload.BaselineJobs(ts.URL, b.N, loadwire.SendMessage10), header10, replyAccepted)
	})
	b.Run("jsonrpc-1.0/aqp", func(b *testing.B) {
		ts, c := collectorServer(b)
		defer ts.Close()
		workload.RunHTTP(b, http1(ts), workload.IssueJobs(b, c, a2aDraft, b.N, loadwire.SendMessage10), header10, replyAccepted)
	})

	b.Run("http-json-1.0/baseline=bare-a2a-go", func(b *testing.B) {
		ts := httptest.NewServer(a2asrv.NewRESTHandler(handler))
		defer ts.Close()
		workload.RunHTTP(b, http1(ts), workload.BaselineJobs(ts.URL+a2ab.RESTSendPath, b.N, loadwire.SendParams10), header10, replyAccepted)
	})
	b.Run("http-json-1.0/aqp", func(b *testing.B) {
		ts, c := collectorServer(b)
		defer ts.Close()
		jobs := workload.IssueJobs(b, c, a2aDraft, b.N, loadwire.SendParams10)
		for i := range jobs {
			jobs[i].URL += a2ab.RESTSendPath
		}
		workload.RunHTTP(b, http1(ts), jobs, header10, replyAccepted)
	})

	b.Run("grpc-1.0/baseline=bare-a2a-go", func(b *testing.B) {
		gs := grpc.NewServer()
		a2agrpc.NewHandler(handler).RegisterWith(gs)
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		go func() { _ = gs.Serve(lis) }()
		defer gs.Stop()
		runGRPC(b, lis.Addr().String(), workload.BaselineJobs("", b.N, nil))
	})
	b.Run("grpc-1.0/baseline=bare-a2a-go-over-net-http", func(b *testing.B) {
		gs := grpc.NewServer()
		a2agrpc.NewHandler(handler).RegisterWith(gs)
		ts := startH2C(gs)
		defer ts.Close()
		runGRPC(b, a2ab.GRPCTarget(ts.URL), workload.BaselineJobs("", b.N, nil))
	})
	b.Run("grpc-1.0/aqp", func(b *testing.B) {
		ts, c := collectorServer(b)
		defer ts.Close()
		runGRPC(b, a2ab.GRPCTarget(ts.URL), workload.IssueJobs(b, c, a2aDraft, b.N, nil))
	})

	b.Run("jsonrpc-0.3/baseline=bare-a2a-go", func(b *testing.B) {
		ts := httptest.NewServer(a2av0.NewJSONRPCHandler(handler))
		defer ts.Close()
		workload.RunHTTP(b, http1(ts), workload.BaselineJobs(ts.URL, b.N, loadwire.MessageSend03), nil, replyAccepted)
	})
	b.Run("jsonrpc-0.3/aqp", func(b *testing.B) {
		ts, c := collectorServer(b)
		defer ts.Close()
		workload.RunHTTP(b, http1(ts), workload.IssueJobs(b, c, a2aDraft, b.N, loadwire.MessageSend03), nil, replyAccepted)
	})
}

// runGRPC sends each job's response as SendMessage over gRPC to target (one connection, HTTP/2 multiplexed), as a
// raw part holding its bytes, and fails the benchmark unless the reply carries an accepted receipt.
func runGRPC(b *testing.B, target string, jobs []workload.Job) {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	client := a2apb.NewA2AServiceClient(conn)
	meta, _ := structpb.NewStruct(map[string]any{a2ab.ObjectKey: a2ab.ObjectResponse})
	workload.RunParallel(b, jobs, func(j workload.Job) {
		req := &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: uuid.NewString(), Role: a2apb.Role_ROLE_USER,
			Extensions: []string{spec.A2AExtension},
			Parts:      []*a2apb.Part{{Content: &a2apb.Part_Raw{Raw: j.Body}, MediaType: a2ab.MediaTypeJSON, Metadata: meta}}}}
		ctx := metadata.NewOutgoingContext(context.Background(), metadata.Pairs(strings.ToLower(a2ab.VersionHeader), a2ab.Version,
			strings.ToLower(a2ab.ExtensionsHeader), spec.A2AExtension, "authorization", j.Authorization))
		resp, err := client.SendMessage(ctx, req)
		if err != nil {
			b.Error(err)
			return
		}
		parts := resp.GetMessage().GetParts()
		if len(parts) != 1 {
			b.Errorf("reply: %v", resp)
			return
		}
		var receipt []byte
		switch c := parts[0].GetContent().(type) {
		case *a2apb.Part_Raw:
			receipt = c.Raw
		case *a2apb.Part_Data:
			receipt, _ = c.Data.MarshalJSON()
		}
		if !bytes.Contains(receipt, []byte("accepted")) {
			b.Errorf("not accepted: %s", receipt)
		}
	})
}
