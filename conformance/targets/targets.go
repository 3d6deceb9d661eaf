// Package targets is the one package of binding targets: how the shared scenario harness reaches a collector over
// each column of the one table — every binding at every protocol generation over every transport it serves —
// issuing queries through the admin API and submitting responses with the binding's own client, checking the
// column's wire form from the binding's table as it goes. All is the one list of the columns; the conformance
// suite's table, each binding's conformance_test.go, `aqp conformance collector` and the reports iterate it, so a
// binding that gains a generation or a transport adds its column here and it runs everywhere.
//
// It stands above the bindings and the service (it imports them; nothing under bindings/, core/, service/ or
// store/ imports it) and links no test package: a local target serves its collector on a real loopback listener,
// so the conformance commands of `aqp` can run it.
package targets

import "github.com/agentqueryprotocol/aqp-go/conformance/harness"

// All returns every column, in the order the table and the reports show them: https; mcp 2026-07-28 and
// 2025-11-25; a2a 1.0 over JSON-RPC, HTTP+JSON and gRPC, and 0.3 over JSON-RPC.
func All() []harness.Column {
	var out []harness.Column
	for _, cs := range [][]harness.Column{HTTPSColumns, MCPColumns, A2AColumns} {
		out = append(out, cs...)
	}
	return out
}
