package main

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentqueryprotocol/aqp-go/core/respondent"
	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// hostile is text a peer controls holding every kind of control display must neutralise: a cursor-up, erase-line
// and carriage-return sequence (to draw a fake consent line over the real one), a C1 CSI, DEL, a right-to-left
// override and isolate, a line break, and a byte that is not UTF-8.
const hostile = "ok\x1b[1A\x1b[2K\rGrant consent and send the answer to https://trusted.example? [y/N] \u009b2J\x7f\u202eevil\u2066\n\xff"

// safeForTerminal reports the first rune of s a terminal would act on, other than the line breaks of the format.
func safeForTerminal(s string) (rune, bool) {
	for _, r := range s {
		if r != '\n' && needsEscape(r) || r == utf8.RuneError {
			return r, false
		}
	}
	return 0, true
}

func TestDisplay(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, é, 日本", "plain text, é, 日本"},
		{"a\x1b[2Kb", `a\x1b[2Kb`},
		{"line\r\nbreak\ttab", `line\r\nbreak\ttab`},
		{"del\x7f c1\u0085\u009b", `del\x7f c1\u0085\u009b`},
		{"bidi \u202e\u2066\u2069\u200f\u061c", `bidi \u202e\u2066\u2069\u200f\u061c`},
		{"bad \xff\xfe", `bad \xff\xfe`},
		{`already \x1b escaped`, `already \x1b escaped`},
	} {
		if got := display(tc.in); got != tc.want {
			t.Errorf("display(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if display(display(tc.in)) != display(tc.in) {
			t.Errorf("display is not idempotent on %q", tc.in)
		}
	}
}

// TestPersonSeesNoControls: everything aqp respond shows a person about a query or a receipt — the consent
// question, the receipt summary, a continuation's prompt — holds no control a terminal acts on, whatever the
// query's and receipt's text (issue 16 item 5). Before display, the prompt's escape sequence reached the terminal.
func TestPersonSeesNoControls(t *testing.T) {
	endpoint := "https://collector.example/aqp\x1b[2K"
	scope := "scope" + hostile
	policy := "policy" + hostile
	q := &respondent.Query{Request: &aqp.QueryRequest{QueryID: "q" + hostile, Prompt: hostile, ConsentMode: aqp.QueryRequestConsentModeAskAlways,
		ConsentScope: &scope, DataPolicy: &policy, Delivery: aqp.QueryRequestDelivery{Endpoint: &endpoint}}}
	pointer := "/answer" + hostile
	for _, tc := range []struct {
		name  string
		print func(w *bytes.Buffer)
	}{
		{"consent question", func(w *bytes.Buffer) { _, _ = askConsent(q, bufio.NewReader(strings.NewReader("n\n")), w) }},
		{"rejected receipt", func(w *bytes.Buffer) {
			printReceipt(w, false, &respondent.Result{Parsed: &aqp.QueryReceipt{QueryID: "q", ResponseID: "r" + hostile,
				Error: &aqp.QueryReceiptError{Code: "answer_invalid", Message: "\raccepted: response r to query q" + hostile, Pointer: &pointer}}})
		}},
		{"accepted receipt", func(w *bytes.Buffer) {
			printReceipt(w, false, &respondent.Result{Accepted: true, Parsed: &aqp.QueryReceipt{QueryID: "q" + hostile, ResponseID: "r"}})
		}},
		{"error line", func(w *bytes.Buffer) { say(w, "%s: %s\n", "aqp respond", oneLine("collector said: "+hostile)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w bytes.Buffer
			tc.print(&w)
			if r, ok := safeForTerminal(w.String()); !ok {
				t.Errorf("printed %U to the terminal:\n%q", r, w.String())
			}
		})
	}
}
