// The HTTPS binding's conformance target: how the shared scenario harness issues queries
// and submits responses over this binding, checking the binding's wire form from its own table as it goes. The
// binding's conformance_test.go runs the whole corpus through it, and the conformance suite's table across bindings
// runs it beside the others.

package targets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// HTTPSRequirements are the requirements.json ids this package's wire checks enforce on every submission: the receipt
// as the body for every status, the status and headers of the binding's table, the problem document's status, and
// the body a valid QueryReceipt (the canonical object, not a binding's variant of it). A
// failed check is a *harness.RuleError naming the one it breaks; the corpus passing over this binding
// (conformance/bindings_test.go) is their passing proof.
var HTTPSRequirements = []string{ReqHTTPS, ReqHTTPSProblem, ReqHTTPSStatus, ReqSameObjects, ReqChallenge}

// The requirements the checks name.
const (
	ReqHTTPS        = "AQP-BIND-HTTPS"
	ReqHTTPSStatus  = "AQP-BIND-HTTPS-STATUS"
	ReqHTTPSProblem = "AQP-BIND-HTTPS-PROBLEM"
	// ReqChallenge is named when a 401's challenge breaks RFC 6750 §3.1: an error code without a bearer token, or
	// none with a wrong one (D42).
	ReqChallenge = "AQP-D42"
	// ReqSameObjects is named when the body is receipt-shaped but not a valid QueryReceipt.
	ReqSameObjects = "AQP-BIND-SAME-OBJECTS"
)

// HTTPSCarries lists the scenario requirements (conformance.Requires*) this binding's transport can carry.
var HTTPSCarries = []string{conformance.RequiresRawBody}

// HTTPSColumns are the HTTPS binding's columns of the one table: one, "https" (HTTP has no protocol generations to tell
// apart here).
var HTTPSColumns = []harness.Column{{Name: spec.BindingHTTPS, Binding: spec.BindingHTTPS, Carries: HTTPSCarries,
	Requirements: HTTPSRequirements, Target: HTTPSTarget, Surfaces: HTTPSSurfaces,
	Remote: func(baseURL string, hc *http.Client) harness.ColumnClient { return HTTPSRemote(baseURL, hc) }}}

// HTTPSTarget reaches the scenario's collector over a loopback server composed as `aqp serve` composes it (the service
// surface with the HTTPS binding): queries through the admin API, responses to the binding's endpoint.
func HTTPSTarget(env *harness.Env) (harness.Target, error) {
	return localTarget(env, https.Binding{}, func(baseURL string, hc *http.Client) harness.ColumnClient {
		return HTTPSRemote(baseURL, hc)
	})
}

// httpsClient submits responses over this binding to a collector at a base URL — the local scenario target's or any
// running collector's (`aqp conformance collector`) — checking the wire form against the binding's table.
type httpsClient struct {
	base string
	hc   *http.Client
}

// HTTPSRemote submits to the collector whose base URL is baseURL (the binding's pinned path is appended) with hc.
func HTTPSRemote(baseURL string, hc *http.Client) *httpsClient {
	return &httpsClient{base: strings.TrimSuffix(baseURL, "/"), hc: hc}
}

// isProblem reports whether a body is an RFC 9457 problem document (type, title and status).
func isProblem(body []byte) bool {
	var p struct {
		Type   *string `json:"type"`
		Title  *string `json:"title"`
		Status *int    `json:"status"`
	}
	return json.Unmarshal(body, &p) == nil && p.Title != nil && p.Status != nil && p.Type != nil
}

// Submit delivers with the binding's own client and checks the wire form against the binding's table; a wire
// form the table does not allow is a *harness.RuleError naming the requirement it breaks.
func (t *httpsClient) Submit(ctx context.Context, body []byte, auth string) (harness.Result, error) {
	client := &https.Client{HTTP: t.hc}
	reply, err := client.Post(ctx, t.base+spec.HTTPSPath, auth, body)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) || ctx.Err() != nil {
			return harness.Result{}, err // nothing came back: not a wire form to judge
		}
		return harness.Result{}, harness.Wire(err.Error(), ReqHTTPS)
	}
	if reply.Problem != nil {
		if reply.Status != https.ProblemStatus {
			return harness.Result{}, harness.Wire(fmt.Sprintf("a problem document with status %d, want %d", reply.Status, https.ProblemStatus), ReqHTTPSProblem)
		}
		return harness.Result{Problem: true}, nil
	}
	code, ok := harness.ReceiptCode(reply.Receipt)
	if !ok {
		if isProblem(reply.Receipt) {
			// The right document under the wrong media type: the problem rule, not the binding's body rule.
			return harness.Result{}, harness.Wire(fmt.Sprintf("a problem document (status %d) sent as Content-Type %q, want application/problem+json", reply.Status, reply.Header.Get("Content-Type")), ReqHTTPSProblem)
		}
		return harness.Result{}, harness.Wire(fmt.Sprintf("status %d with a body that is not a receipt: %s", reply.Status, reply.Receipt), ReqHTTPS)
	}
	if want := https.WireFor(code).Status; reply.Status != want {
		return harness.Result{}, harness.Wire(fmt.Sprintf("code %q came with HTTP status %d; the binding's table says %d", code, reply.Status, want), ReqHTTPSStatus)
	}
	switch reply.Status {
	case http.StatusUnauthorized:
		challenge := reply.Header.Get("WWW-Authenticate")
		if !strings.HasPrefix(challenge, "Bearer") {
			return harness.Result{}, harness.Wire(fmt.Sprintf("401 with WWW-Authenticate %q, want Bearer", challenge), ReqHTTPSStatus)
		}
		// RFC 6750 §3.1 (D42): a request without a bearer token gets no error code; one with a wrong token
		// gets error="invalid_token".
		switch hasError := strings.Contains(challenge, "error="); {
		case !https.HasBearerToken(auth) && hasError:
			return harness.Result{}, harness.Wire(fmt.Sprintf("401 to a request without a bearer token with WWW-Authenticate %q; RFC 6750 §3.1 gives such a request no error code", challenge), ReqChallenge)
		case https.HasBearerToken(auth) && !strings.Contains(challenge, `error="invalid_token"`):
			return harness.Result{}, harness.Wire(fmt.Sprintf("401 to a request with a wrong bearer token with WWW-Authenticate %q, want error=\"invalid_token\" (RFC 6750 §3.1)", challenge), ReqChallenge)
		}
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		doc := core.Parse(core.KindReceipt, reply.Receipt)
		ra := fmt.Sprint(doc.Object()["retryAfter"])
		if got := reply.Header.Get("Retry-After"); got == "" || got != ra {
			return harness.Result{}, harness.Wire(fmt.Sprintf("Retry-After %q, want the receipt's retryAfter %s", got, ra), ReqHTTPSStatus)
		}
		if _, err := strconv.Atoi(ra); err != nil {
			return harness.Result{}, harness.Wire(fmt.Sprintf("retryAfter %s is not an integer", ra), ReqHTTPSStatus)
		}
	}
	if errs := core.Validate(core.KindReceipt, reply.Receipt); len(errs) > 0 {
		return harness.Result{}, harness.Wire(fmt.Sprintf("the body is not a valid QueryReceipt (%v): %s", errs, reply.Receipt), ReqSameObjects)
	}
	return harness.Result{Receipt: reply.Receipt}, nil
}
