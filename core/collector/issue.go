package collector

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// pinnedBindings are the bindings a draft may name (§5); which of them a collector issues queries for is what its
// Config.Endpoints serve.
var pinnedBindings = []string{spec.BindingHTTPS, spec.BindingMCP, spec.BindingA2A}

// endpointSet is the bindings a collector serves, by name.
type endpointSet map[string]Endpoint

// names lists the served bindings in the pinned order, for messages.
func (es endpointSet) names() []string {
	var out []string
	for _, b := range pinnedBindings {
		if _, ok := es[b]; ok {
			out = append(out, b)
		}
	}
	return out
}

// defaultBinding is the binding a draft that names none is issued for: https when served, else the first served.
func (es endpointSet) defaultBinding() string {
	if _, ok := es[spec.BindingHTTPS]; ok {
		return spec.BindingHTTPS
	}
	return es.names()[0]
}

// Draft limits (§5).
const (
	DefaultTTLSeconds = 3600
	MaxTTLSeconds     = 86400
)

// collectorMembers are the request members the collector sets; a draft must leave them out.
var collectorMembers = []string{"protocolVersion", "queryId", "delivery", "expiresAt"}

// sampleTime is the issue time used to check a continuation rule's draft at load.
var sampleTime = time.Date(2026, 7, 30, 0, 0, 0, 0, time.UTC)

// draftDefaults is what completing a draft needs besides the draft.
type draftDefaults struct {
	endpoints  endpointSet // the bindings served; a draft may name only these
	binding    string      // used when the draft names none
	now        time.Time   // issue time
	queryID    string
	endpoint   string // the collector's public base URL
	capability string
}

