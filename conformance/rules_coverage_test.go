package conformance_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/internal/collectorrules"
)

// collectorCodes are the paired-check codes a collector applies when a response is submitted (§5.4). Two
// request–response codes are left out: query_mismatch, because a collector looks the query up by the response's
// queryId and answers another one with unknown_query, and invalid_request, because a collector issues its own
// requests.
var collectorCodes = map[string]bool{
	"subject_mismatch":    true,
	"respondent_mismatch": true,
	"answer_invalid":      true,
	"consent_required":    true,
	"consent_mismatch":    true,
	"expired":             true,
}

// ruleMembers are, for each collector code, the members the rule reads: pointers into the request (the issued
// draft, whose members are the request's, D9) and into the response. A scenario sends a vector's rule when its
// draft and its submitted response agree with the vector's request and response on every one of them.
var ruleMembers = map[string]struct{ request, response []string }{
	"subject_mismatch":    {[]string{"subject"}, []string{"subject"}},
	"respondent_mismatch": {[]string{"requestedRespondent"}, []string{"respondent/kind"}},
	"answer_invalid":      {[]string{"response"}, []string{"answer"}},
	"consent_required":    {[]string{"consentMode"}, []string{"consent"}},
	"consent_mismatch":    {[]string{"consentMode", "consentScope"}, []string{"consent", "createdAt"}},
	"expired":             {nil, nil},
}

// notApplied starts the entry of a vector whose rule a collector judges in its own way; the entry then names the
// scenario that proves the collector's form of the rule, which must still expect the vector's code.
const notApplied = "not applied by a collector:"

// ruleCoverage says which collector scenario sends a paired vector's rule to a collector.
type ruleCoverage struct {
	// scenario is the collector scenario's name.
	scenario string
	// reason, when set, starts with notApplied and says why the scenario proves the collector's form of the rule
	// rather than sending the vector's members.
	reason string
}

// expiredByClock is the reason of every expired vector: D37 has the collector judge expiry by its own clock and
// accept a createdAt only within 15 minutes of when the response is received, so a createdAt after expiresAt
// while the clock is before it is a response dated in the future.
const expiredByClock = notApplied + " D37 judges expiry by the collector's clock and createdAt within 15 minutes of receivedAt"

