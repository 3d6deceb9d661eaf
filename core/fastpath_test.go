package core

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fastAgainstSchemas runs one decoded document through the fast path and through the verdict schema and fails on
// the one disagreement that would change a verdict: the fast path calling valid what the schema rejects. (Its
// "not sure" is never a verdict: the schema decides those.) It returns both answers for the caller's counts.
func fastAgainstSchemas(t *testing.T, what string, k Kind, v any) (fast, schema bool) {
	t.Helper()
	if !numbersWithinBounds(v) {
		return false, false // rejected before either sees it (D22)
	}
	fast = fastValid(k, v)
	schema = compiledSchemas().verdict[k].Validate(v) == nil
	if fast && !schema {
		t.Errorf("%s as %s: the fast path accepts what the schema rejects:\n%s", what, k, CompactJSON(v))
	}
	return fast, schema
}

// TestFastPathTakesTheQuickstart pins that the benchmarked documents take the fast path: a fast path that grew
// unsure of them would pass every agreement test while making validation slow again.
func TestFastPathTakesTheQuickstart(t *testing.T) {
	if !fastPathOn() {
		t.Fatal("the schemas in spec/ are not the ones core/fastpath.go was written from: review every rule of " +
			"fastpath.go against them, then set fastPathSchemas to their new SHA-256")
	}
	for _, c := range []struct {
		file string
		kind Kind
	}{
		{"quickstart-request-corrected.json", KindRequest},
		{"quickstart-response.json", KindResponse},
		{"quickstart-receipt.json", KindReceipt},
	} {
		data, err := os.ReadFile(filepath.Join("..", "examples", c.file))
		if err != nil {
			t.Fatal(err)
		}
		v, e := decodeJSON(data)
		if e != nil {
			t.Fatal(c.file, e)
		}
		if !fastValid(c.kind, v) {
			t.Errorf("%s: the fast path is not sure of it", c.file)
		}
		if errs := validateValue(c.kind, v); len(errs) > 0 {
			t.Errorf("%s: %v", c.file, errs)
		}
	}
}

