package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/conformance"
	"github.com/agentqueryprotocol/aqp-go/conformance/internal/mutate"
	"github.com/agentqueryprotocol/aqp-go/core"
)

func TestEveryRuleNamesItsVector(t *testing.T) {
	if err := checkRules(); err != nil {
		t.Fatal(err)
	}
}

// vectorText is the text of a valid corpus vector with old replaced by new.
func vectorText(t *testing.T, name, old, new string) string {
	t.Helper()
	c, err := conformance.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Standalone {
		for _, v := range f.Vectors {
			if v.Name == name {
				s := string(v.Bytes())
				if !strings.Contains(s, old) {
					t.Fatalf("%s does not hold %s", name, old)
				}
				return strings.Replace(s, old, new, 1)
			}
		}
	}
	t.Fatalf("no vector %s", name)
	return ""
}

// Each disagreement is explained by its rule, and one no rule covers is not explained away.
func TestClassify(t *testing.T) {
	const req, rec = "quickstart/request-corrected-is-valid", "receipt/rejected/retryable-with-retryAfter-is-valid"
	tests := []struct {
		name, vector, kind, old, new string
		ajv                          bool
		ajvErrors                    []string
		want                         string // "": unexplained
	}{
		{"urn uuid", req, "request", `"queryId":"`, `"queryId":"urn:uuid:`, true, nil, "ajv-formats urn:uuid:"},
		{"offset without colon", req, "request", `"expiresAt":"2026-07-30T19:00:00Z"`, `"expiresAt":"2026-07-30T20:00:00+0100"`, true, nil, "ajv-formats offset +hhmm"},
		{"offset of hours", req, "request", `"expiresAt":"2026-07-30T19:00:00Z"`, `"expiresAt":"2026-07-30T20:00:00+01"`, true, nil, "ajv-formats offset +hh"},
		{"space for T", req, "request", `"expiresAt":"2026-07-30T19:00:00Z"`, `"expiresAt":"2026-07-30 19:00:00Z"`, true, nil, "ajv-formats space for T"},
		{"port", req, "request", `"endpoint":"https://queries.example/responses"`, `"endpoint":"https://queries.example:84a3/x"`, true, nil, "ajv-formats non-numeric port"},
		{"scheme only", req, "request", `"endpoint":"https://queries.example/responses"`, `"endpoint":"https:"`, false, []string{"/delivery/endpoint format"}, "ajv-formats empty hier-part"},
		{"duplicate", req, "request", `"prompt":`, `"prompt":1,"prompt":`, true, nil, "I-JSON duplicate name"},
		{"lone surrogate", req, "request", `"prompt":"`, `"prompt":"\ud800`, true, nil, "I-JSON lone surrogate"},
		{"double", rec, "receipt", `"retryAfter":30`, `"retryAfter":30.00000000000000000001`, true, nil, "ajv judges a double"},
		{"double both ways", rec, "receipt", `"retryAfter":30`, `"retryAfter":0.99999999999999999999`, true, nil, "ajv judges a double"},
		{"D22", rec, "receipt", `"retryAfter":30`, `"retryAfter":1e1001`, true, nil, "D22 number bound"},
		{"two classes", req, "request", `"queryId":"|"expiresAt":"2026-07-30T19:00:00Z"`, `"queryId":"urn:uuid:|"expiresAt":"2026-07-30T20:00:00+01"`, true, nil, "ajv-formats offset +hh + ajv-formats urn:uuid:"},
		// Not explained: a missing member core reports and ajv would too; a format ajv rejects for no recorded reason.
		{"required", req, "request", `"prompt":`, `"prompX":`, true, nil, ""},
		{"other uri", req, "request", `"endpoint":"https://queries.example/responses"`, `"endpoint":"https://queries.example/x"`, false, []string{"/delivery/endpoint format"}, ""},
		{"uuid for no reason", req, "request", `"queryId":"`, `"queryId":"{`, true, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var compact bytes.Buffer
			if err := json.Compact(&compact, []byte(vectorText(t, tc.vector, "", ""))); err != nil {
				t.Fatal(err)
			}
			text, news := compact.String(), strings.Split(tc.new, "|") // "|" separates replacements
			for i, old := range strings.Split(tc.old, "|") {
				text = strings.Replace(text, old, news[i], 1)
			}
			if text == compact.String() {
				t.Fatalf("%s does not hold %s", tc.vector, tc.old)
			}
			kind, _ := core.ParseKind(tc.kind)
			errs := core.Validate(kind, []byte(text))
			if (len(errs) == 0) == tc.ajv {
				t.Fatalf("core and ajv agree (core errors %v): not a disagreement", errs)
			}
			ajv := tc.ajv
			m := checked{Mutant: mutate.Mutant{Kind: tc.kind, Text: text}, AJV: &ajv, AJVErrors: tc.ajvErrors}
			got, ok := classify(m, errs)
			if !ok {
				got = ""
			}
			if got != tc.want {
				t.Errorf("class %q, want %q (core errors: %v)", got, tc.want, errs)
			}
		})
	}
}

// compare fails a run with an unexplained disagreement, and one with too few mutants.
func TestCompareFails(t *testing.T) {
	yes := true
	line, _ := json.Marshal(checked{Mutant: mutate.Mutant{Kind: "receipt", Text: `{}`}, AJV: &yes})
	var out bytes.Buffer
	ok, err := compare(bytes.NewReader(append(line, '\n')), &out, 1)
	if err != nil || ok {
		t.Fatalf("ok %v err %v, want a failed run\n%s", ok, err, out.String())
	}
	if !strings.Contains(out.String(), "UNEXPLAINED") || !strings.Contains(out.String(), "document: {}") {
		t.Errorf("the disagreement is not printed with its document:\n%s", out.String())
	}
	no := false
	line, _ = json.Marshal(checked{Mutant: mutate.Mutant{Kind: "receipt", Text: `{}`}, AJV: &no})
	out.Reset()
	if ok, err := compare(bytes.NewReader(line), &out, 2); err != nil || ok {
		t.Fatalf("1 of at least 2 mutants: ok %v err %v\n%s", ok, err, out.String())
	}
}
