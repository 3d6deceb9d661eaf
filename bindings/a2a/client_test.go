package a2a_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

func delivery(q issued) respondent.Delivery {
	return respondent.Delivery{Binding: q.Delivery.Binding, Endpoint: q.Delivery.Endpoint, Operation: q.Delivery.Operation,
		Authorization: q.Delivery.Authorization}
}

// interfaces are the four interfaces a Client can be pinned to.
var interfaces = []struct {
	name      string
	version   string
	transport a2a.TransportProtocol
}{
	{trJSONRPC, a2ab.Version, a2a.TransportProtocolJSONRPC},
	{trHTTPJSON, a2ab.Version, a2a.TransportProtocolHTTPJSON},
	{trGRPC, a2ab.Version, a2a.TransportProtocolGRPC},
	{trLegacy, a2ab.LegacyVersion, a2a.TransportProtocolJSONRPC},
}

// recorder is an http.RoundTripper that notes each request's method, path, A2A-Version and JSON-RPC method.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	seen []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	note := req.Method + " " + req.URL.Path + " v=" + req.Header.Get(a2ab.VersionHeader)
	if req.Body != nil && req.Method == http.MethodPost {
		b, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(b))
		if i := bytes.Index(b, []byte(`"method":"`)); i >= 0 {
			m := b[i+len(`"method":"`):]
			note += " method=" + string(m[:bytes.IndexByte(m, '"')])
		}
	}
	r.mu.Lock()
	r.seen = append(r.seen, note)
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

func (r *recorder) sends() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.seen {
		if strings.HasPrefix(s, "POST ") {
			out = append(out, s)
		}
	}
	return out
}

// TestClientDelivers: pinned to each of the four interfaces, the Client's receipt is byte for byte the one the
// HTTPS binding gives for the same response and the one stored (2^53 + 1 and 30 digits survive); a wrong
// capability's rejected receipt is a receipt, not an error.
func TestClientDelivers(t *testing.T) {
	e := newService(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, in := range interfaces {
		t.Run(in.name, func(t *testing.T) {
			client := &a2ab.Client{HTTP: e.ts.Client(), Version: in.version, Transport: in.transport}
			for _, answer := range []string{"9007199254740993", thirtyDigits} {
				q := issueDraft(t, e.c, numberDraft)
				body := responseWith(q.QueryID, rid, answer)
				wrong := delivery(q)
				wrong.Authorization = "Bearer not-the-capability"
				rej, err := client.Deliver(ctx, wrong, body)
				if code, _ := receiptCode(rej); err != nil || code != core.CodeUnauthorized {
					t.Fatalf("wrong capability: %v %s", err, rej)
				}
				rec, err := client.Deliver(ctx, delivery(q), body)
				if err != nil {
					t.Fatal(err)
				}
				st, _ := e.c.Lookup(ctx, q.QueryID)
				if st.Acceptance == nil || !bytes.Equal(st.Acceptance.Receipt, rec) || !bytes.Contains(st.Acceptance.Response, []byte(`"answer":`+answer)) {
					t.Fatalf("the client's receipt is not the stored one, or the answer changed:\n got %s\nwant %+v", rec, st.Acceptance)
				}
				if h := e.overHTTPS(t, q.Delivery.Authorization, body); !bytes.Equal(h, rec) {
					t.Fatalf("HTTPS gave a different receipt:\nhttps %s\n  a2a %s", h, rec)
				}
			}
		})
	}
}

// TestClientPicksNewest: with nothing pinned the Client reads the card and delivers over A2A 1.0 (JSON-RPC, the
// card's first 1.0 interface).
func TestClientPicksNewest(t *testing.T) {
	e := newService(t)
	rec := &recorder{next: http.DefaultTransport}
	q := issueDraft(t, e.c, numberDraft)
	receipt, err := (&a2ab.Client{HTTP: &http.Client{Transport: rec}}).Deliver(context.Background(), delivery(q), responseWith(q.QueryID, rid, "1"))
	if err != nil || !bytes.Contains(receipt, []byte(`"status":"accepted"`)) {
		t.Fatalf("%v %s", err, receipt)
	}
	if s := rec.sends(); len(s) != 1 || s[0] != "POST /a2a v=1.0 method="+a2ab.SendMethod {
		t.Fatalf("sent %q, want one 1.0 SendMessage", s)
	}
}

// TestClientRefusesAnotherHost: a card whose interfaces are on another host than the delivery endpoint's is not
// followed: the error says why, and nothing is sent.
func TestClientRefusesAnotherHost(t *testing.T) {
	var posts atomic.Int64
	card := a2ab.CardHandler("http://collector.invalid:8080")
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == spec.A2AAgentCardPath {
			card.ServeHTTP(w, r)
			return
		}
		posts.Add(1)
		http.Error(w, "no", http.StatusTeapot)
	}))
	defer ts.Close()
	d := respondent.Delivery{Binding: a2ab.Name, Endpoint: ts.URL + "/a2a", Operation: a2ab.SendMethod, Authorization: "Bearer x"}
	_, err := (&a2ab.Client{}).Deliver(context.Background(), d, responseWith("0198c7cb-1af1-7e79-bd7f-02f8a89b8857", rid, "1"))
	var te *respondent.TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "not the delivery endpoint's host") ||
		!strings.Contains(err.Error(), "collector.invalid") {
		t.Fatalf("%v, want a TransportError naming the other host and the rule", err)
	}
	if posts.Load() != 0 {
		t.Fatalf("%d requests went past the card", posts.Load())
	}
}

