package collector

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Bindings a collector names its own endpoint for, with the endpoint path and delivery.operation of each (§6).
var bindingEndpoints = map[string]struct{ path, operation string }{
	"https": {"/aqp/v1/responses", ""},
	"mcp":   {"/mcp", "aqp_submit_response"},
	"a2a":   {"/a2a", "message/send"},
}

// BindingEndpoint returns the path a collector serves binding at and the delivery.operation a query for it names.
func BindingEndpoint(binding string) (path, operation string, ok bool) {
	e, ok := bindingEndpoints[binding]
	return e.path, e.operation, ok
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
	binding    string    // used when the draft names none
	now        time.Time // issue time
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
		if _, known := bindingEndpoints[s]; !known {
			fail("/binding", "enum", "must be one of \"https\", \"mcp\", \"a2a\", got %s", strconv.Quote(fmt.Sprint(v)))
		}
		binding = s
	}
	ttl := int64(DefaultTTLSeconds)
	if v, ok := draft["ttlSeconds"]; ok {
		n, isNum := v.(json.Number)
		i, err := strconv.ParseInt(string(n), 10, 64)
		switch {
		case !isNum || err != nil:
			fail("/ttlSeconds", "type", "must be an integer number of seconds, got %v", v)
		case i < 1:
			fail("/ttlSeconds", "minimum", "must be at least 1, got %d", i)
		case i > MaxTTLSeconds:
			fail("/ttlSeconds", "maximum", "must be at most %d (one day), got %d", MaxTTLSeconds, i)
		default:
			ttl = i
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
	path, op, _ := BindingEndpoint(binding)
	delivery := map[string]any{
		"binding":       binding,
		"endpoint":      strings.TrimSuffix(d.endpoint, "/") + path,
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

// withoutAuthorization returns the request JSON as stored: delivery.authorization removed, since the capability is
// kept only as a hash.
func withoutAuthorization(req map[string]any) []byte {
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
	return core.CanonicalJSON(stored)
}
