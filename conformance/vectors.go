// Package conformance loads the AQP conformance vectors (see README.md in this folder for their format). The
// vectors are data: this package only reads and checks their shape, so that every suite that runs them — core's,
// and each binding's — reads them the same way and fails the same way when a file is malformed.
package conformance

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
)

// Files holds the committed generated vector files, at vectors/standalone/*.json, vectors/paired/*.json and
// vectors/carriage/*.json.
//
//go:embed vectors/standalone/*.json vectors/paired/*.json vectors/carriage/*.json
var Files embed.FS

// The folders of the corpus, relative to the root of Files (or of a directory given to LoadDir).
const (
	StandaloneDir = "vectors/standalone"
	PairedDir     = "vectors/paired"
)

// Corpus is every vector file of the corpus, each folder's files in name order.
type Corpus struct {
	Standalone []StandaloneFile
	Paired     []PairedFile
}

// StandaloneFile is one file of standalone vectors.
type StandaloneFile struct {
	// Path is the file's path relative to the corpus root, e.g. "vectors/standalone/request.json".
	Path string
	// Description says what the vectors in the file cover.
	Description string
	// Vectors are the file's vectors in file order.
	Vectors []Standalone
}

// PairedFile is one file of paired vectors.
type PairedFile struct {
	// Path is the file's path relative to the corpus root, e.g. "vectors/paired/consent.json".
	Path string
	// Description says what the vectors in the file cover.
	Description string
	// Vectors are the file's vectors in file order.
	Vectors []Paired
}

// ExpectedError is one error a standalone vector expects: where (an RFC 6901 pointer into the document) and which
// rule (a JSON Schema keyword, or one of the AQP keywords json, size, compile).
type ExpectedError struct {
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
}

// String renders the error as "pointer keyword", the root pointer as "(root)".
func (e ExpectedError) String() string {
	p := e.Pointer
	if p == "" {
		p = "(root)"
	}
	return p + " " + e.Keyword
}

// Standalone is one document of one kind, the verdict a conformant validator reaches on it, and (when invalid)
// exactly the errors it reports.
type Standalone struct {
	// Name is unique across the corpus and says what the vector proves.
	Name string `json:"name"`
	// Description says why the rule matters.
	Description string `json:"description"`
	// Requirements are the ids of requirements.json the vector proves (a pass or a failure of each).
	Requirements []string `json:"requirements,omitempty"`
	// Kind is request, response or receipt: the schema the document is validated against.
	Kind string `json:"kind"`
	// Document is the document as a JSON value, exactly as it appears in the file; nil when DocumentText is set.
	Document json.RawMessage `json:"document,omitempty"`
	// DocumentText is the document as exact text, for inputs that are not one JSON value; nil when Document is set.
	DocumentText *string `json:"documentText,omitempty"`
	// Valid is the expected verdict.
	Valid bool `json:"valid"`
	// Errors are, for an invalid vector, the expected errors as a set; empty for a valid one.
	Errors []ExpectedError `json:"errors,omitempty"`
	// BeyondJSONSchema, when not empty, says why the verdict depends on an AQP rule a JSON Schema validator
	// cannot see; an interop check against a plain JSON Schema validator skips such vectors.
	BeyondJSONSchema string `json:"beyondJsonSchema,omitempty"`
	// KnownDeviations names independent validators known to reach the other verdict on this vector, each with
	// the reason (a departure of theirs from the RFC a format names). The interop check requires the named
	// validator to disagree here, so a deviation that is fixed upstream shows up.
	KnownDeviations map[string]string `json:"knownDeviations,omitempty"`
}

// Bytes returns the bytes to validate: DocumentText when set, otherwise Document.
func (v Standalone) Bytes() []byte {
	if v.DocumentText != nil {
		return []byte(*v.DocumentText)
	}
	return v.Document
}

// Paired is up to four documents of one exchange, the expected verdict, and the expected codes.
type Paired struct {
	// Name is unique across the corpus and says what the vector proves.
	Name string `json:"name"`
	// Description says why the rule matters.
	Description string `json:"description"`
	// Requirements are the ids of requirements.json the vector proves (a pass or a failure of each).
	Requirements []string `json:"requirements,omitempty"`
	// Request, Response, Receipt and Duplicate (a second receipt for the same response) are the documents as
	// JSON values exactly as they appear in the file; nil, or the JSON text null, when the document is absent.
	Request   json.RawMessage `json:"request,omitempty"`
	Response  json.RawMessage `json:"response,omitempty"`
	Receipt   json.RawMessage `json:"receipt,omitempty"`
	Duplicate json.RawMessage `json:"duplicate,omitempty"`
	// Valid is the expected verdict.
	Valid bool `json:"valid"`
	// Codes are the distinct codes expected, in the order the checks run: the standalone codes of documents that
	// are invalid on their own first, then the paired codes.
	Codes []string `json:"codes"`
}

// Present returns a document's bytes, or nil when the document is absent or null.
func Present(doc json.RawMessage) []byte {
	if len(bytes.TrimSpace(doc)) == 0 || bytes.Equal(bytes.TrimSpace(doc), []byte("null")) {
		return nil
	}
	return doc
}

