package collector_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/core/collector"
)

// fuzzRules make every acceptance carry a continuation, so that the fuzzer reaches the continuation checks too.
const fuzzRules = `{"rules":[{"name":"always","draft":{"type":"feedback","prompt":"Why?","timing":"immediate","consentMode":"not_required","response":{"format":"text"}}}]}`

// FuzzSubmit submits arbitrary bytes to a collector on a memory store holding one issued query of each response
// format (ids 0198c7cb-1af1-7e79-bd7f-000000000001 … 6, in the order of fuzzFormats), presenting the right
// capability, none, another query's, or a malformed one (auth 0–3). Every outcome must be a problem or a receipt
// that is valid against the receipt schema and pairs with the response (core.CheckPair); an accepted response
// must pair with its request too, and a second submission of the same bytes must get the same receipt.
func FuzzSubmit(f *testing.F) {
	for i, q := range fuzzFormats {
		id := "0198c7cb-1af1-7e79-bd7f-00000000000" + itoa(i+1)
		f.Add(response(id, "0198c7d0-2180-7729-b005-d33c99fc7452", fuzzAnswers[q]), uint8(1))
		f.Add(response(id, "0198c7d0-2180-7729-b005-d33c99fc7452", `"x"`), uint8(0))
	}
	f.Fuzz(func(t *testing.T, body []byte, auth uint8) {
		f := newFixture(t, fuzzRules)
		ctx := context.Background()
		requests, auths := map[string][]byte{}, map[string]string{}
		var ids []string
		for _, q := range fuzzFormats {
			req, err := f.c.Issue(ctx, []byte(hostileDraft(hostileDrafts[q])))
			if err != nil {
				t.Fatal(err)
			}
			doc := core.Parse(core.KindRequest, req)
			id := doc.Object()["queryId"].(string)
			ids = append(ids, id)
			requests[id] = req
			auths[id] = doc.Object()["delivery"].(map[string]any)["authorization"].(string)
		}
		resp := core.Parse(core.KindResponse, body)
		named, _ := resp.Object()["queryId"].(string)
		named = strings.ToLower(named)
		authorization := ""
		switch auth % 4 {
		case 1:
			authorization = auths[named]
		case 2:
			authorization = auths[ids[(len(named)+int(auth))%len(ids)]]
		case 3:
			authorization = "Bearer " + strings.Repeat("A", int(auth))
		}
		for attempt := 0; attempt < 2; attempt++ {
			out := f.c.Submit(ctx, collector.Submission{Body: body, Authorization: authorization})
			if out.Problem != nil {
				if out.Receipt != nil {
					t.Fatalf("both a problem and a receipt: %s", out.Receipt)
				}
				if out.Problem.Detail == "" {
					t.Fatal("a problem without a detail")
				}
				return
			}
			rec := core.Parse(core.KindReceipt, out.Receipt)
			if !rec.Valid() {
				t.Fatalf("receipt invalid against the receipt schema: %v\n%.2000s", rec.Errors, out.Receipt)
			}
			p := core.Pair{Response: resp, Receipt: rec}
			if out.Accepted {
				p.Request = core.Parse(core.KindRequest, requests[named])
			}
			if errs := core.CheckPair(p); len(errs) > 0 {
				t.Fatalf("receipt does not pair: %v\n%.2000s", errs, out.Receipt)
			}
			if !out.Accepted {
				return
			}
			if attempt == 1 && !out.Duplicate {
				t.Fatalf("a second submission of an accepted response is not a duplicate: %s", out.Receipt)
			}
			if attempt == 0 {
				first := out.Receipt
				again := f.c.Submit(ctx, collector.Submission{Body: body, Authorization: authorization})
				if !bytes.Equal(again.Receipt, first) {
					t.Fatalf("duplicate receipt differs:\n%s\n%s", first, again.Receipt)
				}
			}
		}
	})
}

// fuzzFormats are the queries the fuzzed collector holds, in issue order.
var fuzzFormats = []string{"text", "choice", "boolean", "number", "structured", "closed"}

// fuzzAnswers are answers each query accepts.
var fuzzAnswers = map[string]string{
	"text": `"short"`, "choice": `"yes"`, "boolean": `true`, "number": `7`, "structured": `[[],[[]]]`, "closed": `{}`,
}
