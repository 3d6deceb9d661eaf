#!/usr/bin/env bash
# Writes every generated file from spec/ into the folder given (default: gen). `make generate` writes gen/;
# `make check-generated` writes a temporary folder and compares it with gen/.
set -euo pipefail
out=${1:-gen}
cd "$(dirname "$0")/.."
base=https://agentqueryprotocol.com/specification/2026-07-30/schema
mkdir -p "$out/aqp" "$out/api"

go run github.com/atombender/go-jsonschema \
  --only-models --package aqp --tags json \
  --capitalization ID --capitalization URL --capitalization JSON \
  --schema-root-type "$base/query-request.schema.json=QueryRequest" \
  --schema-root-type "$base/query-response.schema.json=QueryResponse" \
  --schema-root-type "$base/query-receipt.schema.json=QueryReceipt" \
  --schema-root-type "$base/query-subject.schema.json=QuerySubject" \
  --output "$out/aqp/types.gen.go" \
  spec/query-subject.schema.json spec/query-request.schema.json \
  spec/query-response.schema.json spec/query-receipt.schema.json

cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
sed "s#^output: .*#output: $out/api/api.gen.go#" gen/api/oapi-codegen.yaml >"$cfg"
go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen -config "$cfg" spec/openapi.yaml
