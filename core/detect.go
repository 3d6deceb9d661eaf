package core

import (
	"bytes"
	"encoding/json"
)

// kindMembers are the top-level members only one kind of document has, from the three schemas.
var kindMembers = map[string]Kind{
	"type": KindRequest, "prompt": KindRequest, "instructions": KindRequest, "timing": KindRequest,
	"consentMode": KindRequest, "consentScope": KindRequest, "dataPolicy": KindRequest,
	"requestedRespondent": KindRequest, "response": KindRequest, "delivery": KindRequest,
	"expiresAt":  KindRequest,
	"respondent": KindResponse, "answer": KindResponse, "explanation": KindResponse,
	"confidence": KindResponse, "consent": KindResponse, "createdAt": KindResponse,
	"status": KindReceipt, "retryable": KindReceipt, "retryAfter": KindReceipt,
	"receivedAt": KindReceipt, "error": KindReceipt, "continuation": KindReceipt,
}

// SniffKind says what kind a document's bytes are, as `aqp validate` does when --kind is not given, so that every
// tool that meets a document of unknown kind decides it by one rule. A document that decodes is classified as
// DetectKind does. One that does not — truncated, oversized, broken — is classified from the top-level member names
// read before the break, by the members only one kind has; ok is false when they do not tell (none read, or
// members of two kinds), and the caller then asks for --kind rather than guess.
func SniffKind(data []byte) (kind Kind, ok bool) {
	if v, err := DecodeJSON(data); err == nil {
		return DetectKind(v), true
	}
	votes := map[Kind]int{}
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
