package service_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/service"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// A collector served over HTTPS, composed as `aqp serve` composes it: the service builds the collector, learns
// from the bindings what it serves, and discovery lists exactly that.
func ExampleNew() {
	svc, err := service.New(service.Config{
		Collector:  collector.Config{Store: memory.New(), PublicURL: "https://collector.example"},
		Bindings:   []service.Binding{https.Binding{}},
		AdminToken: "example-admin-token",
	})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(svc.Handler())
	defer ts.Close()

	resp, err := http.Get(ts.URL + "/.well-known/aqp")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, strings.Contains(string(body), `"endpoint":"https://collector.example/aqp/v1/responses"`))

	// A draft for a binding the service does not serve is refused, naming it.
	draft := `{"binding":"mcp","type":"feedback","subject":{"kind":"task","id":"t1"},"prompt":"Was it right?",
"timing":"immediate","consentMode":"not_required","response":{"format":"boolean"}}`
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/admin/v1/queries", strings.NewReader(draft))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer example-admin-token")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	// Output:
	// 200 true
	// 400
}
