package core_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestRequestSchemaIsSeedPlusD1 proves D1: the request schema is the seed's, plus requestedRespondent, and nothing
// else differs.
func TestRequestSchemaIsSeedPlusD1(t *testing.T) {
	var seed, ours map[string]any
	if err := json.Unmarshal(spec.File("seed/query-request.schema.json"), &seed); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(spec.File(spec.RequestSchema), &ours); err != nil {
		t.Fatal(err)
	}
	props := ours["properties"].(map[string]any)
	want := map[string]any{"enum": []any{"agent", "human", "system", "any"}}
	if !reflect.DeepEqual(props["requestedRespondent"], want) {
		t.Fatalf("requestedRespondent = %v, want %v", props["requestedRespondent"], want)
	}
	delete(props, "requestedRespondent")
	if !reflect.DeepEqual(seed, ours) {
		t.Fatal("query-request.schema.json differs from the seed in more than requestedRespondent")
	}
}

// TestSchemasAreStrict checks the §2 invariants of every schema: draft 2020-12, $id under the AQP base, and
// additionalProperties false on every object schema that declares properties (outside an if's test).
func TestSchemasAreStrict(t *testing.T) {
	for _, name := range spec.SchemaFiles {
		var doc map[string]any
		d := json.NewDecoder(bytes.NewReader(spec.File(name)))
		if err := d.Decode(&doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema = %v", name, doc["$schema"])
		}
		if doc["$id"] != spec.SchemaBase+name {
			t.Errorf("%s: $id = %v, want %s", name, doc["$id"], spec.SchemaBase+name)
		}
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch x := v.(type) {
			case map[string]any:
				// An if is a test, not a shape: D39's ifs say "error is an object with a code" so that they never
				// hold vacuously for an error of another type (D6), and a member they do not name is the shape's
				// business, which the error schema itself closes.
				inIf := strings.Contains(path, "/if/") || strings.HasSuffix(path, "/if")
				if _, hasProps := x["properties"]; hasProps && x["type"] == "object" && x["additionalProperties"] != false && !inIf {
					t.Errorf("%s%s: an object schema with properties must set additionalProperties: false", name, path)
				}
				for k, c := range x {
					walk(path+"/"+k, c)
				}
			case []any:
				for _, c := range x {
					walk(path+"/[]", c)
				}
			}
		}
		walk("#", doc)
	}
}
