package a2a_test

import (
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/a2a/a2atest"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
)

// TestConformance runs the whole collector scenario corpus over A2A (message/send and message/stream in turn):
// receipts byte-identical to core's, every reply's wire form checked against the binding's table, and every
// receipt code reached. Bodies that are not a JSON object cannot be a DataPart's data, so raw-body scenarios are
// not carried.
func TestConformance(t *testing.T) {
	harness.Suite(t, a2atest.Target, harness.Options{Binding: "a2a", Carries: a2atest.Carries})
}
