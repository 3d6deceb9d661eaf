//go:build tools

// Package tools pins the versions of the code generators in go.mod, so that `make generate` writes the same code on
// every machine, and of the test runner `make test` uses (gotestsum, for its summary of what was skipped).
package tools

import (
	_ "github.com/atombender/go-jsonschema"
	_ "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen"
	_ "gotest.tools/gotestsum"
)
