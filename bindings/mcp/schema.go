package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// bundle returns the schema file name (one of spec.SchemaFiles) as one self-contained JSON Schema document: every
// schema it refers to, directly or not, is copied under $defs and each relative $ref points there, so an MCP
// client can compile the tool's inputSchema and outputSchema as they are, resolving nothing over the network and
// loading nothing else. The bundle drops the root's $id (it is not the document the $id names, and a client that
// caches compiled schemas by $id would see two documents with one id) and the copies' $schema and $id.
func bundle(name string) ([]byte, error) {
	b := &bundler{defs: map[string]any{}}
	root, err := b.load(name)
	if err != nil {
		return nil, err
	}
	delete(root, "$id")
	if err := b.rewrite(root); err != nil {
		return nil, fmt.Errorf("bundling %s: %w", name, err)
	}
	if len(b.defs) > 0 {
		root["$defs"] = b.defs
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

type bundler struct{ defs map[string]any }

func (b *bundler) load(name string) (map[string]any, error) {
	raw, err := spec.FS.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("no schema %q in package spec", name)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return doc, nil
}

// rewrite points every external $ref of v at $defs, adding each referenced schema once.
func (b *bundler) rewrite(v any) error {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "$ref" {
				ref, _ := t[k].(string)
				if strings.HasPrefix(ref, "#") {
					return fmt.Errorf("$ref %q: local references inside a bundled schema are not supported", ref)
				}
				if strings.Contains(ref, "#") || strings.Contains(ref, "/") {
					return fmt.Errorf("$ref %q: only a sibling schema file can be bundled", ref)
				}
				key := strings.TrimSuffix(ref, ".schema.json")
				t[k] = "#/$defs/" + key
				if _, done := b.defs[key]; done {
					continue
				}
				doc, err := b.load(ref)
				if err != nil {
					return err
				}
				delete(doc, "$schema")
				delete(doc, "$id")
				b.defs[key] = doc
				if err := b.rewrite(doc); err != nil {
					return err
				}
				continue
			}
			if err := b.rewrite(t[k]); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range t {
			if err := b.rewrite(e); err != nil {
				return err
			}
		}
	}
	return nil
}

var bundles = sync.OnceValues(func() ([2][]byte, error) {
	in, err := bundle(spec.ResponseSchema)
	if err != nil {
		return [2][]byte{}, err
	}
	out, err := bundle(spec.ReceiptSchema)
	return [2][]byte{in, out}, err
})

// InputSchema is the tool's inputSchema: the QueryResponse schema, bundled.
func InputSchema() []byte {
	b, err := bundles()
	if err != nil {
		panic("mcp: the embedded schemas cannot be bundled: " + err.Error()) // a build error: spec's files are embedded
	}
	return bytes.Clone(b[0])
}

// OutputSchema is the tool's outputSchema: the QueryReceipt schema, bundled.
func OutputSchema() []byte {
	b, err := bundles()
	if err != nil {
		panic("mcp: the embedded schemas cannot be bundled: " + err.Error())
	}
	return bytes.Clone(b[1])
}
