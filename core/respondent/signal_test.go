package respondent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
)

// TestParseSignal: the text form reads back what String writes; a subject id may hold colons and slashes; a
// misspelt kind, subject kind or protocol, or a missing id, is refused with what is wrong.
func TestParseSignal(t *testing.T) {
	for _, tc := range []struct {
		text    string
		want    Signal
		problem string // "" when valid
	}{
		{text: "outcome_known:tool_result/mcp:call_01JQ8QY3EJX9",
			want: Signal{Kind: SignalOutcomeKnown, Subject: aqp.QuerySubject{Kind: aqp.QuerySubjectKindToolResult, ID: "call_01JQ8QY3EJX9", Protocol: ptr(aqp.QuerySubjectProtocolMCP)}}},
		{text: "task_complete:task:urn:task:7/a",
			want: Signal{Kind: SignalTaskComplete, Subject: aqp.QuerySubject{Kind: aqp.QuerySubjectKindTask, ID: "urn:task:7/a"}}},
		{text: "outcome_known", problem: "want KIND:SUBJECTKIND"},
		{text: "outcome-known:task:t1", problem: `kind "outcome-known"`},
		{text: "outcome_known:task", problem: "no subject id"},
		{text: "outcome_known:task:", problem: "no subject id"},
		{text: "outcome_known:tool:t1", problem: "/subject/kind"},
		{text: "outcome_known:task/smtp:t1", problem: "/subject/protocol"},
	} {
		got, err := ParseSignal(tc.text)
		if tc.problem != "" {
			if err == nil || !strings.Contains(err.Error(), tc.problem) {
				t.Errorf("%q: error %v, want one saying %q", tc.text, err, tc.problem)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		if got.String() != tc.text || got.Kind != tc.want.Kind || subjectKey(got.Subject) != subjectKey(tc.want.Subject) {
			t.Errorf("%q: parsed %+v (%s), want %+v", tc.text, got, got, tc.want)
		}
	}
}

// TestSignalReleasesItsQuery: a parsed signal given before the query arrives releases the query it names (D28), and
// Awaits names the signal a query waits for, in the form ParseSignal reads.
func TestSignalReleasesItsQuery(t *testing.T) {
	h := newHarness(t, "")
	q := h.intake(t, query(t, time.Hour, func(m map[string]any) { m["timing"] = "after_task_complete" }))
	want, ok := q.Awaits()
	if !ok || want.String() != "task_complete:tool_call/mcp:call_1" {
		t.Fatalf("Awaits: %v %v", want, ok)
	}
	s, err := ParseSignal(want.String())
	if err != nil {
		t.Fatal(err)
	}
	if err := h.r.Signal(s); err != nil {
		t.Fatal(err)
	}
	if res, err := h.r.Respond(context.Background(), q); err != nil || !res.Accepted {
		t.Fatalf("%v %+v", err, res)
	}
	if err := h.r.Signal(Signal{Kind: "done"}); err == nil {
		t.Error("an unknown signal kind was accepted")
	}
	if _, ok := h.intake(t, query(t, time.Hour, nil)).Awaits(); ok {
		t.Error("an immediate query awaits a signal")
	}
}
