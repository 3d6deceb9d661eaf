#!/usr/bin/env bash
# Runs the MCP interop checks (installed under $1 with npm ci) against a fresh `aqp serve` ($2) on a free loopback
# port: interop.mjs (the 1.x SDK's client), interop-v2.mjs (the 2.x client in each negotiation mode), then the other
# direction — tool-server-v2.mjs (a 2.x SDK tool server whose result carries a query) answered by
# `aqp respond --from URL --carrier mcp`, which must speak 2026-07-28 to it and get an accepted receipt.
set -euo pipefail
dir=$1
aqp=$2
source "$(dirname "$0")/../../../scripts/lib/fresh-serve.sh"
export AQP_ADMIN_TOKEN=interop-mcp-admin
fresh_serve "$aqp"
AQP_URL=$AQP_URL node "$dir/interop.mjs" || { cat "$SERVE_LOG"; exit 1; }
AQP_URL=$AQP_URL node "$dir/interop-v2.mjs" || { cat "$SERVE_LOG"; exit 1; }

tools_out=$(mktemp)
tools_err=$(mktemp)
AQP_URL=$AQP_URL node "$dir/tool-server-v2.mjs" >"$tools_out" 2>"$tools_err" &
tools_pid=$!
# Stops the tool server, then the collector as fresh_serve's own trap (which this one replaces) would; the script's
# status is kept.
stop_all() {
  local status=$?
  kill "$tools_pid" "$serve_pid" 2>/dev/null || true
  wait "$tools_pid" "$serve_pid" 2>/dev/null || true
  rm -rf "$tools_out" "$tools_err" "$serve_data"
  exit "$status"
}
trap stop_all EXIT
for _ in $(seq 100); do [ -s "$tools_out" ] && break; sleep 0.1; done
tools_url=$(head -1 "$tools_out")
[ -n "$tools_url" ] || { echo "FAIL the 2.x tool server did not start:"; cat "$tools_err"; exit 1; }
receipt=$("$aqp" respond --from "$tools_url" --carrier mcp --answer-text yes --allow-http-loopback --json) ||
  { echo "FAIL aqp respond --from $tools_url --carrier mcp: $receipt"; cat "$tools_err" "$SERVE_LOG"; exit 1; }
fail() { echo "FAIL $1"; cat "$tools_err"; exit 1; }
grep -q '"status":"accepted"' <<<"$receipt" || fail "the answer to the carried query was not accepted: $receipt"
echo "ok   aqp respond answered the query a 2.x SDK tool server carried in _meta: $receipt"
grep -q '^method server/discover 2026-07-28$' "$tools_err" && grep -q '^method tools/call 2026-07-28$' "$tools_err" &&
  ! grep -q '^method initialize' "$tools_err" || fail "aqp respond did not speak 2026-07-28 to the 2.x tool server: $(grep '^method' "$tools_err" | tr '\n' ';')"
echo "ok   aqp respond spoke 2026-07-28 to it (server/discover, tools/list, tools/call; no initialize)"
queryId=$(grep -o '"queryId":"[^"]*"' <<<"$receipt" | head -1 | cut -d'"' -f4)
state=$(curl -fsS -H "Authorization: Bearer $AQP_ADMIN_TOKEN" "$AQP_URL/admin/v1/queries/$queryId")
grep -q '"state":"answered"' <<<"$state" || fail "the collector does not show query $queryId answered: $state"
echo "ok   the collector shows the carried query answered"
echo "interop-mcp: the 2.x SDK's tool server and aqp respond agree on the carriage"