// rulesCovered pairs every invalid request–response paired vector whose first code a collector applies with the
// collector scenario that sends it. A new such vector without an entry fails TestEveryCollectorRuleIsSent, as does an
// entry whose scenario is renamed away or no longer sends the vector's members.
var rulesCovered = map[string]ruleCoverage{
	"paired/subject_mismatch/different-id":                                        {scenario: "collector/subject_mismatch/different-id"},
	"paired/subject_mismatch/id-differs-only-in-case":                             {scenario: "collector/subject_mismatch/id-differs-only-in-case"},
	"paired/subject_mismatch/different-kind":                                      {scenario: "collector/subject_mismatch/different-kind"},
	"paired/subject_mismatch/different-protocol":                                  {scenario: "collector/subject_mismatch/different-protocol"},
	"paired/subject_mismatch/protocol-on-one-side-only":                           {scenario: "collector/subject_mismatch/protocol-on-one-side-only"},
	"paired/subject_mismatch/idScope-differs-when-both-carry-it":                  {scenario: "collector/subject_mismatch/idScope-differs-when-both-carry-it"},
	"paired/respondent_mismatch/human-requested-agent-answered":                   {scenario: "collector/respondent_mismatch/human-requested-agent-answered"},
	"paired/respondent_mismatch/system-requested-human-answered":                  {scenario: "collector/respondent_mismatch/system-requested-human-answered"},
	"paired/answer_invalid/text-over-maxLength":                                   {scenario: "collector/answer_invalid/text-over-maxLength"},
	"paired/answer_invalid/text-over-maxLength-in-combining-marks":                {scenario: "collector/answer_invalid/text-over-maxLength-in-combining-marks"},
	"paired/answer_invalid/text-maxLength-written-5.0-is-enforced":                {scenario: "collector/answer_invalid/text-maxLength-written-5.0-is-enforced"},
	"paired/answer_invalid/text-given-a-number":                                   {scenario: "collector/answer_invalid/text-given-a-number"},
	"paired/answer_invalid/choice-not-in-set":                                     {scenario: "collector/answer_invalid/choice-not-in-set"},
	"paired/answer_invalid/choice-differs-in-case":                                {scenario: "collector/answer_invalid/choice-differs-in-case"},
	"paired/answer_invalid/choice-with-trailing-space":                            {scenario: "collector/answer_invalid/choice-with-trailing-space"},
	"paired/answer_invalid/choice-given-its-index":                                {scenario: "collector/answer_invalid/choice-given-its-index"},
	"paired/answer_invalid/choice-is-not-unicode-normalised":                      {scenario: "collector/answer_invalid/choice-is-not-unicode-normalised"},
	"paired/answer_invalid/boolean-given-string-true":                             {scenario: "collector/answer_invalid/boolean-given-string-true"},
	"paired/answer_invalid/boolean-given-1":                                       {scenario: "collector/answer_invalid/boolean-given-1"},
	"paired/answer_invalid/number-given-a-string":                                 {scenario: "collector/answer_invalid/number-given-a-string"},
	"paired/answer_invalid/number-given-a-boolean":                                {scenario: "collector/answer_invalid/number-given-a-boolean"},
	"paired/answer_invalid/number-rejected-by-jsonSchema":                         {scenario: "collector/answer_invalid/number-rejected-by-jsonSchema"},
	"paired/answer_invalid/structured-nested-type-failure":                        {scenario: "collector/answer_invalid/structured-nested-type-failure"},
	"paired/answer_invalid/structured-nested-missing-member":                      {scenario: "collector/answer_invalid/structured-nested-missing-member"},
	"paired/answer_invalid/structured-unknown-member":                             {scenario: "collector/answer_invalid/structured-unknown-member"},
	"paired/answer_invalid/structured-given-a-string":                             {scenario: "collector/answer_invalid/structured-given-a-string"},
	"paired/answer_invalid/structured-over-maxLength-counted-on-compact-json":     {scenario: "collector/answer_invalid/structured-over-maxLength-counted-on-compact-json"},
	"paired/answer_invalid/structured-string-maxLength-counts-the-quotes":         {scenario: "collector/answer_invalid/structured-string-maxLength-counts-the-quotes"},
	"paired/answer_invalid/structured-maxLength-one-below-canonical-with-escapes": {scenario: "collector/answer_invalid/structured-maxLength-one-below-canonical-with-escapes"},
	"paired/answer_invalid/structured-maxLength-counts-numbers-canonically":       {scenario: "collector/answer_invalid/structured-maxLength-counts-numbers-canonically"},
	"paired/answer_invalid/ecma-262-dot-does-not-match-a-line-separator":          {scenario: "collector/answer_invalid/ecma-262-dot-does-not-match-a-line-separator"},
	"paired/answer_invalid/uri-reference-with-a-space":                            {scenario: "collector/answer_invalid/uri-reference-with-a-space"},
	"paired/answer_invalid/format-regex-with-a-lookahead":                         {scenario: "collector/answer_invalid/format-regex-with-a-lookahead"},
	"paired/answer_invalid/jsonSchema-applies-to-text":                            {scenario: "collector/answer_invalid/jsonSchema-applies-to-text"},
	"paired/answer_invalid/jsonSchema-applies-to-choice":                          {scenario: "collector/answer_invalid/jsonSchema-applies-to-choice"},
	"paired/answer_invalid/null-for-format-text":                                  {scenario: "collector/answer_invalid/null-for-format-text"},
	"paired/answer_invalid/null-for-format-choice":                                {scenario: "collector/answer_invalid/null-for-format-choice"},
	"paired/answer_invalid/null-for-format-boolean":                               {scenario: "collector/answer_invalid/null-for-format-boolean"},
	"paired/answer_invalid/null-for-format-number":                                {scenario: "collector/answer_invalid/null-for-format-number"},
	"paired/answer_invalid/null-for-format-structured":                            {scenario: "collector/answer_invalid/null-for-format-structured"},
	"paired/consent_required/ask_once-without-consent":                            {scenario: "collector/consent_required/ask-once-without-consent"},
	"paired/consent_required/ask_always-without-consent":                          {scenario: "collector/consent_required/ask-always-without-consent"},
	"paired/consent_mismatch/ask_once-scope-differs":                              {scenario: "collector/consent_mismatch/ask_once-scope-differs"},
	"paired/consent_mismatch/ask_once-scope-absent":                               {scenario: "collector/consent_mismatch/ask_once-scope-absent"},
	"paired/consent_mismatch/ask_always-with-scope":                               {scenario: "collector/consent_mismatch/ask_always-with-scope"},
	"paired/consent_mismatch/obtainedAt-after-createdAt":                          {scenario: "collector/consent_mismatch/obtainedAt-after-createdAt"},
	"paired/consent_mismatch/obtainedAt-after-createdAt-even-when-not-required":   {scenario: "collector/consent_mismatch/obtainedAt-after-createdAt-even-when-not-required"},
	"paired/consent_mismatch/obtainedAt-later-instant-with-negative-offset":       {scenario: "collector/consent_mismatch/obtainedAt-later-instant-with-negative-offset"},
	"paired/consent_mismatch/two-failures-one-code":                               {scenario: "collector/consent_mismatch/two-failures-one-code"},
	"paired/expired/createdAt-after-expiresAt":                                    {scenario: "collector/expired/created-after-expires-at", reason: expiredByClock},
	"paired/expired/by-one-millisecond":                                           {scenario: "collector/expired/created-after-expires-at", reason: expiredByClock},
	"paired/expired/createdAt-with-offset-after-expiry":                           {scenario: "collector/expired/past-expiry", reason: expiredByClock},
}

