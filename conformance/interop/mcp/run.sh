#!/usr/bin/env bash
# Runs interop.mjs (installed under $1 with npm ci) against a fresh `aqp serve` ($2) on a free loopback port.
set -euo pipefail
dir=$1
aqp=$2
source "$(dirname "$0")/../../../scripts/lib/fresh-serve.sh"
export AQP_ADMIN_TOKEN=interop-mcp-admin
fresh_serve "$aqp"
AQP_URL=$AQP_URL node "$dir/interop.mjs" || { cat "$SERVE_LOG"; exit 1; }
