package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const ex = "../../examples/"

// TestValidateQuickstart is the README's `aqp validate` walk-through, as a test.
func TestValidateQuickstart(t *testing.T) {
	cases := []struct {
		name string
		args []string
		exit int
		out  []string // substrings of standard output
	}{
		{"published request is invalid", []string{"validate", ex + "quickstart-request.json"}, 1,
			[]string{`/consentMode: missing required member "consentMode" [required, invalid_request]`,
				`/consentScope: missing required member "consentScope" when consentMode is "ask_once" [required, invalid_request]`}},
		{"corrected request, response and receipt are valid", []string{"validate", ex + "quickstart-request-corrected.json", ex + "quickstart-response.json", ex + "quickstart-receipt.json"}, 0,
			[]string{"valid request", "valid response", "valid receipt"}},
		{"pair is valid", []string{"validate", "--pair", ex + "quickstart-request-corrected.json", ex + "quickstart-response.json", ex + "quickstart-receipt.json"}, 0,
			[]string{": valid"}},
		{"pair with the published request reports its schema failures", []string{"validate", "--pair", ex + "quickstart-request.json", ex + "quickstart-response.json"}, 1,
			[]string{"request /consentMode"}},
		{"kind forced wrong", []string{"validate", "--kind", "receipt", ex + "quickstart-response.json"}, 1,
			[]string{"invalid receipt"}},
		{"flags after files", []string{"validate", ex + "quickstart-receipt.json", "--kind", "receipt"}, 0, []string{"valid receipt"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(tc.args, strings.NewReader(""), &out, &errOut); code != tc.exit {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.exit, out.String(), errOut.String())
			}
			for _, want := range tc.out {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}

func TestValidateJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	stdin := strings.NewReader(`{"status":"accepted"}`)
	code := run([]string{"validate", "--json", ex + "quickstart-request.json", "-"}, stdin, &out, &errOut)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one line per document, got %q", out.String())
	}
	var rec struct {
		File   string
		Kind   string
		Valid  bool
		Errors []struct{ Code, Pointer, Keyword, Message string }
	}
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Kind != "request" || rec.Valid || len(rec.Errors) != 2 || rec.Errors[0].Pointer != "/consentMode" ||
		rec.Errors[0].Keyword != "required" || rec.Errors[0].Code != "invalid_request" || rec.Errors[0].Message == "" {
		t.Fatalf("record: %+v", rec)
	}
	if err := json.Unmarshal([]byte(lines[1]), &rec); err != nil || rec.File != "-" || rec.Kind != "receipt" || rec.Valid {
		t.Fatalf("stdin record: %s", lines[1])
	}

	out.Reset()
	code = run([]string{"validate", "--json", "--pair", ex + "quickstart-request-corrected.json", ex + "quickstart-response.json", ex + "quickstart-request-corrected.json"}, nil, &out, &errOut)
	var pair struct {
		Kind   string
		Files  map[string]string
		Errors []struct{ Document, Code string }
	}
	if err := json.Unmarshal(out.Bytes(), &pair); err != nil || code != 1 || pair.Kind != "pair" || pair.Files["receipt"] == "" ||
		len(pair.Errors) == 0 || pair.Errors[0].Document != "receipt" || pair.Errors[0].Code != "invalid_receipt" {
		t.Fatalf("pair record (exit %d): %s", code, out.String())
	}
}

func TestValidateUsage(t *testing.T) {
	for _, args := range [][]string{
		{"validate"},
		{"validate", "--kind", "query", ex + "quickstart-response.json"},
		{"validate", "--pair", ex + "quickstart-response.json"},
		{"validate", "--pair", "--kind", "request", ex + "quickstart-request.json", ex + "quickstart-response.json"},
		{"validate", "/nonexistent/file.json"},
		{"validate", "-", "-"},
		{"nope"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, strings.NewReader("{}"), &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, errOut.String())
		}
		if errOut.Len() == 0 {
			t.Errorf("%v: no message on stderr", args)
		}
	}
}