// Count is the number of vectors in the corpus.
func (c *Corpus) Count() int {
	n := 0
	for _, f := range c.Standalone {
		n += len(f.Vectors)
	}
	for _, f := range c.Paired {
		n += len(f.Vectors)
	}
	return n
}

// Names lists every vector's name, standalone files first, in file order.
func (c *Corpus) Names() []string {
	var out []string
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			out = append(out, v.Name)
		}
	}
	for _, f := range c.Paired {
		for _, v := range f.Vectors {
			out = append(out, v.Name)
		}
	}
	return out
}

// Load reads the committed corpus embedded in this package.
func Load() (*Corpus, error) {
	return LoadFS(Files)
}

// LoadDir reads a corpus from a directory laid out like this folder (vectors/standalone, vectors/paired).
func LoadDir(dir string) (*Corpus, error) {
	return LoadFS(os.DirFS(dir))
}

// LoadFS reads a corpus from fsys. It fails on the first file that is not a well-formed vector file: unknown
// members, a standalone vector with neither or both of document and documentText, an unknown kind, a valid vector
// that lists errors or codes, or an invalid one that lists none.
func LoadFS(fsys fs.FS) (*Corpus, error) {
	c := &Corpus{}
	standalone, err := jsonFiles(fsys, StandaloneDir)
	if err != nil {
		return nil, err
	}
	for _, p := range standalone {
		var f struct {
			Description string       `json:"description"`
			Vectors     []Standalone `json:"vectors"`
		}
		if err := decodeFile(fsys, p, &f); err != nil {
			return nil, err
		}
		for i, v := range f.Vectors {
			if err := v.check(); err != nil {
				return nil, fmt.Errorf("%s: vector %d (%q): %w", p, i, v.Name, err)
			}
		}
		c.Standalone = append(c.Standalone, StandaloneFile{Path: p, Description: f.Description, Vectors: f.Vectors})
	}
	paired, err := jsonFiles(fsys, PairedDir)
	if err != nil {
		return nil, err
	}
	for _, p := range paired {
		var f struct {
			Description string   `json:"description"`
			Vectors     []Paired `json:"vectors"`
		}
		if err := decodeFile(fsys, p, &f); err != nil {
			return nil, err
		}
		for i, v := range f.Vectors {
			if err := v.check(); err != nil {
				return nil, fmt.Errorf("%s: vector %d (%q): %w", p, i, v.Name, err)
			}
		}
		c.Paired = append(c.Paired, PairedFile{Path: p, Description: f.Description, Vectors: f.Vectors})
	}
	return c, nil
}

// jsonFiles lists the *.json files directly inside dir, in name order.
func jsonFiles(fsys fs.FS, dir string) ([]string, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && path.Ext(e.Name()) == ".json" {
			out = append(out, path.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// decodeFile decodes one vector file strictly: no unknown members, exactly one JSON value, a description and at
// least one vector.
func decodeFile(fsys fs.FS, p string, into any) error {
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return err
	}
	if err := DecodeStrict(p, data, into); err != nil {
		return err
	}
	var env struct {
		Description string            `json:"description"`
		Vectors     []json.RawMessage `json:"vectors"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if env.Description == "" {
		return fmt.Errorf("%s: the file has no description", p)
	}
	if len(env.Vectors) == 0 {
		return fmt.Errorf("%s: the file has no vectors", p)
	}
	for i, raw := range env.Vectors {
		var members map[string]json.RawMessage
		if err := json.Unmarshal(raw, &members); err != nil {
			return fmt.Errorf("%s: vector %d: %w", p, i, err)
		}
		if _, ok := members["valid"]; !ok {
			return fmt.Errorf("%s: vector %d: no \"valid\" member", p, i)
		}
	}
	return nil
}

func (v Standalone) check() error {
	if v.Name == "" || v.Description == "" {
		return errors.New("a vector needs a name and a description")
	}
	switch v.Kind {
	case "request", "response", "receipt":
	default:
		return fmt.Errorf("kind %q is not request, response or receipt", v.Kind)
	}
	if err := checkRequirementIDs(v.Requirements); err != nil {
		return err
	}
	if (v.Document == nil) == (v.DocumentText == nil) {
		return errors.New("exactly one of document and documentText must be given")
	}
	if v.Valid && len(v.Errors) > 0 {
		return errors.New("a valid vector lists errors")
	}
	if !v.Valid && len(v.Errors) == 0 {
		return errors.New("an invalid vector lists no errors")
	}
	return nil
}

func (v Paired) check() error {
	if v.Name == "" || v.Description == "" {
		return errors.New("a vector needs a name and a description")
	}
	if err := checkRequirementIDs(v.Requirements); err != nil {
		return err
	}
	if v.Codes == nil {
		return errors.New("a paired vector needs a codes list (empty when valid)")
	}
	if v.Valid != (len(v.Codes) == 0) {
		return errors.New("a paired vector is valid exactly when it lists no codes")
	}
	if Present(v.Request) == nil && Present(v.Response) == nil && Present(v.Receipt) == nil && Present(v.Duplicate) == nil {
		return errors.New("a paired vector needs at least one document")
	}
	return nil
}
