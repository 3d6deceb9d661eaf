// Command reencode is the Go half of the re-encoding check `make interop` runs: the same response re-encoded by
// JavaScript's JSON.parse/JSON.stringify (what the TypeScript MCP SDK does to every message) must have the same
// canonical encoding, hence the same content hash and the same receipt on a retry (D16).
//
//	go run ./conformance/internal/reencode emit | node conformance/interop/reencode.mjs | go run ./conformance/internal/reencode check
//
// emit writes every valid standalone response vector and every response a collector scenario submits, plus
// numbers across the whole range of doubles; node re-encodes each; check requires, for every document, equal
// canonical encodings and the same validation errors — except where the original holds a number a double cannot
// hold exactly (node changes its value, and the difference is then required) — and, for every number, that the
// canonical text is what JSON.stringify writes (RFC 8785's number form). Exit status 1 on any failure.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
)

// document is one response text and, after node, its re-encoding.
type document struct {
	Name      string  `json:"name"`
	Text      string  `json:"text"`
	Reencoded *string `json:"reencoded,omitempty"`
}

// number is a number's text and, after node, JSON.stringify(JSON.parse(text)).
type number struct {
	Text        string  `json:"text"`
	Stringified *string `json:"stringified,omitempty"`
}

type batch struct {
	Documents []document `json:"documents"`
	Numbers   []number   `json:"numbers"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: reencode emit|check")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "emit":
		err = emit()
	case "check":
		var ok bool
		ok, err = check()
		if err == nil && !ok {
			os.Exit(1)
		}
	default:
		err = fmt.Errorf("unknown mode %q: want emit or check", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "reencode:", err)
		os.Exit(2)
	}
}

func emit() error {
	c, err := conformance.Load()
	if err != nil {
		return err
	}
	files, err := conformance.LoadScenarios(conformance.ScenarioFiles)
	if err != nil {
		return err
	}
	var b batch
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			if v.Kind == "response" && v.Valid {
				b.Documents = append(b.Documents, document{Name: v.Name, Text: string(v.Bytes())})
			}
		}
	}
	for _, f := range c.Paired {
		for _, v := range f.Vectors {
			if r := conformance.Present(v.Response); r != nil {
				b.Documents = append(b.Documents, document{Name: v.Name + "#response", Text: string(r)})
			}
		}
	}
	for _, f := range files {
		for _, sc := range f.Scenarios {
			for i, st := range sc.Steps {
				text := string(st.Response)
				if st.ResponseText != nil {
					text = *st.ResponseText
				}
				if st.Do == "submit" && json.Valid([]byte(text)) {
					b.Documents = append(b.Documents, document{Name: fmt.Sprintf("%s#step%d", sc.Name, i), Text: text})
				}
				for j, r := range st.Responses { // a race step's bodies
					b.Documents = append(b.Documents, document{Name: fmt.Sprintf("%s#step%d.%d", sc.Name, i, j), Text: string(r)})
				}
			}
		}
	}
	for _, s := range []string{"0", "-0", "1", "0.1", "0.9", "1e21", "1e20", "1e-6", "1e-7", "5e-324", "1.7976931348623157e308",
		"9007199254740992", "123456789", "0.000001234", "333333333.3333332", "1.2345e-300", "4.35", "100", "1e2", "-1.5e-10"} {
		b.Numbers = append(b.Numbers, number{Text: s})
	}
	r := rand.New(rand.NewPCG(2026, 730))
	for len(b.Numbers) < 5000 {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		b.Numbers = append(b.Numbers, number{Text: strconv.FormatFloat(f, 'g', -1, 64)})
	}
	for i := range 200 { // decimal-looking values, the kind respondents send
		b.Numbers = append(b.Numbers, number{Text: strconv.FormatFloat(float64(r.IntN(100000))/float64(1+r.IntN(1000)), 'f', -1, 64)}, number{Text: strconv.Itoa(i) + ".50"})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(b)
}

func check() (bool, error) {
	var b batch
	if err := json.NewDecoder(os.Stdin).Decode(&b); err != nil {
		return false, fmt.Errorf("reading node's output: %w", err)
	}
	ok := true
	fail := func(format string, args ...any) {
		ok = false
		fmt.Printf("FAIL "+format+"\n", args...)
	}
	same, lossy, notIJSON := 0, 0, 0
	for _, d := range b.Documents {
		if d.Reencoded == nil {
			fail("%s: node returned no re-encoding", d.Name)
			continue
		}
		orig, err := core.DecodeJSON([]byte(d.Text))
		if err != nil {
			notIJSON++ // JSON but not I-JSON (a scenario's rejected body): there is no content to keep
			continue
		}
		re, err := core.DecodeJSON([]byte(*d.Reencoded))
		if err != nil {
			fail("%s: node's re-encoding does not decode: %v", d.Name, err)
			continue
		}
		a, errA := core.EncodeCanonical(orig)
		z, errZ := core.EncodeCanonical(re)
		if errA != nil || errZ != nil {
			fail("%s: %v %v", d.Name, errA, errZ)
			continue
		}
		if !doubleExact(orig) {
			if bytes.Equal(a, z) {
				fail("%s: a number beyond a double survived node unchanged?", d.Name)
			}
			lossy++
			continue
		}
		if !bytes.Equal(a, z) {
			fail("%s: canonical encodings differ\n  original:   %s\n  re-encoded: %s", d.Name, a, z)
			continue
		}
		ve, vr := core.Validate(core.KindResponse, []byte(d.Text)), core.Validate(core.KindResponse, []byte(*d.Reencoded))
		if !reflect.DeepEqual(ve, vr) {
			fail("%s: validation differs\n  original:   %v\n  re-encoded: %v", d.Name, ve, vr)
			continue
		}
		same++
	}
	numbers := 0
	for _, n := range b.Numbers {
		got, err := core.EncodeCanonical(json.Number(n.Text))
		switch {
		case n.Stringified == nil:
			fail("number %s: node returned nothing", n.Text)
		case err != nil:
			fail("number %s: %v", n.Text, err)
		case exactDouble(n.Text) && string(got) != *n.Stringified:
			fail("number %s: canonical %s, JSON.stringify %s", n.Text, got, *n.Stringified)
		default:
			numbers++
		}
	}
	fmt.Printf("reencode: %d documents keep their canonical encoding and verdict through JSON.parse/JSON.stringify, %d change as they must (a number beyond a double), %d are not I-JSON; %d of %d numbers canonicalise as JSON.stringify writes them\n",
		same, lossy, notIJSON, numbers, len(b.Numbers))
	return ok, nil
}

// doubleExact reports whether every number in v is a double's exact value written in few enough digits that a
// double holds it: then JSON.parse/JSON.stringify keeps the value.
func doubleExact(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return exactDouble(string(x))
	case map[string]any:
		for _, e := range x {
			if !doubleExact(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !doubleExact(e) {
				return false
			}
		}
	}
	return true
}

// exactDouble: the number's value survives a round trip through a double (its canonical text equals that of the
// double's shortest representation).
func exactDouble(text string) bool {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		return false
	}
	a, _ := core.EncodeCanonical(json.Number(text))
	b, _ := core.EncodeCanonical(json.Number(strconv.FormatFloat(f, 'g', -1, 64)))
	return bytes.Equal(a, b)
}