// collectorRuleVectors returns the paired vectors rulesCovered must cover: a request and a response without a
// receipt, invalid, whose first code is one a collector applies.
func collectorRuleVectors(t *testing.T) map[string]conformance.Paired {
	t.Helper()
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]conformance.Paired{}
	for _, f := range c.Paired {
		for _, v := range f.Vectors {
			if conformance.Present(v.Request) == nil || conformance.Present(v.Response) == nil ||
				conformance.Present(v.Receipt) != nil || v.Valid || len(v.Codes) == 0 || !collectorCodes[v.Codes[0]] {
				continue
			}
			out[v.Name] = v
		}
	}
	return out
}

// member returns the value at a slash-separated path of members in doc, and whether it is present.
func member(t *testing.T, doc json.RawMessage, path string) (any, bool) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	for _, name := range strings.Split(path, "/") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[name]; !ok {
			return nil, false
		}
	}
	return v, v != nil
}

// agrees reports the first of paths on which a and b differ ("" when they agree on all).
func agrees(t *testing.T, a, b json.RawMessage, paths []string) string {
	t.Helper()
	for _, p := range paths {
		va, oka := member(t, a, p)
		vb, okb := member(t, b, p)
		if oka != okb || !reflect.DeepEqual(va, vb) {
			return p
		}
	}
	return ""
}

// sends reports whether sc has a submit step expecting code whose response, and the draft of the query whose
// capability it carries, agree with v on the members rule reads; mismatch says where the nearest step differs.
func sends(t *testing.T, sc conformance.Scenario, v conformance.Paired, code string, members bool) (ok bool, mismatch string) {
	t.Helper()
	drafts := map[string]json.RawMessage{}
	rule := ruleMembers[code]
	mismatch = "no submit step expects " + code
	for _, st := range sc.Steps {
		if st.Do == "issue" && st.As != "" {
			drafts[st.As] = st.Draft
		}
		if st.Do != "submit" || st.Expect == nil || st.Expect.Code != code {
			continue
		}
		if !members {
			return true, ""
		}
		draft, issued := drafts[st.Capability]
		if !issued || st.Response == nil {
			mismatch = "the submit step expecting " + code + " carries no issued query's capability or no response"
			continue
		}
		if p := agrees(t, v.Request, draft, rule.request); p != "" {
			mismatch = "its draft differs from the vector's request at /" + p
			continue
		}
		if p := agrees(t, v.Response, st.Response, rule.response); p != "" {
			mismatch = "its response differs from the vector's at /" + p
			continue
		}
		return true, ""
	}
	return false, mismatch
}

// TestEveryCollectorRuleIsSent proves that every rule a collector applies at submission, as a paired vector states
// it, is also sent to a collector by a scenario: a validator that judges the vector right proves nothing about a
// collector that never receives it.
func TestEveryCollectorRuleIsSent(t *testing.T) {
	vectors := collectorRuleVectors(t)
	files, err := conformance.LoadScenarios(conformance.ScenarioFiles)
	if err != nil {
		t.Fatal(err)
	}
	scenarios := map[string]conformance.Scenario{}
	for _, f := range files {
		for _, sc := range f.Scenarios {
			scenarios[sc.Name] = sc
		}
	}
	names := make([]string, 0, len(vectors))
	for name := range vectors {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v := vectors[name]
		t.Run(name, func(t *testing.T) {
			cov, ok := rulesCovered[name]
			if !ok {
				t.Fatalf("no entry in rulesCovered: name the collector scenario that sends %s (codes %v)", name, v.Codes)
			}
			if cov.reason != "" && !strings.HasPrefix(cov.reason, notApplied) {
				t.Fatalf("reason %q does not start with %q", cov.reason, notApplied)
			}
			sc, ok := scenarios[cov.scenario]
			if !ok {
				t.Fatalf("scenario %s does not exist", cov.scenario)
			}
			if ok, why := sends(t, sc, v, v.Codes[0], cov.reason == ""); !ok {
				t.Fatalf("scenario %s does not send %s: %s", cov.scenario, name, why)
			}
		})
	}
	for name := range rulesCovered {
		if _, ok := vectors[name]; !ok {
			t.Errorf("rulesCovered names %s, which is not an invalid request–response paired vector a collector applies", name)
		}
	}
}

// TestCollectorRulesFileIsRendered: the committed collector/rules.json is what conformance/internal/vectorgen writes
// from the committed paired vectors, so a paired vector changed in vectorgen's tables cannot leave its collector
// scenario sending the old one (run `make vectors`).
func TestCollectorRulesFileIsRendered(t *testing.T) {
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := collectorrules.Render(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := conformance.ScenarioFiles.ReadFile(collectorrules.File)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what vectorgen renders from the paired vectors: run make vectors", collectorrules.File)
	}
}
