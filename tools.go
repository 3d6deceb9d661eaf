//go:build tools

package aqp

// This file pins the versions of the code generators in go.mod, so that `make generate` writes the same code on
// every machine, and of the test runner `make test` uses (gotestsum, for its summary of what was skipped). It is
// built only with the tools tag, and belongs to the module root's package because every Go file of a directory
// must.
import (
	_ "github.com/atombender/go-jsonschema"
	_ "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen"
	_ "gotest.tools/gotestsum"
)
