// Package aqp holds the Go types of the AQP canonical objects (QueryRequest, QueryResponse, QueryReceipt,
// QuerySubject), generated from spec/ by go-jsonschema. They are models only: validation is core's job, because the
// schemas' rules (code-point lengths, formats, conditionals) are decided there exactly as JSON Schema 2020-12 does.
package aqp
