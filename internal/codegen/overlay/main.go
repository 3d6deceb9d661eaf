// Command overlay writes copies of the AQP schemas with code-generation keywords merged in, for go-jsonschema to
// read. The schemas in spec/ are served and bundled as they are, and the request schema must stay the seed plus D1
// (a test compares them), so keywords that exist only for the Go types — go-jsonschema's "goJSONSchema" extension
// and the request schema's member descriptions — live in an overlay file instead:
//
//	{"$comment": "...", "schemas": {"query-request.schema.json": {"/properties/expiresAt": {"goJSONSchema": {...}}}}}
//
// Each entry names a schema file, an RFC 6901 pointer to an object schema inside it, and the keywords to add there.
// An overlay only adds: a pointer that does not resolve, a file not given, or a keyword the schema already has is
// an error, so the overlay cannot silently change a rule or drift from the schema it annotates. The copies keep
// their $id and file names, so relative $refs resolve among them exactly as among the originals.
//
// Usage (run by scripts/generate.sh):
//
//	go run ./internal/codegen/overlay -overlay spec/codegen/overlay.json -out DIR spec/*.schema.json
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	overlayPath := flag.String("overlay", "spec/codegen/overlay.json", "the overlay file")
	out := flag.String("out", "", "the folder the overlaid schemas are written to (required)")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: overlay -overlay FILE -out DIR SCHEMA...")
		os.Exit(2)
	}
	if err := run(*overlayPath, *out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "overlay:", err)
		os.Exit(1)
	}
}

// run applies the overlay to each schema file and writes the results, under their base names, to out.
func run(overlayPath, out string, files []string) error {
	ov, err := readOverlay(overlayPath)
	if err != nil {
		return err
	}
	schemas := map[string]any{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		v, err := decode(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		schemas[filepath.Base(f)] = v
	}
	if err := apply(ov, schemas); err != nil {
		return fmt.Errorf("%s: %w", overlayPath, err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for name, v := range schemas {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(out, name), append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// overlay maps a schema file's base name to pointers, and each pointer to the keywords merged there.
type overlay map[string]map[string]map[string]any

func readOverlay(path string) (overlay, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Comment string  `json:"$comment"`
		Schemas overlay `json:"schemas"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: more data after the overlay object", path)
	}
	return doc.Schemas, nil
}

// apply merges every entry of ov into the schemas, in a stable order so that an error is always the same one.
func apply(ov overlay, schemas map[string]any) error {
	for _, file := range sortedKeys(ov) {
		root, ok := schemas[file]
		if !ok {
			return fmt.Errorf("%s: no such schema among the files given", file)
		}
		for _, ptr := range sortedKeys(ov[file]) {
			target, err := resolve(root, ptr)
			if err != nil {
				return fmt.Errorf("%s#%s: %w", file, ptr, err)
			}
			for _, kw := range sortedKeys(ov[file][ptr]) {
				if _, exists := target[kw]; exists {
					return fmt.Errorf("%s#%s: the schema already has %q; an overlay only adds keywords", file, ptr, kw)
				}
				target[kw] = ov[file][ptr][kw]
			}
		}
	}
	return nil
}

// resolve follows an RFC 6901 pointer to an object schema.
func resolve(v any, ptr string) (map[string]any, error) {
	if ptr != "" && !strings.HasPrefix(ptr, "/") {
		return nil, errors.New("a pointer must be empty or start with \"/\"")
	}
	if ptr != "" {
		for _, tok := range strings.Split(ptr[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch x := v.(type) {
			case map[string]any:
				next, ok := x[tok]
				if !ok {
					return nil, fmt.Errorf("no member %q", tok)
				}
				v = next
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(x) {
					return nil, fmt.Errorf("no item %q", tok)
				}
				v = x[i]
			default:
				return nil, fmt.Errorf("cannot descend into a %T at %q", v, tok)
			}
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("points at a %T, not an object schema", v)
	}
	return m, nil
}

// decode reads one JSON value, numbers kept as written.
func decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
