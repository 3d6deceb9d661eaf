package conformance_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/internal/schemacov"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// schemaVectors turns the committed standalone vectors into what the coverage walk reads.
func schemaVectors(t *testing.T) []schemacov.Vector {
	t.Helper()
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out []schemacov.Vector
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			sv := schemacov.Vector{Name: v.Name, Kind: v.Kind, Bytes: v.Bytes(), Valid: v.Valid}
			for _, e := range v.Errors {
				sv.Errors = append(sv.Errors, schemacov.ExpectedError{Pointer: e.Pointer, Keyword: e.Keyword})
			}
			out = append(out, sv)
		}
	}
	return out
}

func specSchemas(t *testing.T) schemacov.Schemas {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range spec.SchemaFiles {
		files[name] = spec.File(name)
	}
	s, err := schemacov.Decode(files)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSchemaCoverage requires, for every enum value and const, every bound, every required member, every
// if/then/else and every format of the four schemas, a valid and an invalid standalone vector that exercises it,
// in the sense package schemacov documents. A schema author who adds an enum value or a bound and does not run
// `make vectors` (or write the vector by hand when the generator cannot derive it) fails here, with the list.
func TestSchemaCoverage(t *testing.T) {
	s := specSchemas(t)
	obligations := s.Obligations()
	if len(obligations) < 100 {
		t.Fatalf("the schemas yield only %d obligations; the walk is broken", len(obligations))
	}
	missing, err := s.Missing(schemaVectors(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		lines := make([]string, len(missing))
		for i, o := range missing {
			lines[i] = "  " + o.String()
		}
		t.Errorf("%d of %d schema obligations have no standalone vector (run `make vectors`; where it cannot derive one, add a vector to conformance/internal/vectorgen/corpus):\n%s",
			len(missing), len(obligations), strings.Join(lines, "\n"))
	}
	t.Logf("%d schema obligations, each proved by a vector", len(obligations)-len(missing))
}

// TestSchemaCoverageNamesANewEnumValue is the spec author's case: a value added to the subject's kind enum, with no
// vector holding it, is reported by schema location and value; so is a bound no vector sits at or past.
func TestSchemaCoverageNamesANewEnumValue(t *testing.T) {
	s := specSchemas(t)
	kind := s[spec.SubjectSchema].(map[string]any)["properties"].(map[string]any)["kind"].(map[string]any)
	kind["enum"] = append(kind["enum"].([]any), "coverage-probe")
	id := s[spec.SubjectSchema].(map[string]any)["properties"].(map[string]any)["id"].(map[string]any)
	id["maxLength"] = json.Number("100000")
	missing, err := s.Missing(schemaVectors(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range missing {
		got = append(got, o.String())
	}
	want := []string{
		`query-subject.schema.json#/properties/id maxLength 100000 (at)`,
		`query-subject.schema.json#/properties/id maxLength 100000 (past)`,
		`query-subject.schema.json#/properties/kind enum "coverage-probe" (valid)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("missing:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
