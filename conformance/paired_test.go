package conformance_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
)

// pairOf parses each document a paired vector holds into a core.Pair.
func pairOf(v conformance.Paired) core.Pair {
	parse := func(kind core.Kind, doc []byte) *core.Document {
		if b := conformance.Present(doc); b != nil {
			return core.Parse(kind, b)
		}
		return nil
	}
	return core.Pair{
		Request:   parse(core.KindRequest, v.Request),
		Response:  parse(core.KindResponse, v.Response),
		Receipt:   parse(core.KindReceipt, v.Receipt),
		Duplicate: parse(core.KindReceipt, v.Duplicate),
	}
}

// codesOf lists the distinct codes of errs in order, as strings.
func codesOf(errs core.Errors) []string {
	out := []string{}
	for _, c := range errs.Codes() {
		out = append(out, string(c))
	}
	return out
}

var _ = Describe("paired vectors against core.ValidatePair", func() {
	if corpus == nil {
		return
	}
	for _, f := range corpus.Paired {
		Describe(f.Path, func() {
			for _, v := range f.Vectors {
				It(v.Name, func() {
					errs := core.ValidatePair(pairOf(v))
					Expect(len(errs) == 0).To(Equal(v.Valid), "verdict (core reported: %s)", errs.String())
					Expect(codesOf(errs)).To(Equal(v.Codes), "codes in order (core reported: %s)", errs.String())
				})
			}
		})
	}
})

// Paired vectors carry codes only; these specs pin where core points for the answer vectors whose description
// names a pointer, so that a deep jsonSchema failure is reported deep inside /answer and not at /answer itself.
var _ = Describe("answer_invalid pointers", func() {
	for _, c := range []struct {
		vector, pointer, keyword string
	}{
		{"paired/answer_invalid/structured-nested-type-failure", "/answer/details/steps/1/ok", "type"},
		{"paired/answer_invalid/structured-nested-missing-member", "/answer/details/steps/0/id", "required"},
		{"paired/answer_invalid/structured-unknown-member", "/answer/comment", "additionalProperties"},
		{"paired/answer_invalid/text-over-maxLength", "/answer", "maxLength"},
	} {
		It(c.vector+" points at "+c.pointer, func() {
			Expect(corpusErr).NotTo(HaveOccurred())
			v, found := pairedByName(c.vector)
			Expect(found).To(BeTrue(), "no vector %s", c.vector)
			errs := core.ValidatePair(pairOf(v))
			Expect(errs).To(HaveLen(1), errs.String())
			Expect(errs[0].Code).To(Equal(core.CodeAnswerInvalid))
			Expect(errs[0].Document).To(Equal(core.RoleResponse))
			Expect(errs[0].Pointer).To(Equal(c.pointer))
			Expect(errs[0].Keyword).To(Equal(c.keyword))
		})
	}
})

func pairedByName(name string) (conformance.Paired, bool) {
	for _, f := range corpus.Paired {
		for _, v := range f.Vectors {
			if v.Name == name {
				return v, true
			}
		}
	}
	return conformance.Paired{}, false
}
