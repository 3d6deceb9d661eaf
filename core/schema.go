package core

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// offlineLoader refuses every URL: the validator never touches the network or the file system. The AQP schemas are
// added as resources before compiling, so a relative $ref between them resolves without a load.
type offlineLoader struct{}

func (offlineLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is not available offline: AQP validators never fetch a schema", url)
}

// assertedFormats are the formats D4 asserts, with AQP's exact rules.
var assertedFormats = []*jsonschema.Format{
	{Name: "uuid", Validate: stringFormat(checkUUID)},
	{Name: "date-time", Validate: stringFormat(func(s string) error { _, err := ParseDateTime(s); return err })},
	{Name: "uri", Validate: stringFormat(checkURI)},
	{Name: "uri-reference", Validate: stringFormat(checkURIReference)},
}

func stringFormat(check func(string) error) func(any) error {
	return func(v any) error {
		s, ok := v.(string)
		if !ok {
			return nil // format applies to strings only
		}
		return check(s)
	}
}

// newCompiler returns a draft 2020-12 compiler that asserts formats and loads nothing from outside.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	for _, f := range assertedFormats {
		c.RegisterFormat(f)
	}
	c.UseLoader(offlineLoader{})
	c.UseRegexpEngine(compileECMA) // ECMA-262 patterns, evaluated by RE2 only where both mean the same (D41)
	return c
}

// schemaSet is the compiled AQP schemas, built once from the embedded spec files.
type schemaSet struct {
	// verdict holds the schemas exactly as written: the fast path, which decides validity.
	verdict map[Kind]*jsonschema.Schema
	// report holds the same schemas rewritten by splitShortCircuits, which accept exactly the same documents but
	// report every failing keyword; they run only on documents the verdict schemas rejected.
	report map[Kind]*jsonschema.Schema
	// docs holds the parsed schema documents by file name, for turning a failing keyword location into a
	// message that names the rule.
	docs map[string]any
}

var (
	schemasOnce sync.Once
	schemas     *schemaSet
)

// compiledSchemas compiles the embedded schemas on first use. A failure is a build error of the module itself
// (spec/ is embedded), so it panics.
func compiledSchemas() *schemaSet {
	schemasOnce.Do(func() {
		set := &schemaSet{verdict: map[Kind]*jsonschema.Schema{}, report: map[Kind]*jsonschema.Schema{}, docs: map[string]any{}}
		for _, name := range spec.SchemaFiles {
			set.docs[name] = parseSpec(name)
		}
		for _, target := range []struct {
			into  map[Kind]*jsonschema.Schema
			shape func(any) any
		}{{set.verdict, func(v any) any { return v }}, {set.report, splitShortCircuits}} {
			c := newCompiler()
			for _, name := range spec.SchemaFiles {
				if err := c.AddResource(spec.SchemaBase+name, target.shape(parseSpec(name))); err != nil {
					panic(fmt.Sprintf("core: spec/%s: %v", name, err))
				}
			}
			for _, k := range []Kind{KindRequest, KindResponse, KindReceipt} {
				target.into[k] = c.MustCompile(spec.SchemaBase + k.schemaFile())
			}
		}
		schemas = set
	})
	return schemas
}

// parseSpec decodes one embedded schema file (a fresh copy each call: splitShortCircuits rewrites in place).
func parseSpec(name string) any {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(spec.File(name)))
	if err != nil {
		panic(fmt.Sprintf("core: spec/%s: %v", name, err))
	}
	return doc
}

// shortCircuits are the keywords on whose failure the validation library reports that failure alone and skips the
// rest of the schema object. JSON Schema 2020-12 evaluates every keyword: a request that is not an object fails
// type and also, through the consent if-clauses that hold vacuously for it, not; a maxLength of 0.5 fails type
// and minimum.
var shortCircuits = []string{"type", "const", "enum", "format"}

// annotations are keywords that assert nothing.
var annotations = map[string]bool{"$schema": true, "$id": true, "$comment": true, "title": true, "description": true,
	"default": true, "examples": true, "deprecated": true, "readOnly": true, "writeOnly": true}

// splitShortCircuits rewrites a schema so that the library evaluates every keyword: in each schema object where a
// short-circuiting keyword shares the object with another assertion, it moves each short-circuiting keyword into an
// allOf entry of its own (appended, so existing allOf entries keep their locations). The schema accepts exactly
// what it did, every other keyword keeps its location (the messages look them up in the original documents), and
// every failure is reported.
func splitShortCircuits(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for _, k := range []string{"not", "if", "then", "else", "items", "contains", "additionalProperties", "propertyNames",
		"unevaluatedItems", "unevaluatedProperties"} {
		if sub, ok := m[k]; ok {
			m[k] = splitShortCircuits(sub)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		if subs, ok := m[k].([]any); ok {
			for i := range subs {
				subs[i] = splitShortCircuits(subs[i])
			}
		}
	}
	for _, k := range []string{"properties", "patternProperties", "$defs", "dependentSchemas"} {
		if subs, ok := m[k].(map[string]any); ok {
			for name := range subs {
				subs[name] = splitShortCircuits(subs[name])
			}
		}
	}
	assertions := 0
	for k := range m {
		if !annotations[k] {
			assertions++
		}
	}
	var moved []any
	for _, k := range shortCircuits {
		if x, ok := m[k]; ok && assertions > 1 {
			moved = append(moved, map[string]any{k: x})
			delete(m, k)
		}
	}
	if len(moved) > 0 {
		all, _ := m["allOf"].([]any)
		m["allOf"] = append(append([]any{}, all...), moved...)
	}
	return m
}
