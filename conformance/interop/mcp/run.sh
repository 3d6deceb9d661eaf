#!/usr/bin/env bash
# Runs interop.mjs (installed under $1 with npm ci) against a fresh `aqp serve` on a free loopback port.
set -euo pipefail
dir=$1
aqp=$2
data=$(mktemp -d)
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
export AQP_ADMIN_TOKEN=interop-mcp-admin
"$aqp" serve --addr "127.0.0.1:$port" --data-dir "$data" >"$data/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done
AQP_URL="http://127.0.0.1:$port" node "$dir/interop.mjs" || { cat "$data/serve.log"; exit 1; }
