package https_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/service/servicetest"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

var (
	do          = servicetest.Do
	issue       = servicetest.Issue
	responseFor = servicetest.ResponseFor
)

func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	return servicetest.New(t, memory.New(), https.Binding{})
}

// TestTransportErrors covers what only HTTP can get wrong: media type, size, unreadable ids.
func TestTransportErrors(t *testing.T) {
	ts := newServer(t)
	endpoint, auth, q := issue(t, ts)
	cases := []struct {
		name, contentType string
		body              []byte
		status            int
	}{
		{"no content type", "", responseFor(q), 415},
		{"text/plain", "text/plain", responseFor(q), 415},
		{"latin-1 charset", "application/json; charset=iso-8859-1", responseFor(q), 415},
		{"oversized", "application/json", bytes.Repeat([]byte(" "), core.MaxDocumentBytes+1), 413},
		{"not JSON", "application/json", []byte("{"), 400},
		{"no ids", "application/json", []byte(`{"answer":true}`), 400},
		{"queryId not a uuid", "application/json", []byte(`{"queryId":"x","responseId":"0198c7d0-2180-7729-b005-d33c99fc7452"}`), 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, "POST", endpoint, tc.contentType, auth, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
				t.Fatalf("content type %q, want application/problem+json", ct)
			}
			var p struct {
				Status int    `json:"status"`
				Title  string `json:"title"`
			}
			if err := json.Unmarshal(body, &p); err != nil || p.Status != tc.status || p.Title == "" {
				t.Fatalf("not an RFC 9457 problem with status %d: %s", tc.status, body)
			}
		})
	}
	// With charset=utf-8 the same body is accepted.
	resp, body := do(t, "POST", endpoint, "application/json; charset=utf-8", auth, responseFor(q))
	if resp.StatusCode != 200 || len(core.Validate(core.KindReceipt, body)) > 0 {
		t.Fatalf("accept: %d %s", resp.StatusCode, body)
	}
}

func TestUnauthorizedCarriesWWWAuthenticate(t *testing.T) {
	ts := newServer(t)
	endpoint, _, q := issue(t, ts)
	resp, body := do(t, "POST", endpoint, "application/json", "Bearer nope", responseFor(q))
	if resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("%d %v %s", resp.StatusCode, resp.Header, body)
	}
	if errs := core.Validate(core.KindReceipt, body); len(errs) > 0 {
		t.Fatal(errs)
	}
}
