package a2a

import (
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// TestEveryReceiptCodeHasASurface: the table covers every receipt code, and exactly the two codes §4 makes
// retryable surface as retryable.
func TestEveryReceiptCodeHasASurface(t *testing.T) {
	retryable := map[core.Code]bool{"rate_limited": true, "unavailable": true}
	for _, c := range core.ReceiptCodes() {
		s, ok := surfaceOf[c]
		if !ok {
			t.Errorf("receipt code %s has no A2A wire form in the binding's table", c)
			continue
		}
		if s.Retryable != retryable[c] {
			t.Errorf("%s: retryable %v, §4 says %v", c, s.Retryable, retryable[c])
		}
	}
	if len(surfaceOf) != len(core.ReceiptCodes()) {
		t.Errorf("the table has %d entries for %d receipt codes", len(surfaceOf), len(core.ReceiptCodes()))
	}
	if s, ok := SurfaceFor(""); !ok || s.Retryable {
		t.Error("accepted must be a known, not retryable surface")
	}
	if _, ok := SurfaceFor("no_such_code"); ok {
		t.Error("an unknown code must not map")
	}
}
