package conformance_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
)

// skeletonInputs is every document text the corpus holds — standalone documents, paired documents, and every
// response a collector scenario submits — plus hostile bodies aimed at the members a skeleton keeps raw.
func skeletonInputs(t *testing.T) map[string][]byte {
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	files, err := conformance.LoadScenarios(conformance.ScenarioFiles)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string][]byte{}
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			in[v.Name] = v.Bytes()
		}
	}
	for _, f := range c.Paired {
		for _, v := range f.Vectors {
			for role, doc := range map[string][]byte{"request": v.Request, "response": v.Response, "receipt": v.Receipt, "duplicate": v.Duplicate} {
				if b := conformance.Present(doc); b != nil {
					in[v.Name+"#"+role] = b
				}
			}
		}
	}
	for _, f := range files {
		for _, sc := range f.Scenarios {
			for i, st := range sc.Steps {
				if st.ResponseText != nil {
					in[sc.Name+"#"+string(rune('0'+i))] = []byte(*st.ResponseText)
				} else if st.Response != nil {
					in[sc.Name+"#"+string(rune('0'+i))] = st.Response
				}
			}
		}
	}
	quick := string(in["quickstart/response-as-published-is-valid"])
	if quick == "" {
		t.Fatal("no quickstart response vector")
	}
	answer := func(a string) []byte { return []byte(strings.Replace(quick, `"answer": "partly"`, `"answer": `+a, 1)) }
	member := func(m string) []byte {
		return []byte(strings.Replace(quick, `"answer": "partly"`, `"answer": "partly", `+m, 1))
	}
	zeros := "[" + strings.Repeat("0,", 100000) + "0]"
	for name, b := range map[string][]byte{
		"hostile/answer-array-only":       []byte(`{"answer":` + zeros + `}`),
		"hostile/big-answer-valid":        answer(zeros),
		"hostile/unknown-member":          member(`"junk": ` + zeros),
		"hostile/unknown-respondent-item": []byte(strings.Replace(quick, `"provenance": "direct"`, `"provenance": "direct", "x": `+zeros, 1)),
		"hostile/answer-too-deep":         answer(strings.Repeat("[", core.MaxDepth) + strings.Repeat("]", core.MaxDepth)),
		"hostile/answer-at-depth-bound":   answer(strings.Repeat("[", core.MaxDepth-1) + strings.Repeat("]", core.MaxDepth-1)),
		"hostile/unknown-too-deep":        member(`"x": ` + strings.Repeat("{\"a\":", core.MaxDepth) + "1" + strings.Repeat("}", core.MaxDepth)),
		"hostile/answer-duplicate-inside": answer(`{"a":1,"a":2}`),
		"hostile/answer-lone-surrogate":   answer(`["\udc00"]`),
		"hostile/answer-truncated":        []byte(strings.Split(string(answer(`[1,2,`)), "[1,2,")[0] + "[1,2,"),
		"hostile/answer-bad-token":        answer(`[1,2,}`),
		"hostile/answer-duplicated":       member(`"answer": "no"`),
		"hostile/unknown-duplicated":      member(`"x": 1, "x": 2`),
		"hostile/answer-big-numbers":      answer(`[1e400, 9007199254740993, -0.0, "\u00e9"]`),
	} {
		in[name] = b
	}
	return in
}

// TestSkeletonMatchesFullDecoding proves DecodeSkeleton + Parse reaches exactly the verdict and errors Parse reaches,
// for every kind, over the whole corpus and the hostile bodies; and that the values encode to the same canonical
// bytes (a raw member canonicalised from its text, as the content hash does, and after CheckResponse decodes it).
func TestSkeletonMatchesFullDecoding(t *testing.T) {
	inputs := skeletonInputs(t)
	checked := 0
	for name, data := range inputs {
		for _, kind := range []core.Kind{core.KindRequest, core.KindResponse, core.KindReceipt} {
			full := core.Parse(kind, data)
			var lazy *core.Document
			skel, err := core.DecodeSkeleton(kind, data)
			if skel == nil {
				var e *core.Error
				if !errors.As(err, &e) {
					t.Fatalf("%s as %s: DecodeSkeleton: %v", name, kind, err)
				}
				x := *e
				x.Code = full.Errors[0].Code
				lazy = &core.Document{Errors: core.Errors{x}}
			} else {
				lazy = skel.Parse()
			}
			if !reflect.DeepEqual(full.Errors, lazy.Errors) {
				t.Errorf("%s as %s:\n full: %v\n lazy: %v", name, kind, full.Errors, lazy.Errors)
				continue
			}
			if full.Valid() {
				a, errA := core.EncodeCanonical(full.Value)
				b, errB := core.EncodeCanonical(lazy.Value)
				if errA != nil || errB != nil || !bytes.Equal(a, b) {
					t.Errorf("%s as %s: canonical values differ (%v, %v):\n full %.200s\n lazy %.200s", name, kind, errA, errB, a, b)
				}
			}
			checked++
		}
	}
	t.Logf("%d inputs × 3 kinds: %d agree", len(inputs), checked)
}

// TestSkeletonPairedChecks runs every paired vector with its response decoded lazily: the paired checks (which
// decode the answer when the contract needs it) reach the same errors.
func TestSkeletonPairedChecks(t *testing.T) {
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Paired {
		for _, v := range f.Vectors {
			want := core.ValidatePair(pairOf(v))
			p := pairOf(v)
			if b := conformance.Present(v.Response); b != nil {
				skel, _ := core.DecodeSkeleton(core.KindResponse, b)
				if skel == nil {
					continue
				}
				p.Response = skel.Parse()
			}
			if got := core.ValidatePair(p); !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\n full: %v\n lazy: %v", v.Name, want, got)
			}
		}
	}
}
