package targets

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/service"
)

// localTarget is the local scenario target every column builds the same way: the scenario's collector composed as
// `aqp serve` composes it (HTTPS first, so a continuation's default binding is the core target's, then the
// column's binding), on a loopback listener; queries issued through the admin API, responses submitted by the
// column's client against the listener's URL. The collector keeps the scenario's PublicURL, so delivery endpoints
// and receipts are the core target's.
func localTarget(env *harness.Env, binding service.Binding, remote func(baseURL string, hc *http.Client) harness.ColumnClient) (harness.Target, error) {
	cfg := env.Config
	cfg.Endpoints = nil
	bindings := []service.Binding{https.Binding{}}
	if binding.Endpoint().Binding != https.Name {
		bindings = append(bindings, binding)
	}
	svc, err := service.New(service.Config{Collector: cfg, Bindings: bindings, AdminToken: localAdminToken})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 10 * time.Second, Protocols: new(http.Protocols)}
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetUnencryptedHTTP2(true) // A2A's gRPC column, on the same listener as `aqp serve`
	go func() { _ = hs.Serve(ln) }()
	tr := &http.Transport{}
	hc := &http.Client{Transport: tr}
	base := "http://" + ln.Addr().String()
	return &local{ColumnClient: remote(base, hc), hs: hs, hc: hc, tr: tr, base: base}, nil
}

// localAdminToken is the admin token of the local targets' collectors.
const localAdminToken = "harness-admin-token"

type local struct {
	harness.ColumnClient
	hs   *http.Server
	hc   *http.Client
	tr   *http.Transport
	base string
}

func (t *local) Issue(ctx context.Context, draft []byte) ([]byte, error) {
	return harness.IssueOverAdminAPI(ctx, t.hc, t.base, localAdminToken, draft)
}

func (t *local) Close() {
	if c, ok := t.ColumnClient.(interface{ Close() }); ok {
		c.Close()
	}
	_ = t.hs.Close()
	t.tr.CloseIdleConnections()
}
