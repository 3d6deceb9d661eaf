package core_test

import (
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// TestAnswerFailureOfEveryKeyword: an answer failing any keyword of its jsonSchema is answer_invalid at the
// failing value, with a message that says what was expected. Regression (found by FuzzJSONSchema): the keywords
// describe had no words of its own for were rendered with a nil printer, which panicked, so an answer of 3 to a
// schema with multipleOf 2 crashed CheckResponse, and with it a collector's Submit. ($ref cycles, which reached the
// answer as "the jsonSchema loops", no longer compile: D35, TestContractRefsStayInside.)
func TestAnswerFailureOfEveryKeyword(t *testing.T) {
	for _, tc := range []struct{ schema, answer, pointer, keyword, message string }{
		{`{"multipleOf":2}`, `3`, "/answer", "multipleOf", "must be a multiple of 2"},
		{`{"exclusiveMinimum":1}`, `1`, "/answer", "exclusiveMinimum", "must be greater than 1"},
		{`{"exclusiveMaximum":1}`, `1.5`, "/answer", "exclusiveMaximum", "must be less than 1"},
		{`{"minProperties":2}`, `{"a":1}`, "/answer", "minProperties", "at least 2 members, got 1"},
		{`{"maxProperties":0}`, `{"a":1}`, "/answer", "maxProperties", "at most 0 members, got 1"},
		{`{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, "/answer", "dependentRequired", "b"},
		{`{"contains":{"type":"string"}}`, `[1]`, "/answer/0", "type", "must be a string"},
		{`{"propertyNames":{"maxLength":1}}`, `{"ab":1}`, "/answer", "maxLength", "at most 1"},
		{`{"items":{"multipleOf":0.5}}`, `[1,1.25]`, "/answer/1", "multipleOf", "got 1.25"},
	} {
		req := core.Parse(core.KindRequest, fuzzRequest(tc.schema))
		resp := core.Parse(core.KindResponse, fuzzResponse(`"answer":`+tc.answer))
		if !req.Valid() || !resp.Valid() {
			t.Fatalf("%s: fixture invalid: %v %v", tc.schema, req.Errors, resp.Errors)
		}
		errs := core.CheckResponse(req, resp)
		found := false
		for _, e := range errs {
			if e.Code != core.CodeAnswerInvalid || e.Message == "" {
				t.Errorf("%s with %s: unexpected error %v", tc.schema, tc.answer, e)
			}
			if e.Pointer == tc.pointer && e.Keyword == tc.keyword && strings.Contains(e.Message, tc.message) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s with %s: want %s %s saying %q, got %v", tc.schema, tc.answer, tc.pointer, tc.keyword, tc.message, errs)
		}
	}
}
