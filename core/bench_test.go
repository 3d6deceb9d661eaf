package core_test

import (
	"encoding/json"
	"os"
	"strings"
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

// BenchmarkHostileResponse measures what a body costs before it is rejected, beside its baseline: the decode the
// collector did before DecodeSkeleton (every value materialised, then the schema). Report allocs/op and B/op.
func BenchmarkHostileResponse(b *testing.B) {
	zeros := "[" + strings.Repeat("0,", (core.MaxDocumentBytes-40)/2) + "0]"
	bodies := []struct{ name, body string }{
		{"answer-array-1MiB", `{"answer":` + zeros + `}`},
		{"unknown-member-1MiB", `{"junk":` + zeros + `}`},
		{"answer-array-1MiB-malformed-at-end", `{"answer":` + zeros[:len(zeros)-1] + `,}`},
	}
	for _, x := range bodies {
		data := []byte(x.body)
		if len(data) > core.MaxDocumentBytes {
			b.Fatalf("%s is %d bytes", x.name, len(data))
		}
		b.Run(x.name+"/baseline=full-decode", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if core.Parse(core.KindResponse, data).Valid() {
					b.Fatal("valid")
				}
			}
		})
		b.Run(x.name+"/skeleton", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if skel, err := core.DecodeSkeleton(core.KindResponse, data); err == nil && skel.Parse().Valid() {
					b.Fatal("valid")
				}
			}
		})
	}
}

// BenchmarkResponseSkeleton is the Quickstart response through the collector's path (DecodeSkeleton, Parse) beside
// full Parse: the skeleton must not cost a normal response more.
func BenchmarkResponseSkeleton(b *testing.B) {
	data := example(b, "quickstart-response.json")
	b.Run("baseline=parse", func(b *testing.B) { benchValidate(b, core.KindResponse, data) })
	b.Run("skeleton", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			skel, err := core.DecodeSkeleton(core.KindResponse, data)
			if err != nil || !skel.Parse().Valid() {
				b.Fatal(err)
			}
		}
	})
}
