package mcp_test

import (
	"testing"

	"github.com/agentqueryprotocol/aqp-go/bindings/mcp/mcptest"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
)

// TestConformance runs the whole collector scenario corpus over MCP: receipts byte-identical to core's, every
// result's isError and retry signal checked against the binding's table, and every receipt code reached.
// Scenarios whose body is not a JSON object cannot be carried: the tool's arguments are an object.
func TestConformance(t *testing.T) {
	harness.Suite(t, mcptest.Target, harness.Options{Binding: "mcp", Carries: mcptest.Carries})
}
