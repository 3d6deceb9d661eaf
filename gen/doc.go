// Package gen holds code generated from spec/ by `make generate`: package aqp (the canonical objects, by
// go-jsonschema) and package api (the HTTPS server interface and client, by oapi-codegen, reusing package aqp's
// types). Nothing under gen/ is edited by hand; `make test` fails when it differs from what `make generate` writes.
package gen
