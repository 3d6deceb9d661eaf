#!/usr/bin/env bash
# Writes every generated file from spec/ into the folder given (default: gen). `make generate` writes gen/;
# `make check-generated` writes a temporary folder and compares it with gen/.
set -euo pipefail
out=${1:-gen}
cd "$(dirname "$0")/.."
base=https://agentqueryprotocol.com/specification/2026-07-30/schema
mkdir -p "$out/aqp" "$out/api"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# go-jsonschema reads copies of the schemas with spec/codegen/overlay.json merged in: the Go type of each member
# (package wire's exact date-times and numbers, raw JSON for answer and jsonSchema) and the request schema's member
# descriptions, none of which may change the schemas spec/ serves.
go run ./internal/codegen/overlay -overlay spec/codegen/overlay.json -out "$work/schema" \
  spec/query-subject.schema.json spec/query-request.schema.json \
  spec/query-response.schema.json spec/query-receipt.schema.json

go run github.com/atombender/go-jsonschema \
  --only-models --package aqp --tags json \
  --capitalization ID --capitalization URL --capitalization JSON --capitalization HTTPS --capitalization MCP \
  --schema-root-type "$base/query-request.schema.json=QueryRequest" \
  --schema-root-type "$base/query-response.schema.json=QueryResponse" \
  --schema-root-type "$base/query-receipt.schema.json=QueryReceipt" \
  --schema-root-type "$base/query-subject.schema.json=QuerySubject" \
  --output "$out/aqp/types.gen.go" \
  "$work/schema/query-subject.schema.json" "$work/schema/query-request.schema.json" \
  "$work/schema/query-response.schema.json" "$work/schema/query-receipt.schema.json"

# go-jsonschema writes each enum value as a constant but no list of them; the CLI's help and completion (and any
# program offering the values) read these lists, so adding a value to a schema reaches them by `make generate`.
go run ./internal/codegen/enums -types "$out/aqp/types.gen.go" -out "$out/aqp/enums.gen.go" \
  -root query-request.schema.json=QueryRequest -root query-response.schema.json=QueryResponse \
  -root query-receipt.schema.json=QueryReceipt -root query-subject.schema.json=QuerySubject \
  spec/query-subject.schema.json spec/query-request.schema.json \
  spec/query-response.schema.json spec/query-receipt.schema.json

cfg=$work/oapi-codegen.yaml
sed "s#^output: .*#output: $out/api/api.gen.go#" gen/api/oapi-codegen.yaml >"$cfg"
go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen -config "$cfg" spec/openapi.yaml
