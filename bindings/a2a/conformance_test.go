package a2a_test

import (
	"encoding/json"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"

	a2ab "github.com/agentqueryprotocol/aqp-go/bindings/a2a"
	"github.com/agentqueryprotocol/aqp-go/bindings/a2a/a2atest"
	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/harness"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestConformance runs the whole collector scenario corpus over A2A (message/send and message/stream in turn):
// receipts byte-identical to core's, every reply's wire form checked against the binding's table, and every
// receipt code reached. Bodies that are not a JSON object cannot be a DataPart's data, so raw-body scenarios are
// not carried.
func TestConformance(t *testing.T) {
	harness.Suite(t, a2atest.Target, harness.Options{Binding: "a2a", Carries: a2atest.Carries})
}

// TestCarriageVectors runs the A2A carriage vectors: each vector's Message or Task is decoded as a2a-go decodes one
// off the wire and read by QueriesFromMessage or QueriesFromTask; valid vectors' queries are attached by
// AttachToMessage or AttachToTask, which go through JSON and must come back the same.
func TestCarriageVectors(t *testing.T) {
	n := harness.CarriageSuite(t, spec.BindingA2A, harness.CarriageCodec{
		Decode: func(v conformance.Carriage) ([][]byte, []conformance.CarriageDrop, error) {
			var qs []a2ab.Query
			var dropped []a2ab.Dropped
			if v.Task != nil {
				var task a2a.Task
				if err := json.Unmarshal(v.Task, &task); err != nil {
					return nil, nil, err
				}
				qs, dropped = a2ab.QueriesFromTask(&task)
			} else {
				var msg a2a.Message
				if err := json.Unmarshal(v.Message, &msg); err != nil {
					return nil, nil, err
				}
				qs, dropped = a2ab.QueriesFromMessage(&msg)
			}
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
				if err := a2ab.AttachToTask(task, queries...); err != nil {
					return out, err
				}
				out.Task, err = json.Marshal(task)
				return out, err
			}
			msg := a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: "done"})
			if err := a2ab.AttachToMessage(msg, queries...); err != nil {
				return out, err
			}
			out.Message, err = json.Marshal(msg)
			return out, err
		},
	})
	t.Logf("%d A2A carriage vectors", n)
}
