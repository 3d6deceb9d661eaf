package core_test

import (
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// TestContractRefsStayInside: a $ref resolving outside the jsonSchema is a compile error whichever document it
// names — the metaschemas the schema library bundles included (D11, revised) — and a $ref cycle that applies a
// schema to the same value again is a compile error too (D35); references into the schema itself, and recursion
// that descends into the value, compile.
func TestContractRefsStayInside(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         string // a substring of the compile message; "" when the request is valid
	}{
		{"ref to defs", `{"$defs":{"a":{"type":"string"}},"$ref":"#/$defs/a"}`, ""},
		{"recursion through properties", `{"type":"object","properties":{"next":{"$ref":"#"}}}`, ""},
		{"recursion through items", `{"type":"array","items":{"$ref":"#"}}`, ""},
		{"recursion through an embedded $id", `{"$defs":{"n":{"$id":"https://example.com/n","properties":{"n":{"$ref":"https://example.com/n"}}}},"$ref":"https://example.com/n"}`, ""},
		{"chain without a cycle", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/c"}]},"c":{}},"$ref":"#/$defs/a"}`, ""},
		{"draft-07 metaschema", `{"$ref":"https://json-schema.org/draft-07/schema"}`, "resolves outside it, to https://json-schema.org/draft-07/schema#"},
		{"draft-07 metaschema by http", `{"$ref":"http://json-schema.org/draft-07/schema#"}`, "resolves outside it"},
		{"2020-12 metaschema", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`, "resolves outside it"},
		{"2020-12 vocabulary metaschema", `{"properties":{"a":{"$ref":"https://json-schema.org/draft/2020-12/meta/core"}}}`, "the reference at /response/jsonSchema/properties/a resolves outside it"},
		{"ref to the root", `{"$ref":"#"}`, "jsonSchema loops (D35): from /response/jsonSchema the schema at /response/jsonSchema applies again"},
		{"not of the root", `{"not":{"$ref":"#"}}`, "jsonSchema loops"},
		{"two defs", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, "jsonSchema loops"},
		{"cycle under a property", `{"properties":{"a":{"$ref":"#/properties/a"}}}`, "jsonSchema loops"},
		{"if then cycle", `{"if":{"$ref":"#"},"then":true}`, "jsonSchema loops"},
		{"dependentSchemas cycle", `{"dependentSchemas":{"a":{"$ref":"#"}}}`, "jsonSchema loops"},
		{"dynamicRef cycle", `{"$dynamicAnchor":"m","$dynamicRef":"#m"}`, "jsonSchema loops"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := core.Validate(core.KindRequest, requestWithSchema(tc.schema))
			if tc.want == "" {
				if len(errs) > 0 {
					t.Fatalf("invalid: %v", errs)
				}
				return
			}
			if len(errs) != 1 || errs[0].Pointer != "/response/jsonSchema" || errs[0].Keyword != core.KeywordCompile ||
				!strings.Contains(errs[0].Message, tc.want) {
				t.Fatalf("got %v, want one compile error at /response/jsonSchema saying %q", errs, tc.want)
			}
		})
	}
}
