// Package httpstest is the HTTPS binding's conformance target: how the shared scenario harness issues queries
// and submits responses over this binding, checking the binding's wire form from its own table as it goes. The
// binding's conformance_test.go runs the whole corpus through it, and the conformance suite's table across bindings
// runs it beside the others.
package httpstest

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/internal/servertest"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Carries lists the scenario requirements (conformance.Requires*) this binding's transport can carry.
var Carries = []string{conformance.RequiresRawBody}

// Target reaches the scenario's collector over a loopback server composed as `aqp serve` composes it (the service
// surface with the HTTPS binding): queries through the admin API, responses to the binding's endpoint.
func Target(env *harness.Env) (harness.Target, error) {
	return servertest.Target(env, https.Binding{}, func(baseURL string, hc *http.Client) servertest.Submitter {
		return Remote(baseURL, hc)
	})
}

// Submitter submits responses over this binding to a collector at a base URL — the local scenario target's or any
// running collector's (`aqp conformance collector`) — checking the wire form against the binding's table.
type Submitter struct {
	base string
	hc   *http.Client
}

// Remote submits to the collector whose base URL is baseURL (the binding's pinned path is appended) with hc.
func Remote(baseURL string, hc *http.Client) *Submitter {
	return &Submitter{base: strings.TrimSuffix(baseURL, "/"), hc: hc}
}

// Submit delivers with the binding's own client and checks the wire form against the binding's table.
func (t *Submitter) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	client := &https.Client{HTTP: t.hc}
	reply, err := client.Post(ctx, t.base+spec.HTTPSPath, auth, body)
	if err != nil {
		return harness.Result{}, err
	}
	if reply.Problem != nil {
		if reply.Status != https.ProblemStatus {
			return harness.Result{}, fmt.Errorf("a problem document with status %d, want %d", reply.Status, https.ProblemStatus)
		}
		return harness.Result{Problem: true}, nil
	}
	code, ok := harness.ReceiptCode(reply.Receipt)
	if !ok {
		return harness.Result{}, fmt.Errorf("status %d with a body that is not a receipt: %s", reply.Status, reply.Receipt)
	}
	if want := https.StatusFor(code); reply.Status != want {
		return harness.Result{}, fmt.Errorf("code %q came with HTTP status %d; the binding's table says %d", code, reply.Status, want)
	}
	switch reply.Status {
	case http.StatusUnauthorized:
		if !strings.HasPrefix(reply.Header.Get("WWW-Authenticate"), "Bearer") {
			return harness.Result{}, fmt.Errorf("401 without WWW-Authenticate: Bearer")
		}
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		doc := core.Parse(core.KindReceipt, reply.Receipt)
		ra := fmt.Sprint(doc.Object()["retryAfter"])
		if got := reply.Header.Get("Retry-After"); got == "" || got != ra {
			return harness.Result{}, fmt.Errorf("Retry-After %q, want the receipt's retryAfter %s", got, ra)
		}
		if _, err := strconv.Atoi(ra); err != nil {
			return harness.Result{}, fmt.Errorf("retryAfter %s is not an integer", ra)
		}
	}
	return harness.Result{Receipt: reply.Receipt}, nil
}