// TestClientWithoutCard: a collector without an agent card is reached over JSON-RPC at the endpoint, in the
// generation delivery.operation names.
func TestClientWithoutCard(t *testing.T) {
	e := newService(t)
	mux := http.NewServeMux()
	mux.Handle("/a2a", a2ab.NewServer(e.c))
	bare := httptest.NewServer(mux)
	defer bare.Close()
	for _, tc := range []struct{ operation, want string }{
		{a2ab.SendMethod, "POST /a2a v=1.0 method=SendMessage"},
		{a2ab.LegacySendMethod, "POST /a2a v=0.3 method=message/send"},
	} {
		rec := &recorder{next: http.DefaultTransport}
		q := issueDraft(t, e.c, numberDraft)
		d := delivery(q)
		d.Endpoint, d.Operation = bare.URL+"/a2a", tc.operation
		receipt, err := (&a2ab.Client{HTTP: &http.Client{Transport: rec}}).Deliver(context.Background(), d, responseWith(q.QueryID, rid, "1"))
		if err != nil || !bytes.Contains(receipt, []byte(`"status":"accepted"`)) {
			t.Fatalf("%s: %v %s", tc.operation, err, receipt)
		}
		if s := rec.sends(); len(s) != 1 || !strings.HasPrefix(s[0], tc.want) {
			t.Fatalf("%s: sent %q, want %q", tc.operation, s, tc.want)
		}
	}
}

// TestClientProblems: on every interface a response without readable ids is the collector's problem (a
// ProblemError saying no receipt can be formed), and bodies that cannot be a part's object are problems before
// anything is sent.
func TestClientProblems(t *testing.T) {
	e := newService(t)
	q := issueDraft(t, e.c, numberDraft)
	for _, in := range interfaces {
		client := &a2ab.Client{HTTP: e.ts.Client(), Version: in.version, Transport: in.transport}
		var pe *respondent.ProblemError
		if _, err := client.Deliver(context.Background(), delivery(q), []byte(`{"hello":1}`)); !errors.As(err, &pe) || !strings.Contains(pe.Detail, "no receipt can be formed") {
			t.Errorf("%s no ids: %v, want a ProblemError", in.name, err)
		}
		for _, body := range []string{`[1,2]`, `{"a":1,"a":2}`, `{"a":1} {}`} {
			if _, err := client.Deliver(context.Background(), delivery(q), []byte(body)); !errors.As(err, &pe) || !strings.Contains(pe.Detail, "JSON object") {
				t.Errorf("%s %s: %v, want a ProblemError saying an object is needed", in.name, body, err)
			}
		}
	}
}

