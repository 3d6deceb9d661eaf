package a2a_test

import (
	"encoding/json"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness/harnesstest"
	"github.com/agentqueryprotocol/aqp-go/conformance/targets"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestConformance runs the whole collector scenario corpus over each of the binding's columns — A2A 1.0 over
// JSON-RPC, HTTP+JSON and gRPC, A2A 0.3 over JSON-RPC — each alternating its send and streaming send: receipts
// byte-identical to core's, every reply's wire form checked against the binding's tables, and every receipt code
// reached. Bodies that are not a JSON object cannot be a part's object, so raw-body scenarios are not carried.
func TestConformance(t *testing.T) {
	for _, c := range targets.A2AColumns {
		t.Run(c.Name, func(t *testing.T) {
			harnesstest.Suite(t, c.Target, harnesstest.Options{Binding: c.Name, Carries: c.Carries})
		})
	}
}

// TestCarriageVectors runs the A2A carriage vectors: each vector's Message or Task is read from its JSON by
// QueriesFromJSON (its metadata kept as text, so no number is rounded) and, decoded as a2a-go/v2 decodes one off
// the wire, by Queries; valid vectors' queries are attached by Attach to a Message or a Task, which go through JSON and must come back the same.
func TestCarriageVectors(t *testing.T) {
	n := harnesstest.CarriageSuite(t, spec.BindingA2A, harnesstest.CarriageCodec{
		Decode: func(v conformance.Carriage) ([][]byte, []conformance.CarriageDrop, error) {
			obj := v.Message
			if v.Task != nil {
				obj = v.Task
			}
			qs, dropped := a2ab.QueriesFromJSON(obj)
			queries := make([][]byte, len(qs))
			for i, q := range qs {
				queries[i] = q.JSON
			}
			drops := make([]conformance.CarriageDrop, len(dropped))
			for i, d := range dropped {
				drops[i] = conformance.CarriageDrop{Index: d.Index, Rule: string(d.Rule)}
			}
			return queries, drops, nil
		},
		Encode: func(v conformance.Carriage, queries [][]byte) (conformance.Carriage, error) {
			out := conformance.Carriage{Binding: spec.BindingA2A}
			var err error
			if v.Task != nil {
				task := &a2a.Task{ID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
				if err := a2ab.Attach(task, queries...); err != nil {
					return out, err
				}
				out.Task, err = json.Marshal(task)
				return out, err
			}
			msg := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("done"))
			if err := a2ab.Attach(msg, queries...); err != nil {
				return out, err
			}
			out.Message, err = json.Marshal(msg)
			return out, err
		},
	})
	t.Logf("%d A2A carriage vectors", n)
}
