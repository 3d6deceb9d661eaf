package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// validateValue runs a kind's schema over v and, for a request, compiles its answer contract (§3: a jsonSchema
// that does not compile makes the request invalid).
func validateValue(k Kind, v any) Errors {
	if !numbersWithinBounds(v) {
		errs := checkNumbers(k.code(), v)
		// The schema library must not see these numbers (D22); sorted like every other report (D14).
		sortErrors(errs)
		return errs
	}
	set := compiledSchemas()
	var errs Errors
	if fastValid(k, v) {
		// Every rule of the verdict schema holds (fastpath.go): the library would accept v too.
	} else if verr := set.verdict[k].Validate(v); verr != nil {
		// Rejected: validate again with the reporting schemas to name every failing keyword. They accept exactly
		// what the verdict schemas accept; should they ever not, the verdict's own errors are reported.
		if err := set.report[k].Validate(v); err != nil {
			verr = err
		}
		errs = set.convert(k.code(), verr)
	}
	if k == KindRequest && len(errs) == 0 {
		if _, e := compileContract(v); e != nil {
			e.Code = CodeInvalidRequest
			errs = append(errs, *e)
		}
	}
	return errs
}

// convert turns a library validation error into AQP errors: only the deepest causes, each once, sorted by pointer
// so that output is stable. When the schema documents are known (docs), messages name the rule, the allowed
// members or the condition that made a member required or forbidden.
func (set *schemaSet) convert(code Code, err error) Errors {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return Errors{{Code: code, Keyword: "schema", Message: err.Error()}}
	}
	var out Errors
	seen := map[string]bool{}
	add := func(e Error) {
		key := e.Pointer + "\x00" + e.Keyword + "\x00" + e.Message
		if !seen[key] {
			seen[key] = true
			out = append(out, e)
		}
	}
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		for _, x := range set.describe(code, e) {
			add(x)
		}
	}
	walk(ve)
	sortErrors(out)
	return out
}

// sortErrors orders errors by pointer, then keyword (D14).
func sortErrors(out Errors) {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pointer != out[j].Pointer {
			return out[i].Pointer < out[j].Pointer
		}
		return out[i].Keyword < out[j].Keyword
	})
}

// describe turns one leaf failure into one or more errors (a required or additionalProperties failure yields one
// per member, each pointing at the member).
func (set *schemaSet) describe(code Code, e *jsonschema.ValidationError) []Error {
	at := pointer(e.InstanceLocation)
	kwPath := e.ErrorKind.KeywordPath()
	keyword := "false"
	if len(kwPath) > 0 {
		keyword = kwPath[0]
	}
	schemaLoc := e.SchemaURL // absolute location of the schema holding the keyword
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		cond := set.condition(schemaLoc)
		var out []Error
		for _, m := range k.Missing {
			out = append(out, Error{Code: code, Pointer: at + "/" + escapePointer(m), Keyword: "required",
				Message: fmt.Sprintf("missing required member %q%s", m, cond)})
		}
		return out
	case *kind.AdditionalProperties:
		allowed := set.allowedMembers(schemaLoc)
		var out []Error
		for _, m := range k.Properties {
			out = append(out, Error{Code: code, Pointer: at + "/" + escapePointer(m), Keyword: "additionalProperties",
				Message: fmt.Sprintf("member %q is not allowed here%s", m, allowed)})
		}
		return out
	case *kind.Not:
		msg := "must be absent here" + set.condition(parentLocation(schemaLoc))
		if members := set.notRequired(schemaLoc); len(members) > 0 {
			msg = fmt.Sprintf("member %s must be absent%s", quoteList(members), set.condition(schemaLoc))
		}
		return []Error{{Code: code, Pointer: at, Keyword: "not", Message: msg}}
	case *kind.FalseSchema:
		return []Error{{Code: code, Pointer: at, Keyword: "false", Message: "must be absent here"}}
	case *kind.Type:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be %s, got %s", article(strings.Join(k.Want, " or ")), article(k.Got))}}
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = display(w)
		}
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be one of %s, got %s", strings.Join(want, ", "), display(k.Got))}}
	case *kind.Const:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be %s%s, got %s", display(k.Want), set.condition(schemaLoc), display(k.Got))}}
	case *kind.Format:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("%s is not a valid %s: %v", display(k.Got), k.Want, k.Err)}}
	case *kind.MinLength:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be at least %d characters (Unicode code points), got %d", k.Want, k.Got)}}
	case *kind.MaxLength:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be at most %d characters (Unicode code points), got %d", k.Want, k.Got)}}
	case *kind.MinItems:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must have at least %d items, got %d", k.Want, k.Got)}}
	case *kind.MaxItems:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must have at most %d items, got %d", k.Want, k.Got)}}
	case *kind.UniqueItems:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("items must be unique: items %d and %d are equal", k.Duplicates[0], k.Duplicates[1])}}
	case *kind.Minimum:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be at least %s, got %s", k.Want.FloatString(10), k.Got.FloatString(10))}}
	case *kind.Maximum:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be at most %s, got %s", k.Want.FloatString(10), k.Got.FloatString(10))}}
	case *kind.Pattern:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("%s does not match the pattern %s", display(k.Got), k.Want)}}
	case *kind.ExclusiveMinimum:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be greater than %s, got %s", k.Want.FloatString(10), k.Got.FloatString(10))}}
	case *kind.ExclusiveMaximum:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be less than %s, got %s", k.Want.FloatString(10), k.Got.FloatString(10))}}
	case *kind.MultipleOf:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must be a multiple of %s, got %s", k.Want.FloatString(10), k.Got.FloatString(10))}}
	case *kind.RefCycle:
		return []Error{{Code: code, Pointer: at, Keyword: "$ref",
			Message: fmt.Sprintf("the jsonSchema loops: %s resolves to %s again for this same value (a $ref cycle)", k.KeywordLocation1, k.URL)}}
	case *kind.MinProperties:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must have at least %d members, got %d", k.Want, k.Got)}}
	case *kind.MaxProperties:
		return []Error{{Code: code, Pointer: at, Keyword: keyword,
			Message: fmt.Sprintf("must have at most %d members, got %d", k.Want, k.Got)}}
	}
	// Every other kind in the library's own English words. LocalizedString needs a printer: given nil it
	// dereferences it, which crashed every answer failing a keyword without a case above (multipleOf, $ref cycles…).
	return []Error{{Code: code, Pointer: at, Keyword: keyword, Message: e.ErrorKind.LocalizedString(englishPrinter)}}
}

