package collector_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
	"github.com/agentqueryprotocol/aqp-go/store/memory"
)

// TestTypedRefusals: each typed accessor says why it has nothing rather than returning a nil that panics later: an
// unencodable draft is an *IssueError, no Issuer is an error, an unanswered query has no response, and an Outcome
// whose receipt is not a receipt is an error.
func TestTypedRefusals(t *testing.T) {
	c, err := collector.New(collector.Config{Store: memory.New(), PublicURL: "https://c.example", Endpoints: []collector.Endpoint{https.Endpoint()}})
	if err != nil {
		t.Fatal(err)
	}
	var ie *collector.IssueError
	if _, err := collector.IssueRequest(context.Background(), c, make(chan int)); !errors.As(err, &ie) {
		t.Errorf("an unencodable draft: %v; want an *IssueError", err)
	}
	if _, err := collector.IssueRequest(context.Background(), nil, map[string]any{}); err == nil {
		t.Error("no Issuer: no error")
	}
	if _, err := (*collector.Acceptance)(nil).ParseResponse(); err == nil {
		t.Error("no acceptance: no error")
	}
	if _, err := (&collector.Acceptance{Response: []byte(`{}`)}).ParseResponse(); err == nil {
		t.Error("an invalid stored response: no error")
	}
	if _, err := (collector.Outcome{Receipt: []byte(`{"status":"accepted"}`)}).ParseReceipt(); err == nil {
		t.Error("an invalid receipt: no error")
	}
}
