package core_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// Each benchmark pair below measures one check beside its baseline on the same bytes: json.Unmarshal into the
// generated type, which is what any Go program pays to read the document at all. Compare them as a ratio
// (`make bench`); absolute numbers on a shared machine are noise.

func example(b *testing.B, name string) []byte {
	data, err := os.ReadFile("../examples/" + name)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func benchValidate(b *testing.B, kind core.Kind, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if errs := core.Validate(kind, data); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

func benchUnmarshal[T any](b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRequest(b *testing.B) {
	data := example(b, "quickstart-request-corrected.json")
	b.Run("baseline=unmarshal", func(b *testing.B) { benchUnmarshal[aqp.QueryRequest](b, data) })
	b.Run("validate", func(b *testing.B) { benchValidate(b, core.KindRequest, data) })
}

func BenchmarkResponse(b *testing.B) {
	data := example(b, "quickstart-response.json")
	b.Run("baseline=unmarshal", func(b *testing.B) { benchUnmarshal[aqp.QueryResponse](b, data) })
	b.Run("validate", func(b *testing.B) { benchValidate(b, core.KindResponse, data) })
}

func BenchmarkReceipt(b *testing.B) {
	data := example(b, "quickstart-receipt.json")
	b.Run("baseline=unmarshal", func(b *testing.B) { benchUnmarshal[aqp.QueryReceipt](b, data) })
	b.Run("validate", func(b *testing.B) { benchValidate(b, core.KindReceipt, data) })
}

// BenchmarkResponseCheck is the full check of a submitted response against its (already validated) request:
// decode, schema, and every request–response paired check — what a collector does per submission.
func BenchmarkResponseCheck(b *testing.B) {
	data := example(b, "quickstart-response.json")
	req := core.Parse(core.KindRequest, example(b, "quickstart-request-corrected.json"))
	if !req.Valid() {
		b.Fatal(req.Errors)
	}
	b.Run("baseline=unmarshal", func(b *testing.B) { benchUnmarshal[aqp.QueryResponse](b, data) })
	b.Run("check", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			resp := core.Parse(core.KindResponse, data)
			if errs := core.CheckPair(core.Pair{Request: req, Response: resp}); !resp.Valid() || len(errs) > 0 {
				b.Fatal(resp.Errors, errs)
			}
		}
	})
}