// englishPrinter renders the schema library's messages for the kinds describe has no words of its own for.
var englishPrinter = message.NewPrinter(language.English)

// pointer joins instance location tokens into an RFC 6901 pointer.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapePointer(t))
	}
	return b.String()
}

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// lookup returns the schema value at an absolute schema location inside the embedded AQP schemas, or nil.
func (set *schemaSet) lookup(loc string) any {
	file, frag, _ := strings.Cut(strings.TrimPrefix(loc, spec.SchemaBase), "#")
	v := set.docs[file]
	if v == nil || frag == "" {
		return v
	}
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// parentLocation drops the last token of a schema location (for "then/properties/error" → "then/properties").
func parentLocation(loc string) string {
	if i := strings.LastIndexByte(loc, '/'); i > strings.IndexByte(loc, '#') {
		return loc[:i]
	}
	return loc
}

// allowedMembers lists the members an object schema at loc declares, for additionalProperties messages.
func (set *schemaSet) allowedMembers(loc string) string {
	m, _ := set.lookup(loc).(map[string]any)
	props, _ := m["properties"].(map[string]any)
	if len(props) == 0 {
		return ""
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	return "; allowed members: " + strings.Join(names, ", ")
}

// notRequired returns the members of a `not: {required: [...]}` at loc.
func (set *schemaSet) notRequired(loc string) []string {
	m, _ := set.lookup(loc).(map[string]any)
	not, _ := m["not"].(map[string]any)
	req, _ := not["required"].([]any)
	var out []string
	for _, r := range req {
		if s, ok := r.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// condition explains, for a schema inside an if/then/else, the condition under which it applies:
// " when consentMode is ask_once". It returns "" for unconditional schemas.
func (set *schemaSet) condition(loc string) string {
	_, frag, _ := strings.Cut(loc, "#")
	for _, branch := range []string{"/then", "/else"} {
		i := strings.LastIndex(frag, branch)
		if i < 0 || (i+len(branch) < len(frag) && frag[i+len(branch)] != '/') {
			continue
		}
		ifLoc := loc[:len(loc)-len(frag)] + frag[:i] + "/if"
		cond := describeIf(set.lookup(ifLoc))
		if cond == "" {
			return ""
		}
		if branch == "/else" {
			return " unless " + cond
		}
		return " when " + cond
	}
	return ""
}

// describeIf renders an `if` of the shape {properties: {m: {const|enum}}} as "m is v".
func describeIf(v any) string {
	m, _ := v.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	var parts []string
	for name, p := range props {
		pm, _ := p.(map[string]any)
		if c, ok := pm["const"]; ok {
			parts = append(parts, fmt.Sprintf("%s is %s", name, display(c)))
		} else if e, ok := pm["enum"].([]any); ok {
			vals := make([]string, len(e))
			for i, x := range e {
				vals[i] = display(x)
			}
			parts = append(parts, fmt.Sprintf("%s is %s", name, strings.Join(vals, " or ")))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, " and ")
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// display renders a JSON value compactly for a message.
func display(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}
