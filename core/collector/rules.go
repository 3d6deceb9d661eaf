package collector

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/agentqueryprotocol/aqp-go/core"
	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Rules are the collector's continuation rules: when an accepted response matches a rule, the collector issues
// one follow-up query from the rule's draft, about that response, in the same transaction as the acceptance. The
// first matching rule wins; at most one follow-up is issued per accepted response.
type Rules struct {
	// Rules are tried in order; the first that matches issues the follow-up.
	Rules []Rule `json:"rules"`
}

// Rule is one continuation rule.
type Rule struct {
	// Name identifies the rule in logs and errors.
	Name string `json:"name"`
	// When says which accepted responses the rule applies to; an empty When matches every response.
	When Match `json:"when"`
	// Draft is the follow-up query: a QueryDraft without subject, which is always
	// {kind: response, id: <responseId>, idScope: global, protocol: aqp}. Its binding defaults to the answered
	// query's binding, and its ttlSeconds to 3600.
	Draft json.RawMessage `json:"draft"`

	draft map[string]any
}

// Match is a rule's condition. Every field that is set must hold.
type Match struct {
	// Types are query types (request "type"); the answered query's type must be one of them.
	Types []string `json:"types,omitempty"`
	// Formats are response formats (request "response.format").
	Formats []string `json:"formats,omitempty"`
	// Answers are JSON values; the accepted answer must equal one of them (numbers by value).
	Answers []json.RawMessage `json:"answers,omitempty"`

	answers []any
}

// LoadRules reads continuation rules from a JSON or YAML file (by extension: .yaml or .yml is YAML) and checks
// every rule's draft, so that a bad rule stops the collector at start rather than at the first acceptance.
func LoadRules(path string) (*Rules, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".yaml" || ext == ".yml" {
		if data, err = yaml.YAMLToJSON(data); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	r, err := ParseRules(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// ParseRules parses continuation rules from JSON and checks them.
func ParseRules(data []byte) (*Rules, error) {
	var r Rules
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("continuation rules: %w", err)
	}
	for i := range r.Rules {
		rule := &r.Rules[i]
		where := fmt.Sprintf("continuation rule %d (%q)", i, rule.Name)
		if rule.Name == "" {
			return nil, fmt.Errorf("continuation rule %d: name is required", i)
		}
		for _, a := range rule.When.Answers {
			v, err := core.DecodeJSON(a)
			if err != nil {
				return nil, fmt.Errorf("%s: when.answers: %w", where, err)
			}
			rule.When.answers = append(rule.When.answers, v)
		}
		v, err := core.DecodeJSON(rule.Draft)
		if err != nil {
			return nil, fmt.Errorf("%s: draft: %w", where, err)
		}
		draft, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: draft must be an object", where)
		}
		if _, ok := draft["subject"]; ok {
			return nil, fmt.Errorf("%s: draft must not set subject: a continuation is always about the accepted response", where)
		}
		rule.draft = draft
		// Check the draft now by completing it as it would be completed for a sample response.
		sample := withSubject(draft, "00000000-0000-7000-8000-000000000000")
		if _, errs := completeDraft(sample, draftDefaults{endpoints: allEndpoints, binding: spec.BindingHTTPS, now: sampleTime, queryID: "00000000-0000-7000-8000-000000000001",
			endpoint: "https://collector.invalid/", capability: "sample"}); len(errs) > 0 {
			return nil, fmt.Errorf("%s: draft: %w", where, errs.Err())
		}
	}
	return &r, nil
}

// allEndpoints serves every pinned binding, for checking a rule's draft when it is loaded, before the collector
// that will serve it is known; New then checks the rules' bindings against what it serves.
var allEndpoints = endpointSet{
	spec.BindingHTTPS: {Binding: spec.BindingHTTPS, Path: "/https"},
	spec.BindingMCP:   {Binding: spec.BindingMCP, Path: "/mcp"},
	spec.BindingA2A:   {Binding: spec.BindingA2A, Path: "/a2a"},
}

// checkBindings refuses rules whose draft names a binding the collector does not serve: their follow-up queries
// would name an endpoint nobody answers at.
func (r *Rules) checkBindings(served endpointSet) error {
	if r == nil {
		return nil
	}
	for i, rule := range r.Rules {
		b, ok := rule.draft["binding"].(string)
		if !ok {
			continue
		}
		if _, ok := served[b]; !ok {
			return fmt.Errorf("continuation rule %d (%q): draft names the %s binding, which this collector does not serve (it serves %s)",
				i, rule.Name, b, strings.Join(served.names(), ", "))
		}
	}
	return nil
}

// match returns the first rule that applies to an accepted answer to request, or nil.
func (r *Rules) match(request map[string]any, answer any) *Rule {
	if r == nil {
		return nil
	}
	typ, _ := request["type"].(string)
	resp, _ := request["response"].(map[string]any)
	format, _ := resp["format"].(string)
	for i := range r.Rules {
		rule := &r.Rules[i]
		if len(rule.When.Types) > 0 && !contains(rule.When.Types, typ) {
			continue
		}
		if len(rule.When.Formats) > 0 && !contains(rule.When.Formats, format) {
			continue
		}
		if len(rule.When.answers) > 0 {
			found := false
			for _, a := range rule.When.answers {
				if core.EqualJSON(a, answer) {
					found = true
					break
				}
			}
			if !found {
				continue
			}
		}
		return rule
	}
	return nil
}

// withSubject returns a copy of a rule's draft about the response responseID.
func withSubject(draft map[string]any, responseID string) map[string]any {
	d := make(map[string]any, len(draft)+1)
	for k, v := range draft {
		d[k] = v
	}
	d["subject"] = map[string]any{"kind": "response", "id": responseID, "idScope": "global", "protocol": "aqp"}
	return d
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
