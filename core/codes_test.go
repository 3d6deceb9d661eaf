package core

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestReceiptCodesAreTheSchemaEnum keeps the one code enum and the receipt schema's error.code enum the same list,
// in the same order: a code added to the schema without a constant here (or the reverse) fails.
func TestReceiptCodesAreTheSchemaEnum(t *testing.T) {
	var sch struct {
		Properties struct {
			Error struct {
				Properties struct {
					Code struct {
						Enum []string `json:"enum"`
					} `json:"code"`
				} `json:"properties"`
			} `json:"error"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(spec.File(spec.ReceiptSchema), &sch); err != nil {
		t.Fatal(err)
	}
	enum := sch.Properties.Error.Properties.Code.Enum
	codes := ReceiptCodes()
	if len(enum) == 0 || len(enum) != len(codes) {
		t.Fatalf("the schema lists %d receipt codes, core %d: %v vs %v", len(enum), len(codes), enum, codes)
	}
	for i := range enum {
		if string(codes[i]) != enum[i] {
			t.Errorf("receipt code %d: core %q, schema %q", i, codes[i], enum[i])
		}
		if !codes[i].IsReceiptCode() {
			t.Errorf("%s: IsReceiptCode false", codes[i])
		}
	}
	for _, c := range []Code{CodeInvalidRequest, CodeInvalidReceipt, CodeQueryMismatch, CodeResponseMismatch,
		CodeContinuationMismatch, CodeReceiptNotEquivalent} {
		if c.IsReceiptCode() {
			t.Errorf("%s is not a receipt code", c)
		}
	}
	for _, c := range codes {
		if c.Retryable() != (c == CodeRateLimited || c == CodeUnavailable) {
			t.Errorf("%s: Retryable %v", c, c.Retryable())
		}
	}
}

// TestNoReceiptCodeIsSpelledOutside: outside gen/ and the vector generator, no non-test Go file writes a receipt
// code as a string literal — every package uses the Code constants, so the enum has one home. The constants
// themselves (errors.go) and the query state "expired" (a State, not a Code) are the exceptions.
func TestNoReceiptCodeIsSpelledOutside(t *testing.T) {
	codes := map[string]bool{}
	for _, c := range ReceiptCodes() {
		codes[strconv.Quote(string(c))] = true
	}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if d.IsDir() {
			if path != root && (rel == "gen" || rel == "conformance/internal/vectorgen" || strings.HasPrefix(d.Name(), ".")) || d.Name() == "node_modules" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || rel == "core/errors.go" {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok {
				if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "State" {
					return false
				}
			}
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && codes[lit.Value] {
				t.Errorf("%s: receipt code %s spelled as a string literal; use the core.Code constant", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