// TestClientHostileCollector: a collector whose reply never ends (it would be 1 GiB) gets a TransportError
// quickly, the client having read no more than MaxRequest of it; a hung collector, a TransportError at the
// deadline.
func TestClientHostileCollector(t *testing.T) {
	var written atomic.Int64
	var ts *httptest.Server
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == spec.A2AAgentCardPath {
			a2ab.CardHandler(ts.URL).ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		n, _ := w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"message":{"parts":[{"data":"`))
		written.Add(int64(n))
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for written.Load() < 1<<30 {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	defer ts.Close()
	for _, tr := range []a2a.TransportProtocol{a2a.TransportProtocolJSONRPC, a2a.TransportProtocolHTTPJSON} {
		written.Store(0)
		d := respondent.Delivery{Binding: a2ab.Name, Endpoint: ts.URL + "/a2a", Operation: a2ab.SendMethod, Authorization: "Bearer x"}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		start := time.Now()
		_, err := (&a2ab.Client{Transport: tr}).Deliver(ctx, d, responseWith("0198c7cb-1af1-7e79-bd7f-02f8a89b8857", rid, "1"))
		cancel()
		var te *respondent.TransportError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "larger than") {
			t.Errorf("%s: %v, want a TransportError saying the reply is too large", tr, err)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: took %v", tr, el)
		}
		time.Sleep(50 * time.Millisecond) // the handler sees the closed connection
		// What the collector got written is what the client read (at most MaxRequest + 1) plus what the kernel's
		// socket buffers held: far from the 1 GiB it meant to send.
		if w := written.Load(); w > 32<<20 {
			t.Errorf("%s: the collector wrote %d bytes before the client stopped reading (MaxRequest %d)", tr, w, a2ab.MaxRequest)
		}
		if written.Load() >= 1<<30 {
			t.Errorf("%s: the whole GiB was read", tr)
		}
	}

	stop := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer slow.Close()
	defer close(stop)
	d := respondent.Delivery{Binding: a2ab.Name, Endpoint: slow.URL + "/a2a", Operation: a2ab.SendMethod}
	short, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	var te *respondent.TransportError
	if _, err := (&a2ab.Client{}).Deliver(short, d, responseWith("0198c7cb-1af1-7e79-bd7f-02f8a89b8857", rid, "1")); !errors.As(err, &te) || time.Since(start) > 5*time.Second {
		t.Errorf("a hung collector: %v after %v, want a TransportError at the deadline", err, time.Since(start))
	}
}

// TestA2AGoV2ClientOverGRPC: a2a-go/v2's own client — the card resolved by agentcard.Resolver, the gRPC transport
// only, the AQP extension activated by service parameters — sends the response as a raw part and gets an accepted
// receipt, a raw part whose bytes are the HTTPS receipt.
func TestA2AGoV2ClientOverGRPC(t *testing.T) {
	e := newService(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	card, err := agentcard.NewResolver(http.DefaultClient).Resolve(ctx, e.ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	client, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(),
		a2agrpc.WithGRPCTransport(grpc.WithTransportCredentials(insecure.NewCredentials())))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = client.Destroy() }()
	q := issueDraft(t, e.c, numberDraft)
	body := responseWith(q.QueryID, rid, thirtyDigits)
	part := &a2a.Part{Content: a2a.Raw(body), MediaType: a2ab.MediaTypeJSON, Metadata: map[string]any{a2ab.ObjectKey: a2ab.ObjectResponse}}
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("my answer"), part)
	callCtx := a2aclient.AttachServiceParams(ctx, a2aclient.ServiceParams{
		"authorization": {q.Delivery.Authorization}, strings.ToLower(a2ab.ExtensionsHeader): {spec.A2AExtension}})
	res, err := client.SendMessage(callCtx, &a2a.SendMessageRequest{Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	reply, ok := res.(*a2a.Message)
	if !ok || reply.Role != a2a.MessageRoleAgent || len(reply.Parts) != 1 || reply.Parts[0].Metadata[a2ab.ObjectKey] != a2ab.ObjectReceipt {
		t.Fatalf("reply: %#v", res)
	}
	raw, ok := reply.Parts[0].Content.(a2a.Raw)
	if !ok || reply.Parts[0].MediaType != a2ab.MediaTypeJSON || !bytes.Contains(raw, []byte(`"status":"accepted"`)) {
		t.Fatalf("the receipt part: %#v", reply.Parts[0])
	}
	if h := e.overHTTPS(t, q.Delivery.Authorization, body); !bytes.Equal(h, raw) {
		t.Fatalf("receipts differ:\nhttps %s\n grpc %s", h, raw)
	}
	// Without the extension a2a-go/v2's client gets A2A's ExtensionSupportRequired.
	_, err = client.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
	if !errors.Is(err, a2a.ErrExtensionSupportRequired) {
		t.Fatalf("without the extension: %v, want ErrExtensionSupportRequired", err)
	}
}

// TestClientNotACard: a document at the card's path that names no interface (a JSON-RPC handler answering every
// path) is no card: a collector's is refused saying so, and an agent's (SendText) means the agent has none, so it
// is spoken to over 1.0 JSON-RPC at its URL.
func TestClientNotACard(t *testing.T) {
	notCard := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}`))
	}))
	defer notCard.Close()
	d := respondent.Delivery{Binding: a2ab.Name, Endpoint: notCard.URL + "/a2a", Operation: a2ab.SendMethod, Authorization: "Bearer x"}
	_, err := (&a2ab.Client{}).Deliver(context.Background(), d, responseWith("0198c7cb-1af1-7e79-bd7f-02f8a89b8857", rid, "1"))
	var te *respondent.TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "is not an agent card") {
		t.Fatalf("%v, want a TransportError saying the document is not an agent card", err)
	}
	rec := &recorder{next: http.DefaultTransport}
	_, err = a2ab.SendText(context.Background(), &http.Client{Transport: rec}, notCard.URL, "hi")
	if s := rec.sends(); len(s) != 1 || (s[0] != "POST / v=1.0 method=SendMessage" && s[0] != "POST  v=1.0 method=SendMessage") {
		t.Fatalf("SendText sent %q (%v), want one 1.0 SendMessage at the agent's URL", s, err)
	}
}

// bigReplier is a hostile gRPC collector: its SendMessage replies with a raw part twice MaxRequest long.
type bigReplier struct {
	a2apb.UnimplementedA2AServiceServer
}

func (bigReplier) SendMessage(context.Context, *a2apb.SendMessageRequest) (*a2apb.SendMessageResponse, error) {
	return &a2apb.SendMessageResponse{Payload: &a2apb.SendMessageResponse_Message{Message: &a2apb.Message{MessageId: "m", Role: a2apb.Role_ROLE_AGENT,
		Parts: []*a2apb.Part{{Content: &a2apb.Part_Raw{Raw: make([]byte, 2*a2ab.MaxRequest)}}}}}}, nil
}

// TestClientHostileGRPCCollector: over gRPC a reply larger than MaxRequest is refused by the client's receive
// bound, a TransportError, not read.
func TestClientHostileGRPCCollector(t *testing.T) {
	gs := grpc.NewServer()
	a2apb.RegisterA2AServiceServer(gs, bigReplier{})
	var ts *httptest.Server
	ts = startH2C(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == spec.A2AAgentCardPath {
			a2ab.CardHandler(ts.URL).ServeHTTP(w, r)
			return
		}
		gs.ServeHTTP(w, r)
	}))
	defer ts.Close()
	d := respondent.Delivery{Binding: a2ab.Name, Endpoint: ts.URL + "/a2a", Operation: a2ab.SendMethod, Authorization: "Bearer x"}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := (&a2ab.Client{Transport: a2a.TransportProtocolGRPC}).Deliver(ctx, d, responseWith("0198c7cb-1af1-7e79-bd7f-02f8a89b8857", rid, "1"))
	var te *respondent.TransportError
	if !errors.As(err, &te) || !strings.Contains(strings.ToLower(err.Error()), "larger than max") {
		t.Fatalf("%v, want a TransportError from the receive bound", err)
	}
}
