// Package aqp holds the Go types of the AQP canonical objects (QueryRequest, QueryResponse, QueryReceipt,
// QuerySubject), generated from spec/ by go-jsonschema (with spec/codegen/overlay.json merged in). Every valid
// document decodes into its type and encodes back to the same JSON value: date-times and numbers are package
// wire's exact types, and answer and jsonSchema stay raw JSON.
//
// They are models only: validation is core's job, because the schemas' rules (code-point lengths, formats,
// conditionals) are decided there exactly as JSON Schema 2020-12 does. core.ParseRequest, ParseResponse and
// ParseReceipt validate bytes and decode them into these types; core.ValidateObject validates a value built in Go.
package aqp
