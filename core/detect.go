package main

import (
	"bytes"
	"encoding/json"

	"github.com/agentqueryprotocol/aqp-go/core"
)

// kindMembers are the top-level members only one kind of document has, from the three schemas.
var kindMembers = map[string]core.Kind{
	"type": core.KindRequest, "prompt": core.KindRequest, "instructions": core.KindRequest, "timing": core.KindRequest,
	"consentMode": core.KindRequest, "consentScope": core.KindRequest, "dataPolicy": core.KindRequest,
	"requestedRespondent": core.KindRequest, "response": core.KindRequest, "delivery": core.KindRequest,
	"expiresAt":  core.KindRequest,
	"respondent": core.KindResponse, "answer": core.KindResponse, "explanation": core.KindResponse,
	"confidence": core.KindResponse, "consent": core.KindResponse, "createdAt": core.KindResponse,
	"status": core.KindReceipt, "retryable": core.KindReceipt, "retryAfter": core.KindReceipt,
	"receivedAt": core.KindReceipt, "error": core.KindReceipt, "continuation": core.KindReceipt,
}

// detectKind says what kind a document is when --kind is not given. A document that decodes is classified as
// core.DetectKind does. One that does not — truncated, oversized, broken — is classified from the top-level member
// names read before the break, by the members only one kind has; ok is false when they do not tell (none read, or
// members of two kinds), and the caller then asks for --kind rather than guess.
func detectKind(data []byte) (kind core.Kind, ok bool) {
	if v, err := core.DecodeJSON(data); err == nil {
		return core.DetectKind(v), true
	}
	votes := map[core.Kind]int{}
	for _, name := range topLevelMembers(data) {
		if k, found := kindMembers[name]; found {
			votes[k]++
		}
	}
	if len(votes) != 1 {
		return "", false
	}
	for k := range votes {
		kind = k
	}
	return kind, true
}

// topLevelMembers returns the member names of the top-level object that can be read before data stops being JSON.
func topLevelMembers(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var names []string
	depth, expectName := 1, true
	for {
		t, err := dec.Token()
		if err != nil {
			return names
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
			continue
		case json.Delim('}'), json.Delim(']'):
			depth--
			if depth == 0 {
				return names
			}
			if depth == 1 {
				expectName = true
			}
			continue
		}
		if depth != 1 {
			continue
		}
		if expectName {
			if s, isString := t.(string); isString {
				names = append(names, s)
			}
			expectName = false
		} else {
			expectName = true
		}
	}
}
