// Command differential is the Go half of the differential check `make interop` runs: mutants of every valid
// standalone vector (package mutate), validated by ajv and by core, must reach the same verdict — or differ for a
// reason a rule below names.
//
//	go run ./conformance/internal/differential emit [-n 20000] [-seed S] | node conformance/interop/differential.mjs | go run ./conformance/internal/differential compare
//
// emit writes the mutants as NDJSON; node adds ajv's verdict to each; compare validates each with core and
// classifies every disagreement. A disagreement no rule explains is printed with its document and fails the run
// (exit status 1); the summary line counts agreements and each class of explained disagreement.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/internal/mutate"
	"github.com/agentqueryprotocol/aqp-go/core"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: differential emit [-n N] [-seed S] | differential compare [-min N]")
		os.Exit(2)
	}
	var err error
	ok := true
	switch os.Args[1] {
	case "emit":
		fs := flag.NewFlagSet("emit", flag.ExitOnError)
		n := fs.Int("n", 20000, "how many mutants")
		seed := fs.Uint64("seed", 20260730, "the seed; the same seed gives the same mutants")
		_ = fs.Parse(os.Args[2:])
		err = emit(os.Stdout, *n, *seed)
	case "compare":
		fs := flag.NewFlagSet("compare", flag.ExitOnError)
		least := fs.Int("min", 20000, "fail when fewer mutants arrive")
		fs.IntVar(&maxShown, "show", 25, "print at most this many unexplained disagreements")
		_ = fs.Parse(os.Args[2:])
		if err = checkRules(); err != nil {
			break
		}
		ok, err = compare(os.Stdin, os.Stdout, *least)
	default:
		err = fmt.Errorf("unknown mode %q: want emit or compare", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "differential:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// bases are the valid standalone vectors a JSON Schema validator can judge: one JSON value, no AQP rule beyond
// the schema, no recorded deviation.
func bases() ([]mutate.Base, error) {
	c, err := conformance.Load()
	if err != nil {
		return nil, err
	}
	var out []mutate.Base
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			if !v.Valid || v.DocumentText != nil || v.BeyondJSONSchema != "" || len(v.KnownDeviations) > 0 {
				continue
			}
			doc, err := core.DecodeJSON(v.Document)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", v.Name, err)
			}
			out = append(out, mutate.Base{Name: v.Name, Kind: v.Kind, Value: doc})
		}
	}
	return out, nil
}

func emit(w io.Writer, n int, seed uint64) error {
	bs, err := bases()
	if err != nil {
		return err
	}
	facts, err := mutate.SchemaFacts()
	if err != nil {
		return err
	}
	g, err := mutate.New(seed, facts, bs)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for range n {
		if err := enc.Encode(g.Next()); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// checked is a mutant with ajv's verdict (nil: JSON.parse refused the text).
type checked struct {
	mutate.Mutant
	AJV       *bool    `json:"ajv"`
	AJVErrors []string `json:"ajvErrors"`
}

func compare(r io.Reader, w io.Writer, least int) (bool, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20) // a mutant is at most 1 MiB; escaped and with ajv's errors, a line is more
	var (
		total, agreeValid, agreeInvalid int
		classes                         = map[string]int{}
		unexplained                     []string
	)
	for sc.Scan() {
		var m checked
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return false, fmt.Errorf("reading node's output: %w", err)
		}
		if m.AJV == nil && m.AJVErrors == nil {
			f := false // JSON.parse refused the text: not a JSON value, which ajv never sees
			m.AJV = &f
		}
		total++
		kind, err := core.ParseKind(m.Kind)
		if err != nil {
			return false, fmt.Errorf("mutant %d: %w", m.ID, err)
		}
		errs := core.Validate(kind, []byte(m.Text))
		coreValid := len(errs) == 0
		switch {
		case coreValid && *m.AJV:
			agreeValid++
			continue
		case !coreValid && !*m.AJV:
			agreeInvalid++
			continue
		}
		if class, ok := classify(m, errs); ok {
			classes[class]++
			continue
		}
		unexplained = append(unexplained, describe(m, errs))
	}
	if err := sc.Err(); err != nil {
		return false, fmt.Errorf("reading node's output: %w", err)
	}
	for i, u := range unexplained {
		if i == maxShown {
			fmt.Fprintf(w, "... and %d more\n", len(unexplained)-maxShown)
			break
		}
		fmt.Fprintln(w, u)
	}
	names := make([]string, 0, len(classes))
	explained := 0
	for c, n := range classes {
		names = append(names, fmt.Sprintf("%s %d", c, n))
		explained += n
	}
	sort.Strings(names)
	fmt.Fprintf(w, "differential: %d mutants through core and ajv: %d agree (%d valid, %d invalid), %d explained disagreements [%s], %d unexplained\n",
		total, agreeValid+agreeInvalid, agreeValid, agreeInvalid, explained, strings.Join(names, "; "), len(unexplained))
	if total < least {
		fmt.Fprintf(w, "differential: only %d mutants arrived, want at least %d\n", total, least)
		return false, nil
	}
	return len(unexplained) == 0, nil
}

func describe(m checked, errs core.Errors) string {
	var b strings.Builder
	fmt.Fprintf(&b, "UNEXPLAINED mutant %d of %s (%s): core says %s, ajv says %s\n  mutations: %s\n",
		m.ID, m.Base, m.Kind, verdict(len(errs) == 0), verdict(*m.AJV), strings.Join(m.Mutations, "; "))
	for _, e := range errs {
		fmt.Fprintf(&b, "  core: %s\n", e.Error())
	}
	for _, e := range m.AJVErrors {
		fmt.Fprintf(&b, "  ajv:  %s\n", e)
	}
	fmt.Fprintf(&b, "  document: %s", m.Text)
	return b.String()
}

func verdict(v bool) string {
	if v {
		return "valid"
	}
	return "invalid"
}

// lookup returns the value at an RFC 6901 pointer of the text decoded leniently (the last of duplicate names, a
// lone surrogate replaced), or an error.
func lookup(text, ptr string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if ptr == "" {
		return v, nil
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, errors.New("no member " + tok)
			}
		case []any:
			var i int
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(x) {
				return nil, errors.New("no item " + tok)
			}
			v = x[i]
		default:
			return nil, errors.New("not a container")
		}
	}
	return v, nil
}

// maxShown bounds how many unexplained disagreements are printed in full.
var maxShown = 25
