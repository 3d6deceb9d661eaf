package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/agentqueryprotocol/aqp-go/gen/aqp"
	"github.com/agentqueryprotocol/aqp-go/spec"
	"github.com/agentqueryprotocol/aqp-go/wire"
)

// The typed path: the same validation as Parse and CheckPair, for programs that hold the generated types of
// package aqp rather than bytes or decoded JSON values. A document is validated as JSON first and decoded into its
// type only when valid, so a typed object a Parse function returns always satisfies its schema; a typed object a
// program builds is encoded to JSON and validated the same way, so a mistake is reported at its member's pointer.

// ParseRequest validates data exactly as Parse(KindRequest, data) does and, when it is valid, decodes it into a
// QueryRequest. An invalid document returns nil and its errors.
func ParseRequest(data []byte) (*aqp.QueryRequest, Errors) {
	return parseTyped[aqp.QueryRequest](KindRequest, data)
}

// ParseResponse validates data exactly as Parse(KindResponse, data) does and, when it is valid, decodes it into a
// QueryResponse. An invalid document returns nil and its errors.
func ParseResponse(data []byte) (*aqp.QueryResponse, Errors) {
	return parseTyped[aqp.QueryResponse](KindResponse, data)
}

// ParseReceipt validates data exactly as Parse(KindReceipt, data) does and, when it is valid, decodes it into a
// QueryReceipt. An invalid document returns nil and its errors.
func ParseReceipt(data []byte) (*aqp.QueryReceipt, Errors) {
	return parseTyped[aqp.QueryReceipt](KindReceipt, data)
}

func parseTyped[T any](kind Kind, data []byte) (*T, Errors) {
	if doc := Parse(kind, data); !doc.Valid() {
		return nil, doc.Errors
	}
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		// A valid document always decodes (FuzzParseTyped checks it); should one not, say so rather than return a
		// half-filled object.
		return nil, Errors{{Code: kind.code(), Keyword: KeywordJSON,
			Message: fmt.Sprintf("the document is a valid %s but does not decode into %T: %v", kind, v, err)}}
	}
	return v, nil
}

// ValidateObject validates any Go value as a document of the given kind — a generated type, a pointer to one, a
// map, a decoded JSON value — by encoding it with encoding/json and validating the JSON, exactly as Validate
// validates bytes. It never panics: a value that cannot be encoded (a channel, a function, NaN, a cycle, a
// MarshalJSON that fails) is one Error with keyword json saying why; nil is the JSON null, which is not an object.
func ValidateObject(kind Kind, v any) Errors {
	return ParseValue(kind, v).Errors
}

// encodeValue encodes v as compact JSON, without HTML escaping (so "<" stays one character, as D12 counts), or
// returns an Error (keyword json, no code yet) saying why it cannot.
func encodeValue(v any) (data []byte, e *Error) {
	defer func() {
		if r := recover(); r != nil {
			data, e = nil, &Error{Keyword: KeywordJSON, Message: fmt.Sprintf("the value cannot be encoded as JSON: encoding panicked: %v", r)}
		}
	}()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, &Error{Keyword: KeywordJSON, Message: "the value cannot be encoded as JSON: " + err.Error()}
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// NewResponse starts a response to req: its queryId and subject copied from the query, a fresh UUIDv7 responseId,
// createdAt now (UTC, milliseconds), protocolVersion 2026-07-30, the respondent given, and the answer encoded as
// raw JSON (a json.RawMessage is kept as written, compacted). The caller adds explanation, confidence or consent as
// the query needs, then checks the result with CheckObjects before sending it: NewResponse does not judge the
// answer against the query's contract.
func NewResponse(req *aqp.QueryRequest, respondent aqp.QueryResponseRespondent, answer any) (*aqp.QueryResponse, error) {
	if req == nil {
		return nil, errors.New("core: NewResponse: the request is nil")
	}
	raw, e := encodeValue(answer)
	if e != nil {
		return nil, fmt.Errorf("core: NewResponse: answer: %s", e.Message)
	}
	if len(raw) > MaxDocumentBytes {
		return nil, fmt.Errorf("core: NewResponse: the answer is %d bytes of JSON; a whole document may have at most %d", len(raw), MaxDocumentBytes)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("core: NewResponse: responseId: %w", err)
	}
	if respondent.ID != nil {
		respondent.ID = ptr(*respondent.ID)
	}
	return &aqp.QueryResponse{
		ProtocolVersion: wire.ProtocolVersion(spec.ProtocolVersion),
		ResponseID:      id.String(),
		QueryID:         req.QueryID,
		Subject:         copySubject(req.Subject),
		Respondent:      respondent,
		Answer:          raw,
		CreatedAt:       wire.NewDateTime(time.Now()),
	}, nil
}

// copySubject copies a subject deeply, so that the response and the request share no pointers.
func copySubject(s aqp.QuerySubject) aqp.QuerySubject {
	if s.IDScope != nil {
		s.IDScope = ptr(*s.IDScope)
	}
	if s.Protocol != nil {
		s.Protocol = ptr(*s.Protocol)
	}
	return s
}

func ptr[T any](v T) *T { return &v }

// CheckObjects validates typed documents of one exchange: each present document on its own (its errors tagged with
// its role), then the paired checks of CheckPair over those that are valid — what ValidatePair reports for the
// same documents as bytes. Nil members are not checked; the result is empty when everything present passes.
func CheckObjects(req *aqp.QueryRequest, resp *aqp.QueryResponse, rec *aqp.QueryReceipt) Errors {
	var p Pair
	if req != nil {
		p.Request = ParseValue(KindRequest, req)
	}
	if resp != nil {
		p.Response = ParseValue(KindResponse, resp)
	}
	if rec != nil {
		p.Receipt = ParseValue(KindReceipt, rec)
	}
	return ValidatePair(p)
}
