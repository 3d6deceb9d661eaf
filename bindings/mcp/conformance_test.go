package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	aqpmcp "github.com/agentqueryprotocol/aqp-go/bindings/mcp"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness/harnesstest"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestConformance runs the whole collector scenario corpus over each of the binding's columns — MCP 2026-07-28 and
// 2025-11-25 against the same server: receipts byte-identical to core's (so to each other's), every result's
// isError and retry signal checked against the binding's table, each era's wire form against D31, and every
// receipt code reached. Scenarios whose body is not a JSON object cannot be carried: the tool's arguments are an
// object.
func TestConformance(t *testing.T) {
	if len(targets.MCPColumns) != 2 {
		t.Fatalf("%d MCP columns, want 2 (one per protocol generation)", len(targets.MCPColumns))
	}
	for _, col := range targets.MCPColumns {
		t.Run(col.Name, func(t *testing.T) {
			if col.Binding != spec.BindingMCP {
				t.Fatalf("column %s belongs to binding %q", col.Name, col.Binding)
			}
			harnesstest.Suite(t, col.Target, harnesstest.Options{Binding: col.Name, Carries: col.Carries})
		})
	}
}

// TestCarriageVectors runs the MCP carriage vectors: each vector's tool result is parsed as an MCP client parses
// one (mcp-go's ParseCallToolResult) and decoded by Queries; valid vectors' queries are attached by Attach to a
// tool result, which goes through JSON and must come back the same.
func TestCarriageVectors(t *testing.T) {
	n := harnesstest.CarriageSuite(t, spec.BindingMCP, harnesstest.CarriageCodec{
		Decode: func(v conformance.Carriage) ([][]byte, []conformance.CarriageDrop, error) {
			raw := json.RawMessage(v.ToolResult)
			res, err := mcp.ParseCallToolResult(&raw)
			if err != nil {
				return nil, nil, err
			}
			// Expiry is not carriage: a respondent drops an expired query after intake (§7), and the reader takes no
			// clock.
			qs, dropped := aqpmcp.Queries(res)
			queries := make([][]byte, len(qs))
			for i, q := range qs { // the typed query, re-encoded: a member it lost or changed shows as a difference
				if queries[i], err = json.Marshal(q.Request); err != nil {
					return nil, nil, err
				}
			}
			drops := make([]conformance.CarriageDrop, len(dropped))
			for i, d := range dropped {
				drops[i] = conformance.CarriageDrop{Index: d.Index, Rule: string(d.Rule)}
			}
			return queries, drops, nil
		},
		Encode: func(_ conformance.Carriage, queries [][]byte) (conformance.Carriage, error) {
			res := mcp.NewToolResultText("3 results")
			if err := aqpmcp.Attach(res, queries...); err != nil {
				return conformance.Carriage{}, err
			}
			wire, err := json.Marshal(res)
			return conformance.Carriage{Binding: spec.BindingMCP, ToolResult: wire}, err
		},
	})
	t.Logf("%d MCP carriage vectors", n)
}
