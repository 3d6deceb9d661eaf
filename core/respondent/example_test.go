package respondent_test

import (
	"errors"
	"fmt"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/respondent"
)

// DeliveryOf reads a query's delivery with its optional members resolved: an HTTPS query names no operation, and
// a query naming a binding outside the spec, or no endpoint, is an error naming the member, not a nil pointer.
func ExampleDeliveryOf() {
	req, errs := core.ParseRequest([]byte(`{"protocolVersion": "2026-07-30", "queryId": "0198c7cb-1af1-7e79-bd7f-02f8a89b8857",
	  "type": "feedback", "subject": {"kind": "task", "id": "t1"}, "prompt": "Was it right?", "consentMode": "not_required",
	  "timing": "immediate", "response": {"format": "boolean"}, "expiresAt": "2099-07-30T19:00:00Z",
	  "delivery": {"binding": "https", "endpoint": "https://queries.example/aqp/v1/responses", "authorization": "Bearer cap"}}`))
	if errs != nil {
		panic(errs.Err())
	}
	d, err := respondent.DeliveryOf(req)
	fmt.Printf("%s %s %q %q %v\n", d.Binding, d.Endpoint, d.Operation, d.Authorization, err)

	req.Delivery.Binding = "other"
	_, err = respondent.DeliveryOf(req)
	var ue *respondent.UndeliverableError
	fmt.Println(errors.As(err, &ue), ue.Pointer)

	req.Delivery.Binding, req.Delivery.Endpoint = "mcp", nil
	_, err = respondent.DeliveryOf(req)
	fmt.Println(err)
	// Output:
	// https https://queries.example/aqp/v1/responses "" "Bearer cap" <nil>
	// true /delivery/binding
	// query 0198c7cb-1af1-7e79-bd7f-02f8a89b8857 cannot be answered: /delivery/endpoint: the endpoint is absent: nowhere to deliver
}

// The destination policy refuses, before any connection, an endpoint a respondent must not deliver to, and names
// the rule; the zero Policy delivers over https only.
func ExamplePolicy_CheckURL() {
	strict := &respondent.Policy{}
	local := &respondent.Policy{AllowHTTPLoopback: true}
	for _, u := range []string{"https://queries.example/aqp/v1/responses", "http://127.0.0.1:8080/aqp/v1/responses", "http://queries.example/r"} {
		var pe *respondent.PolicyError
		se, le := strict.CheckURL(u), local.CheckURL(u)
		errors.As(se, &pe)
		var rule respondent.Rule
		if pe != nil {
			rule = pe.Rule
		}
		fmt.Printf("%s: strict %v (%s), loopback allowed %v\n", u, se == nil, rule, le == nil)
	}
	// Output:
	// https://queries.example/aqp/v1/responses: strict true (), loopback allowed true
	// http://127.0.0.1:8080/aqp/v1/responses: strict false (http-loopback), loopback allowed true
	// http://queries.example/r: strict false (http-loopback), loopback allowed false
}
