package conformance

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
)

// ScenarioDir is the folder of collector scenario vectors.
const ScenarioDir = "vectors/collector"

// ScenarioFile is one file of collector scenarios.
type ScenarioFile struct {
	// Path is the file's path relative to the corpus root.
	Path string
	// Description says what the file's scenarios cover.
	Description string `json:"description"`
	// Scenarios are the file's scenarios in file order.
	Scenarios []Scenario `json:"scenarios"`
}

// Scenario is a collector conversation: queries issued, responses submitted, the clock moved, and the receipt each
// submission must get. It runs against the collector's core and against every binding, and all of them must
// return the same receipts.
type Scenario struct {
	// Name is unique across the corpus and says what the scenario proves.
	Name string `json:"name"`
	// Description says why the behaviour matters.
	Description string `json:"description"`
	// Requirements are the ids of conformance/requirements.json the scenario proves as a whole: every id a step's
	// expect names (Expect.Requirements) and those its untagged steps prove. A failure in a step whose expect names
	// none is attributed to all of them.
	Requirements []string `json:"requirements,omitempty"`
	// Start is the collector's clock when the scenario begins (RFC 3339).
	Start string `json:"start"`
	// QueryIDs are the queryIds the collector assigns, in order, to issued queries and continuations.
	QueryIDs []string `json:"queryIds"`
	// Rules are the collector's continuation rules (the format of a --continuations file); absent for none.
	Rules json.RawMessage `json:"rules,omitempty"`
	// RateLimit, when set, limits submissions per query; absent means no rate limiting.
	RateLimit *ScenarioRateLimit `json:"rateLimit,omitempty"`
	// Requires lists what a transport must be able to carry to run the scenario (RequiresRawBody); a binding
	// that cannot carry it reports the scenario as not carried rather than dropping it.
	Requires []string `json:"requires,omitempty"`
	// Steps run in order.
	Steps []Step `json:"steps"`
}

// RequiresRawBody tags a scenario that submits a body which is not a JSON object (not JSON at all, or another
// JSON value). HTTPS carries any bytes; bindings that carry the response as a structured object (MCP tool
// arguments, an A2A DataPart) cannot. The loader checks the tag is present exactly when a step needs it.
const RequiresRawBody = "raw-body"

// ScenarioRateLimit is a per-query token bucket.
type ScenarioRateLimit struct {
	// PerSecond is the sustained rate per query.
	PerSecond float64 `json:"perSecond"`
	// Burst is how many submissions for one query are allowed at once.
	Burst int `json:"burst"`
}

// Step is one action of a scenario. Do says which: "issue", "submit", "race", "advance", "storeFails" or
// "storeSlow".
type Step struct {
	// Do is the action.
	Do string `json:"do"`
	// As names the step's result: the issued query (issue) or the receipt (submit), for later steps.
	As string `json:"as,omitempty"`
	// Draft is the QueryDraft to issue (issue).
	Draft json.RawMessage `json:"draft,omitempty"`
	// Refused, on an issue step, says the collector must refuse the draft with exactly these errors (a set of
	// {pointer, keyword}, pointers into the draft, which are the request's (D9)); the step then names no query.
	Refused []IssueError `json:"refused,omitempty"`
	// Binding, on an issue step that succeeds, is the delivery.binding the issued request must name: how a
	// scenario proves a draft's default binding.
	Binding string `json:"binding,omitempty"`
	// Responses are the bodies a race step submits all at once with the capability of Capability: exactly one
	// distinct body must be accepted, every copy of it must get the same receipt byte for byte, and every other
	// body must be rejected with already_answered (or response_id_conflict when it reuses the winner's
	// responseId).
	Responses []json.RawMessage `json:"responses,omitempty"`
	// Response is the QueryResponse to submit; ResponseText instead submits exact text (submit).
	Response     json.RawMessage `json:"response,omitempty"`
	ResponseText *string         `json:"responseText,omitempty"`
	// Capability names the query whose capability goes in the Authorization header (an issue's As, or a
	// continuation's ContinuationAs); Authorization instead sends this exact header value. With neither, no
	// Authorization header is sent.
	Capability    string `json:"capability,omitempty"`
	Authorization string `json:"authorization,omitempty"`
	// Seconds moves the clock forward (advance).
	Seconds float64 `json:"seconds,omitempty"`
	// Milliseconds is how long every later acceptance takes to commit (storeSlow): real time, not the scenario's
	// clock, so that racing submissions arrive while an acceptance is in flight.
	Milliseconds float64 `json:"milliseconds,omitempty"`
	// Expect is what a submission must get.
	Expect *Expect `json:"expect,omitempty"`
}

