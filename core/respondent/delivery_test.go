package respondent

import (
	"errors"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// TestDeliveryOf: every shape of a delivery member — optional members absent, a binding no transport serves, no
// endpoint or an empty one, no query at all — is a Delivery or an *UndeliverableError naming the member; none
// panics.
func TestDeliveryOf(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		name    string
		req     *aqp.QueryRequest
		want    Delivery
		pointer string // "" with want; "-" for the nil query
	}{
		{"https without operation", &aqp.QueryRequest{Delivery: aqp.QueryRequestDelivery{Binding: "https", Endpoint: s("https://c.example/r")}},
			Delivery{Binding: "https", Endpoint: "https://c.example/r"}, ""},
		{"mcp with every member", &aqp.QueryRequest{Delivery: aqp.QueryRequestDelivery{Binding: "mcp", Endpoint: s("https://c.example/mcp"),
			Operation: s("aqp_submit_response"), Authorization: s("Bearer x")}},
			Delivery{Binding: "mcp", Endpoint: "https://c.example/mcp", Operation: "aqp_submit_response", Authorization: "Bearer x"}, ""},
		{"other", &aqp.QueryRequest{Delivery: aqp.QueryRequestDelivery{Binding: "other", Endpoint: s("https://c.example/x")}}, Delivery{}, "/delivery/binding"},
		{"unknown binding", &aqp.QueryRequest{Delivery: aqp.QueryRequestDelivery{Binding: "smtp", Endpoint: s("https://c.example/x")}}, Delivery{}, "/delivery/binding"},
		{"no endpoint", &aqp.QueryRequest{Delivery: aqp.QueryRequestDelivery{Binding: "a2a"}}, Delivery{}, "/delivery/endpoint"},
		{"empty endpoint", &aqp.QueryRequest{Delivery: aqp.QueryRequestDelivery{Binding: "https", Endpoint: s("")}}, Delivery{}, "/delivery/endpoint"},
		{"no query", nil, Delivery{}, "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := DeliveryOf(tc.req)
			var ue *UndeliverableError
			switch {
			case tc.pointer == "" && (err != nil || d != tc.want):
				t.Fatalf("got %+v, %v; want %+v", d, err, tc.want)
			case tc.pointer == "-" && (!errors.As(err, &ue) || ue.Pointer != ""):
				t.Fatalf("got %v; want an *UndeliverableError for no query", err)
			case tc.pointer != "" && tc.pointer != "-" && (!errors.As(err, &ue) || ue.Pointer != tc.pointer || d != (Delivery{})):
				t.Fatalf("got %+v, %v; want an *UndeliverableError at %s", d, err, tc.pointer)
			}
		})
	}
}
