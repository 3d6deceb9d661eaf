// Package columns is the one place that lists the columns of the one table: every binding at every protocol
// generation over every transport it serves, each with its conformance target. The conformance suite's table, `aqp
// conformance collector` and the reports iterate this list, so a binding that gains a generation or a transport adds
// its column in its own conformance package and it runs everywhere. It is internal and outside conformance/
// because it imports every binding's conformance target, which the harness must not.
package columns

import (
	"github.com/agentqueryprotocol/aqp-go/bindings/a2a/a2atest"
	"github.com/agentqueryprotocol/aqp-go/bindings/https/httpstest"
	"github.com/agentqueryprotocol/aqp-go/bindings/mcp/mcptest"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
)

// All returns every column, in the order the table and the reports show them: https; mcp 2026-07-28 and
// 2025-11-25; a2a 1.0 over JSON-RPC, HTTP+JSON and gRPC, and 0.3 over JSON-RPC.
func All() []harness.Column {
	var out []harness.Column
	for _, cs := range [][]harness.Column{httpstest.Columns, mcptest.Columns, a2atest.Columns} {
		out = append(out, cs...)
	}
	return out
}