// Expect is a submission's expected outcome, stated without reference to any binding: each binding maps it to its
// wire form from its own table (the HTTPS status codes are bindings/https/codes.go's).
type Expect struct {
	// Problem: no receipt can be formed (no readable queryId and responseId).
	Problem bool `json:"problem,omitempty"`
	// Status is accepted or rejected; Code the error code when rejected; Retryable the receipt's retryable.
	Status    string `json:"status,omitempty"`
	Code      string `json:"code,omitempty"`
	Retryable bool   `json:"retryable,omitempty"`
	// Pointer, when set, is the receipt's expected error.pointer.
	Pointer *string `json:"pointer,omitempty"`
	// SameReceiptAs names an earlier submission whose receipt this one must equal byte for byte.
	SameReceiptAs string `json:"sameReceiptAs,omitempty"`
	// ContinuationAs, when set, requires a continuation in the receipt and names it as a query for later steps;
	// otherwise an accepted receipt must carry none.
	ContinuationAs string `json:"continuationAs,omitempty"`
	// Requirements, when set, are the ids this expectation proves, a subset of the scenario's. A scenario often
	// proves several rules in sequence (a rejection, then the corrected response accepted); tagging each step lets
	// a failure be blamed on the rule that step proves rather than on every rule the scenario names. Absent: the
	// scenario's Requirements.
	Requirements []string `json:"requirements,omitempty"`
}

// StepRequirements returns the ids a failure of st is attributed to: its expectation's own when tagged, else the
// scenario's.
func (sc Scenario) StepRequirements(st Step) []string {
	if st.Expect != nil && len(st.Expect.Requirements) > 0 {
		return st.Expect.Requirements
	}
	return sc.Requirements
}

// IssueError is one error a refused draft must carry.
type IssueError struct {
	// Pointer is the RFC 6901 pointer of the failing member in the draft.
	Pointer string `json:"pointer"`
	// Keyword is the JSON Schema or AQP keyword of the failure.
	Keyword string `json:"keyword"`
}

// Distinct reports how many different bodies a race step submits; a race with more than one proves that exactly
// one wins, with one only that racing duplicates agree.
func (st Step) Distinct() int {
	seen := map[string]bool{}
	for _, r := range st.Responses {
		seen[string(r)] = true
	}
	return len(seen)
}

