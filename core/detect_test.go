package core_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// examples is where the spec's example documents are.
const examples = "../examples/"

// TestSniffKind: whole documents are classified as DetectKind has it; broken ones by the top-level members read
// before the break, and not at all when those do not tell.
func TestSniffKind(t *testing.T) {
	req, _ := os.ReadFile(examples + "quickstart-request-corrected.json")
	resp, _ := os.ReadFile(examples + "quickstart-response.json")
	rec, _ := os.ReadFile(examples + "quickstart-receipt.json")
	cut := func(b []byte, after string) []byte {
		i := bytes.Index(b, []byte(after))
		if i < 0 {
			t.Fatalf("%q not in document", after)
		}
		return b[:i+len(after)]
	}
	for _, c := range []struct {
		name string
		data []byte
		kind core.Kind
		ok   bool
	}{
		{"whole request", req, core.KindRequest, true},
		{"whole receipt", rec, core.KindReceipt, true},
		{"an empty object is a response, as core.DetectKind has it", []byte(`{}`), core.KindResponse, true},
		{"request truncated after its prompt", cut(req, `"prompt"`), core.KindRequest, true},
		{"request truncated inside its subject, after type", cut(req, `"subject": {`), core.KindRequest, true},
		{"response truncated after its respondent", cut(resp, `"respondent"`), core.KindResponse, true},
		{"receipt truncated after its status", cut(rec, `"status"`), core.KindReceipt, true},
		{"nested members do not count", []byte(`{"subject":{"prompt":1,"status":2`), "", false},
		{"only shared members", []byte(`{"protocolVersion":"2026-07-30","queryId":"x"`), "", false},
		{"members of two kinds", []byte(`{"prompt":"p","status":"accepted",`), "", false},
		{"truncated at byte 16", req[:16], "", false},
		{"not an object", []byte(`["prompt"`), "", false},
		{"not JSON", []byte(`prompt`), "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if kind, ok := core.SniffKind(c.data); kind != c.kind || ok != c.ok {
				t.Errorf("SniffKind = %q, %v; want %q, %v", kind, ok, c.kind, c.ok)
			}
		})
	}
}
