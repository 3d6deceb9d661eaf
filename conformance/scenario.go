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
	// Requirements are the ids of conformance/requirements.json the scenario proves.
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

// Step is one action of a scenario. Do says which: "issue", "submit", "advance" or "storeFails".
type Step struct {
	// Do is the action.
	Do string `json:"do"`
	// As names the step's result: the issued query (issue) or the receipt (submit), for later steps.
	As string `json:"as,omitempty"`
	// Draft is the QueryDraft to issue (issue).
	Draft json.RawMessage `json:"draft,omitempty"`
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
		switch st.Do {
		case "issue":
			if len(st.Draft) == 0 || st.As == "" {
				return fmt.Errorf("step %d: issue needs draft and as", i)
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