// LoadScenarios reads every collector scenario file under root (Files, or os.DirFS of a corpus checkout).
func LoadScenarios(root fs.FS) ([]ScenarioFile, error) {
	names, err := fs.Glob(root, path.Join(ScenarioDir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []ScenarioFile
	for _, name := range names {
		b, err := fs.ReadFile(root, name)
		if err != nil {
			return nil, err
		}
		var f ScenarioFile
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		f.Path = name
		for i, sc := range f.Scenarios {
			if err := sc.check(); err != nil {
				return nil, fmt.Errorf("%s: scenario %d (%s): %w", name, i, sc.Name, err)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// check rejects malformed scenarios, so a typo fails loudly instead of proving nothing.
func (sc Scenario) check() error {
	if sc.Name == "" || sc.Description == "" || sc.Start == "" {
		return fmt.Errorf("name, description and start are required")
	}
	if err := checkRequirementIDs(sc.Requirements); err != nil {
		return err
	}
	names := map[string]bool{}
	rawBody := false
	for i, st := range sc.Steps {
		if (st.Do != "issue" && (st.Refused != nil || st.Binding != "")) || (st.Do != "race" && st.Responses != nil) {
			return fmt.Errorf("step %d: refused and binding belong to issue steps, responses to race steps", i)
		}
		if st.Do != "submit" && st.Do != "race" && st.Expect != nil {
			return fmt.Errorf("step %d: expect belongs to submit steps; a %s step checks nothing against it", i, st.Do)
		}
		switch st.Do {
		case "issue":
			switch {
			case len(st.Draft) == 0:
				return fmt.Errorf("step %d: issue needs a draft", i)
			case st.Refused == nil && st.As == "":
				return fmt.Errorf("step %d: an issue that succeeds needs as, to name the query", i)
			case st.Refused != nil && (st.As != "" || st.Binding != ""):
				return fmt.Errorf("step %d: a refused issue names no query and no binding", i)
			case st.Refused != nil && len(st.Refused) == 0:
				return fmt.Errorf("step %d: refused must list the errors the refusal carries", i)
			}
			for j, e := range st.Refused {
				if e.Keyword == "" {
					return fmt.Errorf("step %d: refused error %d needs a keyword", i, j)
				}
			}
		case "race":
			if len(st.Responses) < 2 || st.Capability == "" || !names[st.Capability] || st.Expect != nil || st.As != "" {
				return fmt.Errorf("step %d: race needs at least two responses and the capability of an earlier query, and takes no expect or as", i)
			}
			for j, r := range st.Responses {
				if !isObject(string(r)) {
					return fmt.Errorf("step %d: race response %d is not a JSON object", i, j)
				}
			}
		case "submit":
			if (len(st.Response) == 0) == (st.ResponseText == nil) || st.Expect == nil {
				return fmt.Errorf("step %d: submit needs exactly one of response and responseText, and expect", i)
			}
			e := st.Expect
			if !e.Problem && e.Status != "accepted" && e.Status != "rejected" {
				return fmt.Errorf("step %d: expect.status must be accepted or rejected", i)
			}
			if (e.Status == "rejected") != (e.Code != "") {
				return fmt.Errorf("step %d: a rejected expectation needs a code, an accepted one none", i)
			}
			if e.Requirements != nil && len(e.Requirements) == 0 {
				return fmt.Errorf("step %d: expect.requirements is empty: leave it out to use the scenario's", i)
			}
			if err := checkRequirementIDs(e.Requirements); err != nil {
				return fmt.Errorf("step %d: expect: %w", i, err)
			}
			for _, id := range e.Requirements {
				if !slices.Contains(sc.Requirements, id) {
					return fmt.Errorf("step %d: expect.requirements names %s, which the scenario's requirements do not list (they are the union of what its steps prove)", i, id)
				}
			}
			if st.ResponseText != nil && !isObject(*st.ResponseText) {
				rawBody = true
			}
			if e.SameReceiptAs != "" && !names[e.SameReceiptAs] {
				return fmt.Errorf("step %d: sameReceiptAs %q names no earlier step", i, e.SameReceiptAs)
			}
			if e.ContinuationAs != "" {
				names[e.ContinuationAs] = true
			}
			if st.Capability != "" && !names[st.Capability] {
				return fmt.Errorf("step %d: capability %q names no earlier query", i, st.Capability)
			}
		case "advance":
			if st.Seconds <= 0 {
				return fmt.Errorf("step %d: advance needs seconds > 0", i)
			}
		case "storeFails":
		case "storeSlow":
			if st.Milliseconds <= 0 || st.Milliseconds > 1000 {
				return fmt.Errorf("step %d: storeSlow needs milliseconds in (0, 1000]", i)
			}
		default:
			return fmt.Errorf("step %d: unknown do %q", i, st.Do)
		}
		if st.As != "" {
			if names[st.As] {
				return fmt.Errorf("step %d: name %q used twice", i, st.As)
			}
			names[st.As] = true
		}
	}
	for _, r := range sc.Requires {
		if r != RequiresRawBody {
			return fmt.Errorf("requires: unknown requirement %q (known: %s)", r, RequiresRawBody)
		}
	}
	if tagged := slices.Contains(sc.Requires, RequiresRawBody); tagged != rawBody {
		if rawBody {
			return fmt.Errorf("a step submits a body that is not a JSON object: tag the scenario \"requires\": [%q]", RequiresRawBody)
		}
		return fmt.Errorf("tagged %q but every body is a JSON object", RequiresRawBody)
	}
	return nil
}

// isObject reports whether text is one JSON object (duplicate names and lone surrogates allowed: a transport that
// carries raw JSON can carry them).
func isObject(text string) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal([]byte(text), &m) == nil && m != nil
}

// ScenarioFiles holds the committed collector scenarios, at vectors/collector/*.json.
//
//go:embed vectors/collector/*.json
var ScenarioFiles embed.FS
