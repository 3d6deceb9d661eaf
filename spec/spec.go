// Package spec embeds the AQP schemas and the OpenAPI document exactly as they are written in this folder, so that
// every validator, server and test in the module works from the same bytes the generators read.
package spec

import "embed"

// ProtocolVersion is the AQP protocol version these documents define.
const ProtocolVersion = "2026-07-30"

// SchemaBase is the URL every schema's $id starts with; a schema is served at the path of its $id.
const SchemaBase = "https://agentqueryprotocol.com/specification/" + ProtocolVersion + "/schema/"

// SchemaPath is the path part of SchemaBase, where a collector serves the schemas.
const SchemaPath = "/specification/" + ProtocolVersion + "/schema/"

// The schema files, by the name their $id ends with.
const (
	RequestSchema  = "query-request.schema.json"
	ResponseSchema = "query-response.schema.json"
	ReceiptSchema  = "query-receipt.schema.json"
	SubjectSchema  = "query-subject.schema.json"
)

// SchemaFiles lists the four schema files in a stable order.
var SchemaFiles = []string{RequestSchema, ResponseSchema, ReceiptSchema, SubjectSchema}

// FS holds the schemas, the OpenAPI document and the unchanged seed request schema (under seed/).
//
//go:embed *.schema.json openapi.yaml seed/query-request.schema.json
var FS embed.FS

// File returns the bytes of one embedded file; it panics when the name is not embedded, which is a build error.
func File(name string) []byte {
	b, err := FS.ReadFile(name)
	if err != nil {
		panic("spec: " + err.Error())
	}
	return b
}
