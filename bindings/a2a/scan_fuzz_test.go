package a2a

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// unmarshal decodes as the reference does: member names matched exactly (encoding/json matches them ignoring case,
// which A2A does not), duplicates and invalid UTF-8 let through as scanSend10 lets them through.
func unmarshal(b []byte, v any) error {
	return jsonv2.Unmarshal(b, v, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}

// message10 and parseSend10 are the reading of an A2A 1.0 SendMessageRequest decoded level by level (as the
// binding read it before scanSend10), kept here as the reference scanSend10 (one pass with jsontext) must agree with.
type message10 struct {
	MessageID string            `json:"messageId"`
	ContextID string            `json:"contextId"`
	TaskID    string            `json:"taskId"`
	Role      string            `json:"role"`
	Parts     []json.RawMessage `json:"parts"`
}

func parseSend10(params []byte) (callParts, string) {
	if len(bytes.TrimSpace(params)) == 0 || string(bytes.TrimSpace(params)) == "null" {
		return callParts{}, "missing"
	}
	var p struct {
		Message *message10 `json:"message"`
	}
	if err := unmarshal(params, &p); err != nil {
		return callParts{}, "not a SendMessageRequest: " + err.Error()
	}
	if p.Message == nil {
		return callParts{}, "message missing"
	}
	m := p.Message
	if m.MessageID == "" || m.Role == "" {
		return callParts{}, "messageId or role missing"
	}
	var found []int
	var content []byte
	for i, raw := range m.Parts {
		var part part10
		if err := unmarshal(raw, &part); err != nil {
			return callParts{}, fmt.Sprintf("part %d: %v", i, err)
		}
		if !marks(part.Metadata, ObjectResponse) {
			continue
		}
		found = append(found, i)
		c, msg := part.responseText(i)
		if msg != "" {
			return callParts{}, msg
		}
		content = c
	}
	if len(found) != 1 {
		return callParts{}, "not exactly one"
	}
	return callParts{response: content, contextID: m.ContextID, taskID: m.TaskID}, ""
}

// FuzzScanSend10 holds the one-pass reader to the encoding/json reading: wherever encoding/json finds exactly one
// usable response part, scanSend10 finds the same bytes and ids; and scanSend10 never finds a response where the
// reference finds none. (Their messages differ; a request both refuse may be refused for different reasons.)
func FuzzScanSend10(f *testing.F) {
	for _, seed := range []string{
		`{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":{"a":1},"metadata":{"aqpObject":"response"}}]}}`,
		`{"message":{"messageId":"m","role":"ROLE_USER","contextId":"c","taskId":"t","parts":[{"text":"x"},{"raw":"e30=","mediaType":"application/json","metadata":{"aqpObject":"response"}}]}}`,
		`{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":{},"metadata":{"aqpObject":"response"}},{"data":{},"metadata":{"aqpObject":"response"}}]}}`,
		`{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":1e400,"metadata":{"aqpObject":"response","x":[{},{}]}}]}}`,
		`{"message":null}`, `[]`, `{"message":{"parts":[]}}`,
		`{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":{"n":123456789012345678901234567890},"metadata":{"aqpObject":"response"}}]}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, params []byte) {
		want, wantErr := parseSend10(params)
		got, gotErr := scanSend10(params)
		if wantErr == "" && gotErr != "" {
			// encoding/json reads some bodies jsontext refuses; the one it must accept is valid JSON.
			if json.Valid(params) {
				t.Fatalf("scanSend10 refused (%s) what encoding/json reads: %q", gotErr, params)
			}
			return
		}
		if wantErr != "" && gotErr == "" && json.Valid(params) {
			t.Fatalf("scanSend10 found a response (%q) where encoding/json finds none (%s): %q", got.response, wantErr, params)
		}
		if wantErr == "" && (!bytes.Equal(got.response, want.response) || got.contextID != want.contextID || got.taskID != want.taskID) {
			t.Fatalf("scanSend10 = %q %q %q, encoding/json = %q %q %q: %q", got.response, got.contextID, got.taskID,
				want.response, want.contextID, want.taskID, params)
		}
	})
}
