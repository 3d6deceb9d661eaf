package conformance_test

import (
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
)

var _ = Describe("standalone vectors against core.Parse", func() {
	if corpus == nil {
		return
	}
	for _, f := range corpus.Standalone {
		Describe(f.Path, func() {
			for _, v := range f.Vectors {
				It(v.Name, func() {
					kind, err := core.ParseKind(v.Kind)
					Expect(err).NotTo(HaveOccurred())
					doc := core.Parse(kind, v.Bytes())
					Expect(doc.Valid()).To(Equal(v.Valid), "verdict (core reported: %s)", doc.Errors.String())

					got := map[conformance.ExpectedError]int{}
					for _, e := range doc.Errors {
						Expect(e.Code).To(Equal(core.Code("invalid_"+v.Kind)), "code of %s", e.Error())
						got[conformance.ExpectedError{Pointer: e.Pointer, Keyword: e.Keyword}]++
					}
					for e, n := range got {
						Expect(n).To(Equal(1), "%s reported %d times; each cause is reported once", e, n)
					}
					want := map[conformance.ExpectedError]int{}
					for _, e := range v.Errors {
						want[e]++
					}
					Expect(errorList(got)).To(Equal(errorList(want)), "errors {pointer, keyword} (core reported: %s)", doc.Errors.String())
				})
			}
		})
	}
})

// errorList renders a set of errors as a sorted list of "pointer keyword", for readable failures.
func errorList(set map[conformance.ExpectedError]int) []string {
	out := []string{}
	for e := range set {
		out = append(out, e.String())
	}
	sort.Strings(out)
	return out
}
