package core

import (
	"fmt"

	"github.com/agentqueryprotocol/aqp-go/spec"
)

// Kind names one of the three canonical objects a validator checks on its own.
type Kind string

// The kinds of standalone documents.
const (
	KindRequest  Kind = "request"
	KindResponse Kind = "response"
	KindReceipt  Kind = "receipt"
)

// ParseKind turns a user's word into a Kind.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(s); k {
	case KindRequest, KindResponse, KindReceipt:
		return k, nil
	}
	return "", fmt.Errorf("unknown kind %q: want request, response or receipt", s)
}

// schemaFile is the spec file whose schema the kind is validated against.
func (k Kind) schemaFile() string {
	switch k {
	case KindRequest:
		return spec.RequestSchema
	case KindResponse:
		return spec.ResponseSchema
	case KindReceipt:
		return spec.ReceiptSchema
	}
	panic("core: unknown kind " + string(k))
}

// code is the standalone error code of the kind.
func (k Kind) code() Code {
	switch k {
	case KindRequest:
		return CodeInvalidRequest
	case KindResponse:
		return CodeInvalidResponse
	}
	return CodeInvalidReceipt
}

// Role names a document's place in a paired check.
type Role string

// The roles of a pair.
const (
	RoleRequest   Role = "request"
	RoleResponse  Role = "response"
	RoleReceipt   Role = "receipt"
	RoleDuplicate Role = "duplicate"
)

// Kind is the kind of document that plays the role.
func (r Role) Kind() Kind {
	switch r {
	case RoleRequest:
		return KindRequest
	case RoleResponse:
		return KindResponse
	}
	return KindReceipt
}

// DetectKind infers a document's kind from its members, as `aqp validate` does without --kind: a prompt makes a
// request, a status a receipt, anything else a response.
func DetectKind(v any) Kind {
	m, _ := v.(map[string]any)
	if _, ok := m["prompt"]; ok {
		return KindRequest
	}
	if _, ok := m["status"]; ok {
		return KindReceipt
	}
	return KindResponse
}
