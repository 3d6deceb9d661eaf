package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// CarriageDir is the folder of carriage vectors: how queries travel to a respondent over each binding (§6).
const CarriageDir = "vectors/carriage"

// CarriageFile is one file of carriage vectors.
type CarriageFile struct {
	// Path is the file's path relative to the corpus root, e.g. "vectors/carriage/https.json".
	Path string
	// Description says what the vectors in the file cover.
	Description string
	// Vectors are the file's vectors in file order.
	Vectors []Carriage
}

// Carriage is one carried form of queries on one binding — what a respondent receives — and what a respondent must
// take from it: the queries, in order, and the entries it must drop, each with the rule it breaks. Every binding's
// decoder runs the vectors of its binding, so a collector's encoder and a respondent's decoder are held to the same
// forms.
type Carriage struct {
	// Name is unique across the corpus and says what the vector proves.
	Name string `json:"name"`
	// Description says why the rule matters.
	Description string `json:"description"`
	// Requirements are the ids of requirements.json the vector proves: a pass when valid, a failure when not.
	Requirements []string `json:"requirements,omitempty"`
	// Binding is https, mcp or a2a: which carried form the vector holds.
	Binding string `json:"binding"`
	// Headers (https) are the response's header field lines, in order, each value exactly as it is on the wire.
	Headers []HeaderField `json:"headers,omitempty"`
	// ToolResult (mcp) is the CallToolResult JSON a tool returned.
	ToolResult json.RawMessage `json:"toolResult,omitempty"`
	// Message (a2a) is the Message JSON an agent returned; Task is set instead when the carrier is a Task.
	Message json.RawMessage `json:"message,omitempty"`
	// Task (a2a) is the Task JSON an agent returned; Message is set instead when the carrier is a Message.
	Task json.RawMessage `json:"task,omitempty"`
	// Valid says whether the form is what §6 requires: every entry a query a respondent keeps, and at least one.
	Valid bool `json:"valid"`
	// Queries are the QueryRequests a respondent must take from the form, in order (compared as JSON values);
	// empty when it must take none.
	Queries []json.RawMessage `json:"queries"`
	// Dropped are the entries a respondent must drop, in order, each with the rule it breaks.
	Dropped []CarriageDrop `json:"dropped,omitempty"`
}

// HeaderField is one HTTP header field line.
type HeaderField struct {
	// Name is the field name; HTTP field names are case-insensitive.
	Name string `json:"name"`
	// Value is the field value exactly as sent (without the line's surrounding whitespace, which HTTP strips).
	Value string `json:"value"`
}

// CarriageDrop is one carried entry a respondent must drop.
type CarriageDrop struct {
	// Index is the entry's position, 0-based: among the AQP-Query elements (https), or in the carried array (mcp,
	// a2a); -1 when the carrier's member is not an array at all.
	Index int `json:"index"`
	// Rule is the rule the entry breaks (core.CarriageRule): array, base64url, compact, object or request.
	Rule string `json:"rule"`
}

// carriageRules are the words a drop's rule may be.
var carriageRules = map[string]bool{
	string(core.CarriageArray): true, string(core.CarriageBase64URL): true, string(core.CarriageCompact): true,
	string(core.CarriageObject): true, string(core.CarriageRequest): true,
}

// LoadCarriage reads the committed carriage vectors embedded in this package (Files).
func LoadCarriage() ([]CarriageFile, error) {
	return LoadCarriageFS(Files)
}

// LoadCarriageFS reads the carriage vectors under vectors/carriage of fsys, files in name order. It fails on the
// first file that is not a well-formed carriage vector file (see Carriage.check).
func LoadCarriageFS(fsys fs.FS) ([]CarriageFile, error) {
	paths, err := jsonFiles(fsys, CarriageDir)
	if err != nil {
		return nil, err
	}
	var out []CarriageFile
	for _, p := range paths {
		var f struct {
			Description string     `json:"description"`
			Vectors     []Carriage `json:"vectors"`
		}
		if err := decodeFile(fsys, p, &f); err != nil {
			return nil, err
		}
		for i, v := range f.Vectors {
			if err := v.check(); err != nil {
				return nil, fmt.Errorf("%s: vector %d (%q): %w", p, i, v.Name, err)
			}
		}
		out = append(out, CarriageFile{Path: p, Description: f.Description, Vectors: f.Vectors})
	}
	return out, nil
}

// check holds a vector to the format: a known binding carrying exactly its own form, valid queries, known rules,
// and a verdict that agrees with them (valid: at least one query and nothing dropped).
func (v Carriage) check() error {
	if v.Name == "" || v.Description == "" {
		return errors.New("a vector needs a name and a description")
	}
	if err := checkRequirementIDs(v.Requirements); err != nil {
		return err
	}
	forms := map[string]bool{"https": v.Headers != nil, "mcp": v.ToolResult != nil, "a2a": v.Message != nil || v.Task != nil}
	if _, known := forms[v.Binding]; !known {
		return fmt.Errorf("binding %q is not https, mcp or a2a", v.Binding)
	}
	for b, has := range forms {
		if has != (b == v.Binding) {
			return fmt.Errorf("a %s vector carries exactly its binding's form (https: headers, mcp: toolResult, a2a: message or task)", v.Binding)
		}
	}
	if v.Message != nil && v.Task != nil {
		return errors.New("an a2a vector carries a message or a task, not both")
	}
	for i, h := range v.Headers {
		if h.Name == "" {
			return fmt.Errorf("header %d has no name", i)
		}
	}
	if v.Queries == nil {
		return errors.New("a carriage vector needs a queries list (empty when a respondent takes none)")
	}
	for i, q := range v.Queries {
		if doc := core.Parse(core.KindRequest, q); !doc.Valid() {
			return fmt.Errorf("queries[%d] is not a valid QueryRequest: %v", i, doc.Errors)
		}
	}
	last := -2
	for i, d := range v.Dropped {
		if d.Index < -1 {
			return fmt.Errorf("dropped[%d]: index %d is below -1", i, d.Index)
		}
		if !carriageRules[d.Rule] {
			return fmt.Errorf("dropped[%d]: rule %q is not array, base64url, compact, object or request", i, d.Rule)
		}
		if d.Index <= last {
			return fmt.Errorf("dropped[%d]: indexes must increase", i)
		}
		last = d.Index
		if (d.Index == -1) != (d.Rule == string(core.CarriageArray)) {
			return fmt.Errorf("dropped[%d]: index -1 goes with rule array, and only with it", i)
		}
		if d.Index == -1 && (len(v.Dropped) > 1 || len(v.Queries) > 0 || v.Binding == "https") {
			return fmt.Errorf("dropped[%d]: a carrier that is not an array (mcp, a2a) loses everything: nothing else is kept or dropped", i)
		}
	}
	if v.Valid != (len(v.Queries) > 0 && len(v.Dropped) == 0) {
		return errors.New("a carriage vector is valid exactly when a respondent takes at least one query and drops nothing")
	}
	return nil
}
