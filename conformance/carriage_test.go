package conformance_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentqueryprotocol/aqp-go/conformance"
)

// TestCarriageVectorsLoad: the committed carriage vectors are well-formed, each binding has a valid and an invalid
// one, and their names are unique across the whole corpus.
func TestCarriageVectorsLoad(t *testing.T) {
	files, err := conformance.LoadCarriage()
	if err != nil {
		t.Fatal(err)
	}
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, n := range c.Names() {
		seen[n] = true
	}
	sides := map[string][2]int{}
	for _, f := range files {
		for _, v := range f.Vectors {
			if seen[v.Name] {
				t.Errorf("%s: vector name %q used twice in the corpus", f.Path, v.Name)
			}
			seen[v.Name] = true
			s := sides[v.Binding]
			if v.Valid {
				s[0]++
			} else {
				s[1]++
			}
			sides[v.Binding] = s
		}
	}
	for _, b := range []string{"https", "mcp", "a2a"} {
		if sides[b][0] == 0 || sides[b][1] == 0 {
			t.Errorf("%s: %d valid and %d invalid carriage vectors; want both", b, sides[b][0], sides[b][1])
		}
	}
	t.Logf("carriage vectors (valid, invalid): %v", sides)
}

// TestCarriageLoaderRefusesMalformedVectors: each way a carriage vector can be malformed is refused, naming why,
// and a well-formed one loads.
func TestCarriageLoaderRefusesMalformedVectors(t *testing.T) {
	const q = `{"protocolVersion":"2026-07-30","queryId":"0198c7cb-1af1-7e79-bd7f-02f8a89b8857","type":"feedback","subject":{"kind":"task","id":"t"},"prompt":"p","timing":"immediate","consentMode":"not_required","response":{"format":"text"},"delivery":{"binding":"https"},"expiresAt":"2026-07-30T19:00:00Z"}`
	const meta = `{"_meta":{"com.agentqueryprotocol/queries":[` + q + `]}}`
	vector := func(members string) string {
		return `{"description":"d","vectors":[{"name":"n","description":"d",` + members + `}]}`
	}
	for _, tc := range []struct {
		name, members, want string
	}{
		{"well-formed", `"binding":"mcp","toolResult":` + meta + `,"valid":true,"queries":[` + q + `]`, ""},
		{"well-formed, nothing carried", `"binding":"https","headers":[{"name":"X","value":"y"}],"valid":false,"queries":[]`, ""},
		{"unknown binding", `"binding":"grpc","toolResult":` + meta + `,"valid":true,"queries":[` + q + `]`, "not https, mcp or a2a"},
		{"another binding's form", `"binding":"https","toolResult":` + meta + `,"valid":true,"queries":[` + q + `]`, "exactly its binding's form"},
		{"message and task", `"binding":"a2a","message":{},"task":{},"valid":false,"queries":[]`, "not both"},
		{"no queries list", `"binding":"mcp","toolResult":` + meta + `,"valid":false`, "queries list"},
		{"invalid query", `"binding":"mcp","toolResult":` + meta + `,"valid":true,"queries":[{"type":"feedback"}]`, "not a valid QueryRequest"},
		{"unknown rule", `"binding":"mcp","toolResult":` + meta + `,"valid":false,"queries":[],"dropped":[{"index":0,"rule":"stale"}]`, "rule \"stale\""},
		{"array drop at an index", `"binding":"mcp","toolResult":` + meta + `,"valid":false,"queries":[],"dropped":[{"index":0,"rule":"array"}]`, "index -1"},
		{"array drop with a query kept", `"binding":"mcp","toolResult":` + meta + `,"valid":false,"queries":[` + q + `],"dropped":[{"index":-1,"rule":"array"}]`, "loses everything"},
		{"indexes out of order", `"binding":"mcp","toolResult":` + meta + `,"valid":false,"queries":[],"dropped":[{"index":1,"rule":"object"},{"index":0,"rule":"object"}]`, "increase"},
		{"valid with a drop", `"binding":"mcp","toolResult":` + meta + `,"valid":true,"queries":[` + q + `],"dropped":[{"index":1,"rule":"object"}]`, "valid exactly when"},
		{"invalid though clean", `"binding":"mcp","toolResult":` + meta + `,"valid":false,"queries":[` + q + `]`, "valid exactly when"},
		{"unknown member", `"binding":"mcp","toolResult":` + meta + `,"valid":true,"queries":[` + q + `],"note":"x"`, "unknown field"},
		{"unknown requirement id form", `"requirements":["bind"],"binding":"mcp","toolResult":` + meta + `,"valid":true,"queries":[` + q + `]`, "bind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{conformance.CarriageDir + "/x.json": {Data: []byte(vector(tc.members))}}
			files, err := conformance.LoadCarriageFS(fsys)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "" && len(files) != 1:
				t.Fatalf("loaded %d files", len(files))
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("want an error saying %q, got %v", tc.want, err)
			}
		})
	}
}