// FormatTime writes an instant the way the collector writes every date-time: UTC, milliseconds, "Z".
func FormatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// completeDraft turns a draft into a full QueryRequest (§5), as a JSON object, and validates it. Errors carry the
// pointers of the draft, which are the request's pointers for every member the two share.
func completeDraft(draft map[string]any, d draftDefaults) (map[string]any, core.Errors) {
	var errs core.Errors
	fail := func(ptr, keyword, format string, args ...any) {
		errs = append(errs, core.Error{Code: core.CodeInvalidRequest, Pointer: ptr, Keyword: keyword, Message: fmt.Sprintf(format, args...)})
	}
	for _, m := range collectorMembers {
		if _, ok := draft[m]; ok {
			fail("/"+m, "additionalProperties", "member %q is set by the collector: leave it out of the draft", m)
		}
	}
	binding := d.binding
	if v, ok := draft["binding"]; ok {
		s, _ := v.(string)
		switch _, served := d.endpoints[s]; {
		case !slices.Contains(pinnedBindings, s):
			fail("/binding", "enum", "must be one of \"https\", \"mcp\", \"a2a\", got %s", strconv.Quote(fmt.Sprint(v)))
		case !served:
			fail("/binding", "binding", "this collector does not serve the %s binding; it serves %s", s, strings.Join(d.endpoints.names(), ", "))
		}
		binding = s
	}
	ttl := int64(DefaultTTLSeconds)
	if v, ok := draft["ttlSeconds"]; ok {
		if n, msg, keyword := ttlSeconds(v); msg != "" {
			fail("/ttlSeconds", keyword, "%s", msg)
		} else {
			ttl = n
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	req := make(map[string]any, len(draft)+4)
	for k, v := range draft {
		if k != "binding" && k != "ttlSeconds" {
			req[k] = v
		}
	}
	ep := d.endpoints[binding]
	op := ep.Operation
	delivery := map[string]any{
		"binding":       binding,
		"endpoint":      strings.TrimSuffix(d.endpoint, "/") + ep.Path,
		"authorization": "Bearer " + d.capability,
	}
	if op != "" {
		delivery["operation"] = op
	}
	req["protocolVersion"] = spec.ProtocolVersion
	req["queryId"] = d.queryID
	req["delivery"] = delivery
	req["expiresAt"] = FormatTime(d.now.Add(time.Duration(ttl) * time.Second))
	if doc := core.ParseValue(core.KindRequest, req); !doc.Valid() {
		return nil, doc.Errors
	}
	return req, nil
}

// maxTTLText bounds the text of a ttlSeconds number that is checked exactly: no integer from 1 to 86400 needs
// more characters, however it is written, than a person would write.
const maxTTLText = 64

// ttlSeconds reads a draft's ttlSeconds as JSON Schema reads an integer: any number with a zero fraction (60, 60.0,
// 6e1, 600e-1), from 1 to MaxTTLSeconds. On failure it says why, with the keyword the rule is (type, minimum,
// maximum).
func ttlSeconds(v any) (int64, string, string) {
	n, isNum := v.(json.Number)
	if !isNum {
		return 0, fmt.Sprintf("must be an integer number of seconds, got %s", describeValue(v)), "type"
	}
	// The float decides the range cheaply whatever the exponent (1e999999 is +Inf here, never a big power).
	f, _ := strconv.ParseFloat(string(n), 64)
	switch {
	case f < 1:
		return 0, fmt.Sprintf("must be at least 1, got %s", n), "minimum"
	case f > MaxTTLSeconds+1:
		return 0, fmt.Sprintf("must be at most %d (one day), got %s", MaxTTLSeconds, n), "maximum"
	case len(n) > maxTTLText:
		return 0, fmt.Sprintf("must be an integer number of seconds written in at most %d characters, got %d characters", maxTTLText, len(n)), "type"
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok || !r.IsInt() {
		return 0, fmt.Sprintf("must be an integer number of seconds, got %s, which has a fraction", n), "type"
	}
	i := r.Num().Int64()
	switch {
	case i < 1:
		return 0, fmt.Sprintf("must be at least 1, got %s", n), "minimum"
	case i > MaxTTLSeconds:
		return 0, fmt.Sprintf("must be at most %d (one day), got %s", MaxTTLSeconds, n), "maximum"
	}
	return i, "", ""
}

// describeValue names a non-number draft value's JSON type for a message.
func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// withoutAuthorization returns the request JSON as stored: delivery.authorization removed, since the capability is
// kept only as a hash.
func withoutAuthorization(req map[string]any) []byte {
	_, raw := storedRequest(req)
	return raw
}

// storedRequest is req without delivery.authorization, as a value (sharing req's members, which nothing writes
// after issuing) and as the bytes the store keeps.
func storedRequest(req map[string]any) (map[string]any, []byte) {
	stored := make(map[string]any, len(req))
	for k, v := range req {
		stored[k] = v
	}
	if del, ok := req["delivery"].(map[string]any); ok {
		d := make(map[string]any, len(del))
		for k, v := range del {
			if k != "authorization" {
				d[k] = v
			}
		}
		stored["delivery"] = d
	}
	return stored, core.CompactJSON(stored)
}

// CheckDraft checks a draft (a decoded JSON object, numbers as json.Number) by every rule Issue applies to one —
// the members the collector sets left out, the binding and ttlSeconds, and the completed QueryRequest's schema and
// contract (a prompt, a subject's kind and id, a consentMode, a consentScope for ask_once, …) — without a
// collector or a store, every binding taken as served. A tool that builds drafts asks it before it sends one, so
// the rules live here once and the tool only says them in its own words. It returns nil for a draft Issue would
// take, else an *IssueError whose Errors carry the draft's pointers.
func CheckDraft(draft map[string]any) error {
	if _, errs := completeDraft(draft, draftDefaults{endpoints: allEndpoints, binding: spec.BindingHTTPS, now: time.Now(),
		queryID: "00000000-0000-7000-8000-000000000001", endpoint: "https://collector.invalid/", capability: "sample"}); len(errs) > 0 {
		return &IssueError{Errors: errs}
	}
	return nil
}
