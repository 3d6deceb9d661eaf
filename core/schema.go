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
	return c
}

// schemaSet is the compiled AQP schemas, built once from the embedded spec files.
type schemaSet struct {
	byKind map[Kind]*jsonschema.Schema
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
		c := newCompiler()
		set := &schemaSet{byKind: map[Kind]*jsonschema.Schema{}, docs: map[string]any{}}
		for _, name := range spec.SchemaFiles {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(spec.File(name)))
			if err != nil {
				panic(fmt.Sprintf("core: spec/%s: %v", name, err))
			}
			set.docs[name] = doc
			if err := c.AddResource(spec.SchemaBase+name, doc); err != nil {
				panic(fmt.Sprintf("core: spec/%s: %v", name, err))
			}
		}
		for _, k := range []Kind{KindRequest, KindResponse, KindReceipt} {
			set.byKind[k] = c.MustCompile(spec.SchemaBase + k.schemaFile())
		}
		schemas = set
	})
	return schemas
}
