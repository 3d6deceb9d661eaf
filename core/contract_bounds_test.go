package core_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// requestWithSchema is a valid structured request around a jsonSchema's JSON text.
func requestWithSchema(schema string) []byte {
	return []byte(`{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"feedback",
"subject":{"kind":"tool_call","id":"c"},"prompt":"p","timing":"immediate","consentMode":"not_required",
"delivery":{"binding":"https","endpoint":"https://collector.example/aqp/v1/responses"},"expiresAt":"2026-07-30T18:00:00Z",
"response":{"format":"structured","jsonSchema":` + schema + `}}`)
}

// nestedItems is n objects nested through "items": depth n.
func nestedItems(n int) string {
	return strings.Repeat(`{"items":`, n-1) + `{}` + strings.Repeat(`}`, n-1)
}

// TestSchemaBounds: a jsonSchema at each bound is valid, one past it is an invalid request with keyword size at a
// precise pointer, and a schema far past the depth bound (3,000 nested items, which took 27 s to compile) is
// refused at once.
func TestSchemaBounds(t *testing.T) {
	// values is an object, an array and n numbers.
	values := func(n int) string { return `{"enum":[0` + strings.Repeat(",0", n-1) + `]}` }
	// patterns is n regular expressions, half of them patternProperties names.
	patterns := func(n int) string {
		var pp []string
		for i := 0; i < n/2; i++ {
			pp = append(pp, fmt.Sprintf(`"^p%d$":{}`, i))
		}
		var ps []string
		for i := n / 2; i < n; i++ {
			ps = append(ps, fmt.Sprintf(`"p%d":{"pattern":"^x"}`, i))
		}
		return `{"patternProperties":{` + strings.Join(pp, ",") + `},"properties":{` + strings.Join(ps, ",") + `}}`
	}
	// A string member fills the schema up to exactly n bytes of compact JSON.
	bytesLong := func(n int) string {
		const frame = `{"description":""}`
		return `{"description":"` + strings.Repeat("d", n-len(frame)) + `"}`
	}
	deepPath := "/response/jsonSchema" + strings.Repeat("/items", core.MaxSchemaDepth)
	for _, tc := range []struct {
		name, schema, pointer string
	}{
		{"depth 64", nestedItems(core.MaxSchemaDepth), ""},
		{"depth 65", nestedItems(core.MaxSchemaDepth + 1), deepPath},
		{"300 nested items", nestedItems(300), deepPath},
		{"depth 65 through an array", strings.Repeat(`{"allOf":[`, 32) + `{}` + strings.Repeat(`]}`, 32), "/response/jsonSchema" + strings.Repeat("/allOf/0", 32)},
		{"10,000 values", values(core.MaxSchemaNodes - 2), ""},
		{"10,001 values", values(core.MaxSchemaNodes - 1), "/response/jsonSchema"},
		{"64 patterns", patterns(core.MaxSchemaPatterns), ""},
		{"65 patterns", patterns(core.MaxSchemaPatterns + 1), "/response/jsonSchema"},
		{"65,536 bytes", bytesLong(core.MaxSchemaBytes), ""},
		{"65,537 bytes", bytesLong(core.MaxSchemaBytes + 1), "/response/jsonSchema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.pointer == "" && len(tc.schema) > core.MaxSchemaBytes {
				t.Fatalf("the schema is %d bytes, past the bytes bound", len(tc.schema))
			}
			errs := core.Validate(core.KindRequest, requestWithSchema(tc.schema))
			if tc.pointer == "" {
				if len(errs) > 0 {
					t.Fatalf("invalid: %v", errs)
				}
				return
			}
			if len(errs) != 1 || errs[0].Pointer != tc.pointer || errs[0].Keyword != core.KeywordSize || errs[0].Code != core.CodeInvalidRequest {
				t.Fatalf("got %v, want one invalid_request at %s [size]", errs, tc.pointer)
			}
		})
	}
}

// worstShapes are the costliest jsonSchema shapes within the D24 bounds; BenchmarkSchemaWorstCaseWithinBounds
// measures what each costs to compile (BENCHMARKS.md), and TestWorstShapesAreWithinBounds that each is accepted.
func worstShapes() map[string]string {
	var defs, anyOf, patterns, enum []string
	for i := 0; i < 1000; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"$ref":"#/$defs/d%d"}`, i, i+1))
	}
	defs = append(defs, `"d1000":{"type":"string"}`)
	for i := 0; i < 1500; i++ {
		anyOf = append(anyOf, fmt.Sprintf(`{"minimum":%d,"maximum":%d}`, i, i+1))
	}
	for i := 0; i < core.MaxSchemaPatterns; i++ {
		patterns = append(patterns, fmt.Sprintf(`"^(a|b|c){1,%d}[x-z]{%d}$":{}`, 100+i, i%100))
	}
	for i := 0; i < 3000; i++ {
		enum = append(enum, fmt.Sprintf(`{"k%d":[%d]}`, i, i))
	}
	shapes := map[string]string{
		"64 nested items":      nestedItems(core.MaxSchemaDepth),
		"32 nested properties": strings.Repeat(`{"properties":{"a":`, 31) + `{}` + strings.Repeat(`}}`, 31),
		"1,000 chained refs":   `{"$ref":"#/$defs/d0","$defs":{` + strings.Join(defs, ",") + `}}`,
		"1,500 anyOf branches": `{"anyOf":[` + strings.Join(anyOf, ",") + `]}`,
		"64 costly patterns":   `{"patternProperties":{` + strings.Join(patterns, ",") + `}}`,
		"large enum":           `{"enum":[` + strings.Join(enum, ",") + `]}`,
		"nested anyOf 32 deep": strings.Repeat(`{"anyOf":[{"type":"array"},`, 31) + `{}` + strings.Repeat(`]}`, 31),
	}
	return shapes
}

// TestWorstShapesAreWithinBounds: every worst-case shape is a valid request's jsonSchema, so the benchmark
// measures compiling, not refusing.
func TestWorstShapesAreWithinBounds(t *testing.T) {
	for name, schema := range worstShapes() {
		t.Run(name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(schema), &v); err != nil {
				t.Fatalf("shape is not JSON: %v", err)
			}
			if errs := core.Validate(core.KindRequest, requestWithSchema(schema)); len(errs) > 0 {
				t.Fatalf("invalid: %.300v", errs)
			}
		})
	}
}

// BenchmarkSchemaWorstCaseWithinBounds: validating a request whose jsonSchema is one of the costliest shapes the
// bounds admit (the contract is compiled on every validation), beside the Quickstart request as the baseline.
func BenchmarkSchemaWorstCaseWithinBounds(b *testing.B) {
	shapes := worstShapes()
	shapes["baseline: empty jsonSchema"] = ""
	for name, schema := range shapes {
		req := requestWithSchema(schema)
		if schema == "" {
			req = requestWithSchema(`{}`)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if errs := core.Validate(core.KindRequest, req); len(errs) > 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}

// TestSchemaNestedPastTheDecoderBound: 3,000 nested items (27 s to compile before D24) are refused by the decoder's
// depth bound (D13) before any schema is looked at, with keyword size and a pointer inside the jsonSchema.
func TestSchemaNestedPastTheDecoderBound(t *testing.T) {
	errs := core.Validate(core.KindRequest, requestWithSchema(nestedItems(3000)))
	if len(errs) != 1 || errs[0].Keyword != core.KeywordSize || !strings.HasPrefix(errs[0].Pointer, "/response/jsonSchema/items/items") {
		t.Fatalf("got %v, want one size error inside /response/jsonSchema", errs)
	}
}
