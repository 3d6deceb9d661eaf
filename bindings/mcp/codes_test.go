package mcp

import (
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// TestEveryReceiptCodeHasAWireForm: the table maps every receipt code, every rejection is isError, and exactly the
// retryable codes promise a retryAfter in structuredContent.
func TestEveryReceiptCodeHasAWireForm(t *testing.T) {
	for _, c := range core.ReceiptCodes() {
		w, ok := wireOf[c]
		if !ok {
			t.Errorf("receipt code %s has no MCP wire form in the binding's table", c)
			continue
		}
		if !w.IsError {
			t.Errorf("%s: isError false; every rejection must be isError", c)
		}
		if w.RetryAfter != c.Retryable() {
			t.Errorf("%s: RetryAfter %v, but core says retryable=%v", c, w.RetryAfter, c.Retryable())
		}
	}
	if len(wireOf) != len(core.ReceiptCodes()) {
		t.Errorf("the table has %d entries for %d receipt codes", len(wireOf), len(core.ReceiptCodes()))
	}
	if WireFor("").IsError || !WireFor("no_such_code").IsError {
		t.Error("accepted must not be isError, and an unknown code must be")
	}
}
