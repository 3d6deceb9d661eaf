package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// contractURL is the base URL a request's jsonSchema is compiled under. It resolves nothing: a jsonSchema can
// only $ref into itself.
const contractURL = "urn:aqp:response-contract"

// draft2020 is the only $schema a jsonSchema may declare.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// contract is a request's response contract (§3), compiled once per request document.
type contract struct {
	format    string
	choices   []string
	maxLength int // 0 when absent
	schema    *jsonschema.Schema
}

// compileContract reads the contract from a schema-valid request value and compiles its jsonSchema offline.
func compileContract(request any) (*contract, *Error) {
	req, _ := request.(map[string]any)
	resp, _ := req["response"].(map[string]any)
	c := &contract{}
	c.format, _ = resp["format"].(string)
	if ch, ok := resp["choices"].([]any); ok {
		c.choices = make([]string, len(ch))
		for i, x := range ch {
			c.choices[i], _ = x.(string)
		}
	}
	if n, ok := resp["maxLength"].(json.Number); ok {
		// The schema admits any integer-valued number (5.0, 5e0), which Int64 does not parse.
		v, _ := n.Float64()
		c.maxLength = int(v)
	} else if f, ok := resp["maxLength"].(float64); ok {
		c.maxLength = int(f)
	}
	if js, ok := resp["jsonSchema"].(map[string]any); ok {
		if s, present := js["$schema"]; present && s != draft2020 {
			return nil, &Error{Pointer: "/response/jsonSchema/$schema", Keyword: KeywordCompile,
				Message: fmt.Sprintf("jsonSchema is compiled as draft 2020-12; $schema must be %q or absent, got %s", draft2020, display(s))}
		}
		comp := newCompiler()
		if err := comp.AddResource(contractURL, js); err != nil {
			return nil, &Error{Pointer: "/response/jsonSchema", Keyword: KeywordCompile, Message: "jsonSchema does not compile: " + err.Error()}
		}
		sch, err := comp.Compile(contractURL)
		if err != nil {
			return nil, &Error{Pointer: "/response/jsonSchema", Keyword: KeywordCompile,
				Message: "jsonSchema does not compile offline as draft 2020-12: " + oneLine(err.Error())}
		}
		c.schema = sch
	}
	return c, nil
}

// requestContract returns the request's compiled response contract. It is computed once per Document and is only
// meaningful for a valid request.
func (d *Document) requestContract() (*contract, *Error) {
	d.contractOnce.Do(func() {
		d.contract, d.contractErr = compileContract(d.Value)
	})
	return d.contract, d.contractErr
}

// check reports why answer does not satisfy the contract, or nil.
func (c *contract) check(answer any) Errors {
	fail := func(keyword, format string, args ...any) Errors {
		return Errors{{Code: CodeAnswerInvalid, Document: RoleResponse, Pointer: "/answer", Keyword: keyword,
			Message: fmt.Sprintf(format, args...)}}
	}
	switch c.format {
	case "text":
		s, ok := answer.(string)
		if !ok {
			return fail("format", "response.format is text: the answer must be a string, got %s", jsonType(answer))
		}
		if n := utf8.RuneCountInString(s); c.maxLength > 0 && n > c.maxLength {
			return fail("maxLength", "response.maxLength is %d: the answer has %d characters (Unicode code points)", c.maxLength, n)
		}
	case "choice":
		s, ok := answer.(string)
		if !ok {
			return fail("choices", "response.format is choice: the answer must be a string, got %s", jsonType(answer))
		}
		found := false
		for _, ch := range c.choices {
			if ch == s {
				found = true
				break
			}
		}
		if !found {
			return fail("choices", "response.format is choice: the answer must be one of %s, got %s", quoteList(c.choices), display(s))
		}
	case "boolean":
		if _, ok := answer.(bool); !ok {
			return fail("format", "response.format is boolean: the answer must be true or false, got %s", jsonType(answer))
		}
	case "number":
		switch answer.(type) {
		case json.Number, float64:
		default:
			return fail("format", "response.format is number: the answer must be a JSON number, got %s", jsonType(answer))
		}
	case "structured":
		if c.maxLength > 0 {
			// Counted on the canonical encoding (D12), so that the count does not depend on how the respondent's
			// encoder escapes strings or spells numbers.
			if enc, err := EncodeCanonical(answer); err == nil {
				if n := utf8.RuneCount(enc); n > c.maxLength {
					return fail("maxLength", "response.maxLength is %d: the answer's canonical JSON (RFC 8785, D12) has %d characters (Unicode code points)", c.maxLength, n)
				}
			}
		}
	}
	if c.schema != nil {
		if err := c.schema.Validate(answer); err != nil {
			errs := (&schemaSet{}).convert(CodeAnswerInvalid, err)
			for i := range errs {
				errs[i].Document = RoleResponse
				errs[i].Pointer = "/answer" + errs[i].Pointer
				errs[i].Message = "response.jsonSchema: " + errs[i].Message
			}
			return errs
		}
	}
	return nil
}

// jsonType names a decoded JSON value's type for messages.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
