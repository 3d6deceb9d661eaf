package harnesstest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// CarriageCodec is one binding's carriage of queries to a respondent (§6), as the binding's package implements it;
// the binding's test supplies it, so the harness judges the binding's own decoder and encoder without importing
// them.
type CarriageCodec struct {
	// Decode reads a vector's carried form (Headers, ToolResult, Message or Task) as a respondent of the binding
	// does, through the binding's SDK types: the JSON of each query kept, in order, and each entry dropped with its
	// rule. The error is a form the binding cannot even parse (a vector's form always parses).
	Decode func(v conformance.Carriage) (queries [][]byte, dropped []conformance.CarriageDrop, err error)
	// Encode carries queries (each a valid QueryRequest's JSON) as a collector of the binding does, in a form like
	// v's (a Message when v carries a Message, a Task when a Task), and returns that form as a vector holds it.
	Encode func(v conformance.Carriage, queries [][]byte) (conformance.Carriage, error)
}

// CarriageSuite runs the carriage vectors of one binding through its codec, each vector as a subtest: the decoder
// must keep exactly the vector's queries (as JSON values, in order) and drop exactly its entries with their rules;
// for a valid vector the encoder's form of the same queries must decode to them with nothing dropped, and over
// HTTPS, whose form is one text per query, must be the vector's exact header text wherever the vector writes each
// query as this implementation's canonical compact JSON (members sorted) on its own field line. It fails when the
// binding has no vector, or when no exact-text comparison ran over HTTPS. It returns how many vectors ran.
func CarriageSuite(t *testing.T, binding string, codec CarriageCodec) int {
	t.Helper()
	files, err := conformance.LoadCarriage()
	if err != nil {
		t.Fatal(err)
	}
	ran, exact := 0, 0
	for _, f := range files {
		for _, v := range f.Vectors {
			if v.Binding != binding {
				continue
			}
			ran++
			t.Run(v.Name, func(t *testing.T) {
				queries, dropped, err := codec.Decode(v)
				if err != nil {
					t.Fatalf("decoding the vector's form: %v", err)
				}
				if problem := sameCarried(v.Queries, queries, v.Dropped, dropped); problem != "" {
					t.Fatalf("%s\n%s", problem, v.Description)
				}
				if !v.Valid {
					return
				}
				in := make([][]byte, len(v.Queries))
				for i, q := range v.Queries {
					in[i] = q
				}
				enc, err := codec.Encode(v, in)
				if err != nil {
					t.Fatalf("encoding the vector's queries: %v", err)
				}
				queries, dropped, err = codec.Decode(enc)
				if err != nil {
					t.Fatalf("decoding the encoder's form: %v", err)
				}
				if problem := sameCarried(v.Queries, queries, nil, dropped); problem != "" {
					t.Fatalf("the encoder's form: %s", problem)
				}
				if binding == spec.BindingHTTPS && canonicalHeaders(v) {
					exact++
					if got, want := headerValues(enc), headerValues(v); !slices.Equal(got, want) {
						t.Fatalf("the encoder writes %q, the vector %q", got, want)
					}
				}
			})
		}
	}
	if ran == 0 {
		t.Fatalf("no carriage vector for binding %q", binding)
	}
	if binding == spec.BindingHTTPS && exact == 0 {
		t.Fatal("no HTTPS carriage vector was compared with the encoder's exact text")
	}
	return ran
}

// sameCarried compares what a decoder kept and dropped with what a vector expects; "" when they agree.
func sameCarried(want []json.RawMessage, got [][]byte, wantDropped, gotDropped []conformance.CarriageDrop) string {
	if len(got) != len(want) {
		return fmt.Sprintf("kept %d queries, want %d (dropped %v, want %v)", len(got), len(want), gotDropped, wantDropped)
	}
	for i := range want {
		w, werr := core.DecodeJSON(want[i])
		g, gerr := core.DecodeJSON(got[i])
		if werr != nil || gerr != nil || !core.EqualJSON(w, g) {
			return fmt.Sprintf("query %d differs:\n got  %.300s\n want %.300s", i, got[i], want[i])
		}
	}
	if len(gotDropped) != len(wantDropped) {
		return fmt.Sprintf("dropped %v, want %v", gotDropped, wantDropped)
	}
	for i := range wantDropped {
		if gotDropped[i] != wantDropped[i] {
			return fmt.Sprintf("dropped %v, want %v", gotDropped, wantDropped)
		}
	}
	return ""
}

// canonicalHeaders: every AQP-Query field line of v is one element, the base64url of canonical compact JSON — the
// one text this implementation's encoder writes for its query.
func canonicalHeaders(v conformance.Carriage) bool {
	values := headerValues(v)
	for _, s := range values {
		raw, err := base64.RawURLEncoding.Strict().DecodeString(s)
		if err != nil || strings.ContainsAny(s, ", \t") {
			return false
		}
		val, err := core.DecodeJSON(raw)
		if err != nil || !bytes.Equal(core.CompactJSON(val), raw) {
			return false
		}
	}
	return len(values) > 0
}

// headerValues are the values of v's AQP-Query field lines, in order.
func headerValues(v conformance.Carriage) []string {
	var out []string
	for _, h := range v.Headers {
		if strings.EqualFold(h.Name, spec.QueryHeader) {
			out = append(out, h.Value)
		}
	}
	return out
}
