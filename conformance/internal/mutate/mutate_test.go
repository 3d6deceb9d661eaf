package mutate

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
)

func testBases(t *testing.T) []Base {
	t.Helper()
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out []Base
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			if v.Valid && v.DocumentText == nil {
				doc, err := core.DecodeJSON(v.Document)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, Base{Name: v.Name, Kind: v.Kind, Value: doc})
			}
		}
	}
	return out
}

func generate(t *testing.T, seed uint64, n int) []Mutant {
	t.Helper()
	facts, err := SchemaFacts()
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(seed, facts, testBases(t))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Mutant, n)
	for i := range out {
		out[i] = g.Next()
	}
	return out
}

func TestSameSeedSameMutants(t *testing.T) {
	a, b, c := generate(t, 7, 300), generate(t, 7, 300), generate(t, 8, 300)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave different mutants")
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("another seed gave the same mutants")
	}
}

// Every op is used, every mutant is one JSON value (the I-JSON breaks are still JSON), and the mutants are not
// mostly copies of their bases.
func TestMutantsCoverEveryOp(t *testing.T) {
	seen := map[string]int{}
	for _, m := range generate(t, 1, 3000) {
		if !json.Valid([]byte(m.Text)) {
			t.Fatalf("mutant %d is not JSON: %s", m.ID, m.Text)
		}
		if len(m.Text) > MaxBytes {
			t.Fatalf("mutant %d has %d bytes, past MaxBytes", m.ID, len(m.Text))
		}
		if len(m.Mutations) == 0 {
			t.Fatalf("mutant %d has no mutation", m.ID)
		}
		for _, s := range m.Mutations {
			seen[strings.Fields(s)[0]]++
		}
	}
	for _, o := range ops {
		if seen[o.name] == 0 {
			t.Errorf("op %s never ran in 3000 mutants (seen %v)", o.name, seen)
		}
	}
}

// A respelling changes the text, never the value: core decodes it to the same canonical form.
func TestRespellingKeepsTheValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	changed := 0
	for _, b := range testBases(t) {
		var plain writer
		plain.value(b.Value)
		want, err := core.CanonicalizeJSON(plain.buf.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", b.Name, err)
		}
		for escape := range 3 {
			w := writer{rng: rng, escape: escape, numbers: true, space: true, shuffle: true}
			w.value(b.Value)
			got, err := core.CanonicalizeJSON(w.buf.Bytes())
			if err != nil {
				t.Fatalf("%s: respelled text does not decode: %v\n%s", b.Name, err, w.buf.Bytes())
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: respelling changed the value\n  plain:     %s\n  respelled: %s", b.Name, plain.buf.Bytes(), w.buf.Bytes())
			}
			if !bytes.Equal(w.buf.Bytes(), plain.buf.Bytes()) {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Fatal("no respelling changed any text")
	}
}

func TestNumberRespellings(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	w := writer{rng: rng, numbers: true}
	for _, n := range []string{"0", "-0", "1", "30", "100", "0.05", "-1.5", "86400", "0.000001"} {
		for range 20 {
			s := w.number(n)
			a, err1 := core.EncodeCanonical(json.Number(n))
			b, err2 := core.EncodeCanonical(json.Number(s))
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) || !json.Valid([]byte(s)) {
				t.Fatalf("%s respelled as %s: %s vs %s (%v %v)", n, s, a, b, err1, err2)
			}
		}
	}
}

func TestSchemaFacts(t *testing.T) {
	f, err := SchemaFacts()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(f.Lengths, 512) {
		t.Errorf("lengths %v lack subject.id's maxLength 512", f.Lengths)
	}
	found := false
	for _, e := range f.Enums {
		found = found || slices.Contains(e, "tool_call")
	}
	if !found {
		t.Errorf("no enum holds the subject kind tool_call: %v", f.Enums)
	}
	if len(f.Numbers) == 0 {
		t.Error("no numeric bound")
	}
}

func TestNewRefusesNothingToMutate(t *testing.T) {
	if _, err := New(1, &Facts{}, nil); err == nil {
		t.Error("no bases: want an error")
	}
	if _, err := New(1, nil, []Base{{Name: "x", Kind: "request", Value: map[string]any{}}}); err == nil {
		t.Error("no facts: want an error")
	}
}
