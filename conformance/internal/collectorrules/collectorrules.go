// Package collectorrules renders conformance/vectors/collector/rules.json: one collector scenario for every invalid
// request–response paired vector whose first code a collector applies at submission (subject_mismatch,
// respondent_mismatch, answer_invalid, consent_required, consent_mismatch), so that every rule the paired vectors
// prove is also sent to a collector. Each scenario issues the vector's request as a draft (its members less
// protocolVersion, queryId, delivery and expiresAt, which the collector assigns) and submits the vector's response
// for the issued query, which must be rejected with the vector's first code. Vectors a hand-written scenario already
// sends (sentElsewhere) and the expired vectors (D37: the collector judges expiry by its own clock) get none.
// conformance/internal/vectorgen writes the file; conformance/rules_coverage_test.go checks the pairing and that the
// committed file is what Render gives.
package collectorrules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
)

// File is the scenario file Render produces, relative to the conformance folder.
const File = "vectors/collector/rules.json"

// generatedCodes are the codes whose vectors get a generated scenario.
var generatedCodes = []core.Code{core.CodeSubjectMismatch, core.CodeRespondentMismatch, core.CodeAnswerInvalid,
	core.CodeConsentRequired, core.CodeConsentMismatch}

// sentElsewhere are vectors a hand-written scenario already sends with the vector's members.
var sentElsewhere = map[string]bool{
	"paired/subject_mismatch/different-id":               true,
	"paired/consent_required/ask_once-without-consent":   true,
	"paired/consent_required/ask_always-without-consent": true,
}

// queryIDs are the queryIds every generated scenario's collector assigns.
var queryIDs = []string{
	"0198c7cb-1af1-7e79-bd7f-02f8a89b0001",
	"0198c7cb-1af1-7e79-bd7f-02f8a89b0002",
}

// responseID is the responseId of every generated submission.
const responseID = "0198c7d0-2180-7729-b005-d33c99fc0001"

type step struct {
	Do         string          `json:"do"`
	As         string          `json:"as,omitempty"`
	Draft      json.RawMessage `json:"draft,omitempty"`
	Response   json.RawMessage `json:"response,omitempty"`
	Capability string          `json:"capability,omitempty"`
	Expect     *expect         `json:"expect,omitempty"`
}

type expect struct {
	Status string `json:"status"`
	Code   string `json:"code"`
}

type scenario struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Requirements []string `json:"requirements"`
	Start        string   `json:"start"`
	QueryIDs     []string `json:"queryIds"`
	Steps        []step   `json:"steps"`
}

type file struct {
	Description string     `json:"description"`
	Scenarios   []scenario `json:"scenarios"`
}

// Render returns the rules.json the paired vectors of c give, and how many scenarios it holds.
func Render(c *conformance.Corpus) ([]byte, int, error) {
	out := file{Description: "Every rule an invalid request–response paired vector proves and a collector applies, sent to a collector: " +
		"the vector's request issued as a draft, its response submitted for the issued query (written by conformance/internal/vectorgen)."}
	for _, f := range c.Paired {
		for _, v := range f.Vectors {
			if conformance.Present(v.Request) == nil || conformance.Present(v.Response) == nil ||
				conformance.Present(v.Receipt) != nil || v.Valid || len(v.Codes) == 0 ||
				!slices.Contains(generatedCodes, core.Code(v.Codes[0])) || sentElsewhere[v.Name] {
				continue
			}
			sc, err := fromVector(v)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %w", v.Name, err)
			}
			out.Scenarios = append(out.Scenarios, sc)
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, 0, err
	}
	return buf.Bytes(), len(out.Scenarios), nil
}

// fromVector turns one paired vector into the scenario that sends it.
func fromVector(v conformance.Paired) (scenario, error) {
	draft, err := rewrite(v.Request, map[string]string{"protocolVersion": "", "queryId": "", "delivery": "", "expiresAt": ""})
	if err != nil {
		return scenario{}, err
	}
	response, err := rewrite(v.Response, map[string]string{"queryId": `"` + queryIDs[0] + `"`, "responseId": `"` + responseID + `"`})
	if err != nil {
		return scenario{}, err
	}
	reqs := append([]string{"AQP-COL-PAIRED"}, v.Requirements...)
	slices.Sort(reqs)
	code := v.Codes[0]
	return scenario{
		Name:         "collector/" + strings.TrimPrefix(v.Name, "paired/"),
		Description:  "The paired vector " + v.Name + ", sent to a collector, is rejected " + code + ": " + v.Description,
		Requirements: slices.Compact(reqs),
		Start:        "2026-07-30T17:00:00.000Z",
		QueryIDs:     queryIDs,
		Steps: []step{
			{Do: "issue", As: "q1", Draft: draft},
			{Do: "submit", Response: response, Capability: "q1", Expect: &expect{Status: "rejected", Code: code}},
		},
	}, nil
}

// rewrite returns the JSON object doc with the members named in set replaced by their JSON text, or dropped where
// it is "", keeping every other member's bytes and the members' order.
func rewrite(doc json.RawMessage, set map[string]string) (json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	out := []byte{'{'}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		name, _ := t.(string)
		var value json.RawMessage
		if err := d.Decode(&value); err != nil {
			return nil, err
		}
		if repl, ok := set[name]; ok {
			if repl == "" {
				continue
			}
			value = json.RawMessage(repl)
		}
		key, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, key...), ':'), value...)
	}
	return append(out, '}'), nil
}
