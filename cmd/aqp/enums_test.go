package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// TestFlagWordsFollowTheSchemas: every flag that takes one of a schema's enum values lists exactly that enum's
// values, in the schema's order, in its --help text and in shell completion. The expected lists are read from the
// embedded schemas here, not from gen/aqp, so a stale generated list or a hand-written copy fails; `make test`'s
// check-generated step in turn fails when gen/aqp lags spec/, so adding a value to a schema and running
// `make generate` is all it takes for the CLI to offer it.
func TestFlagWordsFollowTheSchemas(t *testing.T) {
	for _, c := range []struct {
		command []string
		flag    string
		schema  string
		pointer []string // property names from the schema's root
		except  []string // values the flag rightly does not offer, and why
	}{
		{[]string{"query", "create"}, "type", spec.RequestSchema, []string{"type"}, nil},
		{[]string{"query", "create"}, "format", spec.RequestSchema, []string{"response", "format"}, nil},
		{[]string{"query", "create"}, "subject-kind", spec.SubjectSchema, []string{"kind"}, nil},
		{[]string{"query", "create"}, "subject-id-scope", spec.SubjectSchema, []string{"idScope"}, nil},
		{[]string{"query", "create"}, "subject-protocol", spec.SubjectSchema, []string{"protocol"}, nil},
		{[]string{"query", "create"}, "respondent", spec.RequestSchema, []string{"requestedRespondent"}, nil},
		{[]string{"query", "create"}, "timing", spec.RequestSchema, []string{"timing"}, nil},
		{[]string{"query", "create"}, "consent-mode", spec.RequestSchema, []string{"consentMode"}, nil},
		// "other" names a binding outside AQP's own: a collector does not issue over it (the flag offers bindings.Names, the one list).
		{[]string{"query", "create"}, "binding", spec.RequestSchema, []string{"delivery", "binding"}, []string{"other"}},
		{[]string{"respond"}, "respondent-kind", spec.ResponseSchema, []string{"respondent", "kind"}, nil},
		{[]string{"respond"}, "provenance", spec.ResponseSchema, []string{"respondent", "provenance"}, nil},
	} {
		name := strings.Join(c.command, " ") + " --" + c.flag
		want := slices.DeleteFunc(schemaEnum(t, c.schema, c.pointer), func(v string) bool { return slices.Contains(c.except, v) })

		cmd, _, err := newRootCmd(nil).Find(c.command)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f := cmd.Flags().Lookup(c.flag)
		if f == nil {
			t.Errorf("%s: no such flag", name)
			continue
		}
		if list := strings.Join(want, ", "); !strings.Contains(f.Usage, ": "+list) {
			t.Errorf("%s: usage %q does not list the schema's values %q", name, f.Usage, list)
		}
		args := append(append([]string{"__complete"}, c.command...), "--"+c.flag, "")
		code, out, _ := runCLI(t, "", args...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(lines) == 0 || !slices.Equal(lines[:len(lines)-1], want) {
			t.Errorf("%s: completion (exit %d) offers %q, want the schema's %q", name, code, lines, want)
		}
	}
}

// schemaEnum reads the string enum at a member of an embedded schema, following "properties" from its root.
func schemaEnum(t *testing.T, file string, path []string) []string {
	t.Helper()
	var node struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Enum       []string                   `json:"enum"`
	}
	raw := json.RawMessage(spec.File(file))
	for _, member := range path {
		if err := json.Unmarshal(raw, &node); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		next, ok := node.Properties[member]
		if !ok {
			t.Fatalf("%s: no member %q on the path %v", file, member, path)
		}
		raw = next
	}
	node.Enum = nil
	if err := json.Unmarshal(raw, &node); err != nil || len(node.Enum) == 0 {
		t.Fatalf("%s %v: not a string enum (%v)", file, path, err)
	}
	return node.Enum
}
