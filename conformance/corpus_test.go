package conformance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	vectorgen "github.com/agentqueryprotocol/aqp-go/conformance/internal/vectorgen/corpus"
)

var _ = Describe("the vector corpus", func() {
	It("loads: every vector file is a well-formed vector file", func() {
		Expect(corpusErr).NotTo(HaveOccurred())
		Expect(corpus.Standalone).NotTo(BeEmpty())
		Expect(corpus.Paired).NotTo(BeEmpty())
	})

	It("holds at least 120 vectors", func() {
		Expect(corpusErr).NotTo(HaveOccurred())
		Expect(corpus.Count()).To(BeNumerically(">=", 120))
	})

	It("names every vector uniquely", func() {
		Expect(corpusErr).NotTo(HaveOccurred())
		seen := map[string]int{}
		for _, n := range corpus.Names() {
			seen[n]++
		}
		var dups []string
		for n, c := range seen {
			if c > 1 {
				dups = append(dups, n)
			}
		}
		sort.Strings(dups)
		Expect(dups).To(BeEmpty(), "vector names used more than once")
		Expect(seen).To(HaveLen(corpus.Count()))
	})

	It("lists each standalone vector's expected errors once each", func() {
		Expect(corpusErr).NotTo(HaveOccurred())
		for _, f := range corpus.Standalone {
			for _, v := range f.Vectors {
				seen := map[conformance.ExpectedError]bool{}
				for _, e := range v.Errors {
					Expect(seen[e]).To(BeFalse(), "%s: %s listed twice", v.Name, e)
					seen[e] = true
				}
			}
		}
	})

	It("is exactly what the generator writes", func() {
		want, err := vectorgen.Generate()
		Expect(err).NotTo(HaveOccurred())
		got := map[string][]byte{}
		for _, dir := range []string{conformance.StandaloneDir, conformance.PairedDir, conformance.CarriageDir} {
			entries, err := os.ReadDir(dir)
			Expect(err).NotTo(HaveOccurred())
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				Expect(err).NotTo(HaveOccurred())
				got[filepath.Base(dir)+"/"+e.Name()] = b
			}
		}
		Expect(sortedKeys(got)).To(Equal(sortedKeys(want)), "the committed files differ from the generator's; run `make vectors`")
		for p, b := range want {
			Expect(string(got[p])).To(Equal(string(b)), "%s differs from the generator's output; run `make vectors`", p)
		}
	})

	It("embeds the committed files unchanged", func() {
		for _, dir := range []string{conformance.StandaloneDir, conformance.PairedDir, conformance.CarriageDir} {
			entries, err := os.ReadDir(dir)
			Expect(err).NotTo(HaveOccurred())
			for _, e := range entries {
				onDisk, err := os.ReadFile(filepath.Join(dir, e.Name()))
				Expect(err).NotTo(HaveOccurred())
				embedded, err := conformance.Files.ReadFile(dir + "/" + e.Name())
				Expect(err).NotTo(HaveOccurred())
				Expect(embedded).To(Equal(onDisk), "%s/%s: rebuild after regenerating", dir, e.Name())
			}
		}
	})

	It("keeps the Quickstart vectors equal to the objects in examples/", func() {
		Expect(corpusErr).NotTo(HaveOccurred())
		standalone := map[string]json.RawMessage{}
		for _, f := range corpus.Standalone {
			for _, v := range f.Vectors {
				standalone[v.Name] = v.Document
			}
		}
		var triple *conformance.Paired
		for _, f := range corpus.Paired {
			for i, v := range f.Vectors {
				if v.Name == "paired/valid/quickstart-triple" {
					triple = &f.Vectors[i]
				}
			}
		}
		Expect(triple).NotTo(BeNil(), "paired/valid/quickstart-triple is missing")
		for _, c := range []struct {
			doc     json.RawMessage
			example string
		}{
			{standalone["quickstart/request-as-published-is-invalid"], "quickstart-request.json"},
			{standalone["quickstart/request-corrected-is-valid"], "quickstart-request-corrected.json"},
			{standalone["quickstart/response-as-published-is-valid"], "quickstart-response.json"},
			{standalone["quickstart/receipt-as-published-is-valid"], "quickstart-receipt.json"},
			{triple.Request, "quickstart-request-corrected.json"},
			{triple.Response, "quickstart-response.json"},
			{triple.Receipt, "quickstart-receipt.json"},
		} {
			Expect(c.doc).NotTo(BeEmpty(), c.example)
			example, err := os.ReadFile(filepath.Join("..", "examples", c.example))
			Expect(err).NotTo(HaveOccurred())
			Expect(decode(c.doc)).To(Equal(decode(example)), c.example)
		}
	})
})

func sortedKeys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func decode(b []byte) any {
	var v any
	ExpectWithOffset(1, json.Unmarshal(b, &v)).To(Succeed())
	return v
}
