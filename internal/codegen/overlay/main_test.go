package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var specFiles = []string{
	"../../../spec/query-subject.schema.json", "../../../spec/query-request.schema.json",
	"../../../spec/query-response.schema.json", "../../../spec/query-receipt.schema.json",
}

const specOverlay = "../../../spec/codegen/overlay.json"

// overlaid runs the real overlay over the real schemas and returns the copies, by file name.
func overlaid(t *testing.T) map[string]map[string]any {
	t.Helper()
	out := t.TempDir()
	if err := run(specOverlay, out, specFiles); err != nil {
		t.Fatal(err)
	}
	docs := map[string]map[string]any{}
	for _, f := range specFiles {
		raw, err := os.ReadFile(filepath.Join(out, filepath.Base(f)))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(f)] = m
	}
	return docs
}

// TestOverlayAddsOnlyAnnotations: the overlaid copies differ from the originals only by description and
// goJSONSchema keywords, so the Go types are generated from exactly the rules spec/ serves, under the same $id.
func TestOverlayAddsOnlyAnnotations(t *testing.T) {
	docs := overlaid(t)
	for _, f := range specFiles {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var orig map[string]any
		if err := json.Unmarshal(raw, &orig); err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if !reflect.DeepEqual(strip(docs[name], orig), orig) {
			t.Errorf("%s: the overlay changed more than description and goJSONSchema keywords", name)
		}
		if docs[name]["$id"] != orig["$id"] {
			t.Errorf("%s: $id = %v, want %v", name, docs[name]["$id"], orig["$id"])
		}
	}
}

// strip removes from v the description and goJSONSchema keywords that orig does not have.
func strip(v, orig any) any {
	switch x := v.(type) {
	case map[string]any:
		o, _ := orig.(map[string]any)
		out := map[string]any{}
		for k, c := range x {
			if _, had := o[k]; !had && (k == "description" || k == "goJSONSchema") {
				continue
			}
			out[k] = strip(c, o[k])
		}
		return out
	case []any:
		o, _ := orig.([]any)
		out := make([]any, len(x))
		for i, c := range x {
			var oc any
			if i < len(o) {
				oc = o[i]
			}
			out[i] = strip(c, oc)
		}
		return out
	}
	return v
}

// TestEveryMemberIsDescribed: every member the Go types have a field for carries a description that says what it
// means, so `go doc ./gen/aqp` is documentation rather than "X corresponds to the JSON schema field".
func TestEveryMemberIsDescribed(t *testing.T) {
	for name, doc := range overlaid(t) {
		var walk func(path string, schema map[string]any)
		walk = func(path string, schema map[string]any) {
			props, _ := schema["properties"].(map[string]any)
			for member, p := range props {
				ps, _ := p.(map[string]any)
				where := name + "#" + path + "/properties/" + member
				d, _ := ps["description"].(string)
				switch {
				case d == "":
					t.Errorf("%s: no description", where)
				case len(strings.Fields(d)) < 4 || strings.EqualFold(strings.TrimSuffix(d, "."), member):
					t.Errorf("%s: description %q does not say what the member means", where, d)
				}
				walk(path+"/properties/"+member, ps)
			}
		}
		walk("", doc)
	}
}

func TestOverlayRefusesWhatItCannotApply(t *testing.T) {
	schemas := func() map[string]any {
		return map[string]any{"a.json": map[string]any{"properties": map[string]any{
			"x": map[string]any{"type": "string", "description": "already"},
			"l": []any{map[string]any{}},
		}}}
	}
	for _, c := range []struct {
		name string
		ov   overlay
		want string
	}{
		{"existing keyword", overlay{"a.json": {"/properties/x": {"description": "new"}}}, `already has "description"`},
		{"rule keyword clash", overlay{"a.json": {"/properties/x": {"type": "integer"}}}, `already has "type"`},
		{"unknown member", overlay{"a.json": {"/properties/y": {"description": "d"}}}, `no member "y"`},
		{"not an object", overlay{"a.json": {"/properties/x/type": {"description": "d"}}}, "not an object schema"},
		{"bad index", overlay{"a.json": {"/properties/l/1": {"description": "d"}}}, `no item "1"`},
		{"relative pointer", overlay{"a.json": {"properties": {"description": "d"}}}, "must be empty or start"},
		{"unknown file", overlay{"b.json": {"": {"description": "d"}}}, "no such schema"},
	} {
		err := apply(c.ov, schemas())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: apply = %v, want an error containing %q", c.name, err, c.want)
		}
	}
	s := schemas()
	if err := apply(overlay{"a.json": {"/properties/l/0": {"goJSONSchema": map[string]any{"type": "bool"}}}}, s); err != nil {
		t.Fatal(err)
	}
	got := s["a.json"].(map[string]any)["properties"].(map[string]any)["l"].([]any)[0]
	if !reflect.DeepEqual(got, map[string]any{"goJSONSchema": map[string]any{"type": "bool"}}) {
		t.Errorf("applied: %v", got)
	}
}
