package https_test

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core"
)

func TestQueryHeaderRoundTrip(t *testing.T) {
	req, err := os.ReadFile("../../examples/quickstart-request-corrected.json")
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	for range 2 {
		if err := https.Attach(h, req); err != nil {
			t.Fatal(err)
		}
	}
	if v := h.Values("Aqp-Query"); len(v) != 2 || strings.ContainsAny(v[0], "=+/") {
		t.Fatalf("want two base64url headers without padding, got %q", v)
	}
	qs, dropped := https.Queries(h)
	if len(dropped) != 0 || len(qs) != 2 {
		t.Fatalf("%v %d", dropped, len(qs))
	}
	orig, _ := core.DecodeJSON(req)
	if got, _ := core.DecodeJSON(qs[0].JSON); !core.EqualJSON(got, orig) || qs[0].Request.QueryID == "" {
		t.Fatal("the query changed on the way")
	}
	published, _ := os.ReadFile("../../examples/quickstart-request.json")
	if err := https.Attach(h, published); err == nil {
		t.Fatal("attached the Quickstart's invalid request")
	}
	for _, bad := range []string{"not base64!", "e30"} { // e30 is {}: decodes, but is no valid request
		if qs, dropped := https.Queries(http.Header{"Aqp-Query": {bad}}); len(qs) != 0 || len(dropped) != 1 || dropped[0].Rule == "" {
			t.Errorf("%q accepted", bad)
		}
	}
}