// TestFastPathAgreesWithTheSchemas runs every JSON object in the conformance vectors (every vector's document,
// every paired and collector document, every member object inside them), each as a request, a response and a
// receipt, and 20,000 mutants of the valid vectors (the differential check's generator, conformance/internal/mutate)
// through the fast path and the verdict schemas: the fast path may be unsure of a valid document, never sure of an
// invalid one.
func TestFastPathAgreesWithTheSchemas(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "conformance", "vectors", "*", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vector files: %v", err)
	}
	type tally struct{ fast, schema, total int }
	counts := map[Kind]*tally{KindRequest: {}, KindResponse: {}, KindReceipt: {}}
	count := func(k Kind, fast, schema bool) {
		c := counts[k]
		c.total++
		if fast {
			c.fast++
		}
		if schema {
			c.schema++
		}
	}
	bases := map[Kind][]map[string]any{}
	seen := map[string]bool{}
	pool := valuePool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, e := decodeJSON(data)
		if e != nil {
			t.Fatalf("%s: %v", f, e)
		}
		var walk func(at string, v any)
		walk = func(at string, v any) {
			switch x := v.(type) {
			case map[string]any:
				for _, k := range []Kind{KindRequest, KindResponse, KindReceipt} {
					fast, schema := fastAgainstSchemas(t, f+at, k, x)
					count(k, fast, schema)
					if schema && !seen[string(CompactJSON(x))+string(k)] {
						seen[string(CompactJSON(x))+string(k)] = true
						bases[k] = append(bases[k], x)
					}
				}
				for name, m := range x {
					pool.add(name, m)
					walk(at+"/"+escapePointer(name), m)
				}
			case []any:
				for _, m := range x {
					walk(at+"/-", m)
				}
			case string:
				// documentText: a document written as text (a spelling the tree cannot hold).
				if len(x) > 1 && (x[0] == '{' || x[0] == '[') {
					if dv, e := decodeJSON([]byte(x)); e == nil {
						walk(at+"(text)", dv)
					}
				}
			}
		}
		walk("", doc)
	}
	// Every valid base, changed one member at a time from what the vectors hold at that name.
	variants, used := 0, 0
	for _, k := range []Kind{KindRequest, KindResponse, KindReceipt} {
		// At most maxBases of each kind, spread evenly over the vectors' order (which the files fix), to keep the
		// test to seconds under -race.
		const maxBases = 40
		bs := bases[k]
		for i := range min(len(bs), maxBases) {
			b := bs[i*len(bs)/min(len(bs), maxBases)]
			used++
			eachVariant(b, pool, func(what string, v any) {
				variants++
				if fastValid(k, v) && compiledSchemas().verdict[k].Validate(v) != nil {
					t.Errorf("variant of a valid %s (%s): the fast path accepts what the schema rejects:\n%s", k, what, CompactJSON(v))
				}
			})
		}
	}
	t.Logf("%d one-member variants of %d valid bases", variants, used)

	cmd := exec.Command("go", "run", "./conformance/internal/differential", "emit", "-n", "20000")
	cmd.Dir = ".."
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("emitting the mutants: %v", err)
	}
	mutants := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m struct {
			ID   int    `json:"id"`
			Kind string `json:"kind"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("mutant line: %v", err)
		}
		mutants++
		k, err := ParseKind(m.Kind)
		if err != nil {
			t.Fatalf("mutant %d: %v", m.ID, err)
		}
		v, e := decodeJSON([]byte(m.Text))
		if e != nil {
			continue // not I-JSON: rejected before either sees it
		}
		fast, schema := fastAgainstSchemas(t, "mutant "+m.Kind, k, v)
		count(k, fast, schema)
	}
	if mutants != 20000 {
		t.Fatalf("read %d mutants, want 20000", mutants)
	}
	for _, k := range []Kind{KindRequest, KindResponse, KindReceipt} {
		c := counts[k]
		t.Logf("%s: %d documents, %d valid by the schema, %d of them by the fast path", k, c.total, c.schema, c.fast)
		if c.fast == 0 {
			t.Errorf("%s: the fast path was sure of no document", k)
		}
	}
}

// valuePool holds, for each member name, distinct values the vectors give it (at most poolPerName each).
type valuePool map[string][]any

const poolPerName = 8

func (p valuePool) add(name string, v any) {
	text := string(CompactJSON(v))
	if len(text) > 4096 || len(p[name]) >= poolPerName {
		return
	}
	for _, x := range p[name] {
		if string(CompactJSON(x)) == text {
			return
		}
	}
	p[name] = append(p[name], v)
}

// specials are values tried at every member besides the pool's: each JSON type, empty and edge spellings, and the
// numbers at every numeric bound of the schemas.
var specials = []any{nil, true, false, json.Number("0"), json.Number("1"), json.Number("-1"), json.Number("1.5"),
	json.Number("1.0"), json.Number("1e0"), json.Number("0.00"), json.Number("-0"), json.Number("0.5"),
	json.Number("1.01"), json.Number("1.00"), json.Number("2"), json.Number("16000"), json.Number("16001"),
	json.Number("86400"), json.Number("86401"), json.Number("5.0"), "", "x", "2026-07-30", map[string]any{},
	[]any{}, []any{"x"}, []any{"x", "x"}, []any{1}}

// stringSpecials are tried at members whose value is a string: strings at every length bound of the schemas, in
// ASCII and in characters beyond the BMP (four bytes, two UTF-16 units, one code point each).
var stringSpecials = func() []any {
	var out []any
	for _, n := range []int{1, 7, 8, 128, 129, 256, 257, 512, 513, 1000, 1001, 2048, 2049, 4000, 4001, 4096, 4097} {
		out = append(out, strings.Repeat("a", n), strings.Repeat("\U0001F600", n), "/"+strings.Repeat("~", n-1))
	}
	return out
}()

// eachVariant calls f with copies of base each changed in one place: at every object inside it, every member
// deleted, replaced by every pool value of its name and every special, and every pool name added with each of its
// values.
func eachVariant(base map[string]any, pool valuePool, f func(what string, v any)) {
	var at func(path []string, obj map[string]any, rebuild func(map[string]any) any)
	at = func(path []string, obj map[string]any, rebuild func(map[string]any) any) {
		with := func(change func(map[string]any)) any {
			c := make(map[string]any, len(obj)+1)
			for k, v := range obj {
				c[k] = v
			}
			change(c)
			return rebuild(c)
		}
		where := "/" + filepath.Join(path...)
		for name, v := range obj {
			f(where+" drop "+name, with(func(c map[string]any) { delete(c, name) }))
			tries := append(append([]any{}, pool[name]...), specials...)
			if _, ok := v.(string); ok {
				tries = append(tries, stringSpecials...)
			}
			for _, x := range tries {
				f(where+" set "+name, with(func(c map[string]any) { c[name] = x }))
			}
			if sub, ok := v.(map[string]any); ok {
				at(append(path, name), sub, func(s map[string]any) any {
					return with(func(c map[string]any) { c[name] = s })
				})
			}
		}
		for name, xs := range pool {
			if _, ok := obj[name]; ok {
				continue
			}
			for _, x := range xs {
				f(where+" add "+name, with(func(c map[string]any) { c[name] = x }))
			}
		}
	}
	at(nil, base, func(c map[string]any) any { return c })
}
