package https

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/internal/httpio"
)

// Client delivers QueryResponses over the HTTPS binding: a respondent's transport. It tells three outcomes apart,
// because a respondent acts differently on each: a receipt (accepted or rejected — read its status; a retryable one
// says when to try again), a problem (the collector could not form a receipt: the response is malformed, do not
// retry it unchanged), and a transport failure (nothing was decided: retry the same response).
type Client struct {
	// HTTP sends the requests; nil uses http.DefaultClient. A respondent sets one whose dialer enforces its
	// destination policy.
	HTTP *http.Client
}

// Reply is a collector's answer to one delivery.
type Reply struct {
	// Receipt is the QueryReceipt JSON; nil when the collector answered with a problem.
	Receipt []byte
	// Problem is the RFC 9457 problem document when no receipt could be formed; nil otherwise.
	Problem []byte
	// Status is the HTTP status.
	Status int
	// Header is the reply's header (Retry-After, WWW-Authenticate).
	Header http.Header
}

var _ respondent.Transport = (*Client)(nil)

// Binding implements respondent.Transport.
func (c *Client) Binding() string { return Name }

// Deliver implements respondent.Transport: the receipt of a delivery to d, a *respondent.ProblemError when the
// collector formed none, or a *respondent.TransportError when nothing was decided.
func (c *Client) Deliver(ctx context.Context, d respondent.Delivery, response []byte) ([]byte, error) {
	reply, err := c.Post(ctx, d.Endpoint, d.Authorization, response)
	var te *transportError
	switch {
	case errors.As(err, &te):
		return nil, &respondent.TransportError{Binding: Name, Endpoint: d.Endpoint, Err: te.Err}
	case err != nil:
		return nil, &respondent.TransportError{Binding: Name, Endpoint: d.Endpoint, Err: err}
	case reply.Problem != nil:
		var p struct {
			Detail string `json:"detail"`
		}
		_ = json.Unmarshal(reply.Problem, &p)
		if p.Detail == "" {
			p.Detail = string(reply.Problem)
		}
		return nil, &respondent.ProblemError{Binding: Name, Endpoint: d.Endpoint, Detail: p.Detail}
	}
	return reply.Receipt, nil
}

// transportError is a delivery that got no AQP answer: the connection failed, the context ended, or the reply was
// neither a receipt nor a problem document. Nothing is known to have been decided, so the same response may be
// sent again.
type transportError struct {
	// Endpoint is where the delivery was sent.
	Endpoint string
	// Err says what failed.
	Err error
}

// Error implements the error interface.
func (e *transportError) Error() string {
	return "https: delivering to " + e.Endpoint + ": " + e.Err.Error()
}

// Unwrap returns the cause, for errors.Is and errors.As.
func (e *transportError) Unwrap() error { return e.Err }

// Post POSTs response (the QueryResponse JSON, sent exactly as given) to endpoint with the Authorization header
// value authorization (the query's delivery.authorization) and returns the reply as the wire carried it (status
// and headers included), for callers that check the wire form; Deliver is the respondent's view. Every call is
// bounded by ctx; give it a deadline.
func (c *Client) Post(ctx context.Context, endpoint, authorization string, response []byte) (*Reply, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(response))
	if err != nil {
		return nil, &transportError{Endpoint: endpoint, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, application/problem+json")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, &transportError{Endpoint: endpoint, Err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, httpio.MaxBody+1))
	switch {
	case err != nil:
		return nil, &transportError{Endpoint: endpoint, Err: fmt.Errorf("reading the reply: %w", err)}
	case len(body) > httpio.MaxBody:
		return nil, &transportError{Endpoint: endpoint, Err: fmt.Errorf("the reply is larger than %d bytes", httpio.MaxBody)}
	}
	reply := &Reply{Status: resp.StatusCode, Header: resp.Header}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case mt == "application/json":
		reply.Receipt = body
	case mt == "application/problem+json":
		reply.Problem = body
	default:
		return nil, &transportError{Endpoint: endpoint, Err: errors.New("the reply is " + resp.Status + " with Content-Type " +
			quote(resp.Header.Get("Content-Type")) + ", neither a receipt (application/json) nor a problem (application/problem+json): " +
			strings.TrimSpace(string(body[:min(len(body), 200)])))}
	}
	return reply, nil
}

func quote(s string) string { return `"` + s + `"` }
