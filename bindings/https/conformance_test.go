package https_test

import (
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/https/httpstest"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
)

// TestConformance runs the whole collector scenario corpus over HTTPS: receipts byte-identical to core's, every
// step's HTTP status and headers checked against the binding's table, and every receipt code reached.
func TestConformance(t *testing.T) {
	harness.Suite(t, httpstest.Target, harness.Options{Binding: "https", Carries: httpstest.Carries})
}
