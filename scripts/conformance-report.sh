#!/usr/bin/env bash
# The full conformance run that `make interop` ends with, into one report directory:
#   1. `aqp conformance collector --binding all` against a fresh `aqp serve` (embedded SQLite, free loopback port);
#   2. `aqp conformance respondent` over every binding against `aqp respond`;
#   3. the HTML report (index.html, both runs) opened in headless Chromium, which must lay out the matrix with no
#      failing cell and no dangling link; its screenshot is written beside it (report.png).
# Both runs go ahead even when the first fails, so the report shows everything; the script fails if either did.
# Usage: scripts/conformance-report.sh AQP_BINARY OUT_DIR
set -uo pipefail
aqp=$1
out=$2
rm -rf "$out"
mkdir -p "$out"
source "$(dirname "$0")/lib/fresh-serve.sh"
export AQP_ADMIN_TOKEN=conformance-report-admin
# Every column runs at once (--parallel 7), each one client of the collector: its per-client failure limit is off.
fresh_serve "$aqp" --failure-limit 0 || exit 1

status=0
echo "== aqp conformance collector --binding all (aqp serve, SQLite)"
"$aqp" conformance collector --target "$AQP_URL" --binding all --parallel 7 --admin-token "$AQP_ADMIN_TOKEN" \
  --report-dir "$out" || { status=1; tail -20 "$SERVE_LOG"; }
echo "== aqp conformance respondent --binding all (aqp respond)"
"$aqp" conformance respondent --binding all --report-dir "$out" -- \
  "$aqp" respond --from '{url}' --carrier '{binding}' --signal '{signals}' --answer-text yes --allow-http-loopback || status=1

echo "== rendering $out/index.html in headless Chromium"
chromium=${AQP_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
  echo "chromium is not installed (apt-get install chromium): the HTML report was not rendered" >&2
  exit 1
fi
profile=$(mktemp -d)
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync --user-data-dir="$profile")
root=$(timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$(realpath "$out/index.html")" 2>/dev/null | grep -o '<html[^>]*>' | head -1)
echo "laid out: $root"
rows=$(sed -n 's/.*data-matrix-rows="\([0-9]*\)".*/\1/p' <<<"$root")
fails=$(sed -n 's/.*data-matrix-fail-cells="\([0-9]*\)".*/\1/p' <<<"$root")
dangling=$(sed -n 's/.*data-dangling-links="\([0-9]*\)".*/\1/p' <<<"$root")
if [[ "$root" != *'data-rendered="yes"'* || -z "$rows" || "$rows" -lt 20 || "$dangling" != 0 ]]; then
  echo "the HTML report did not render its matrix (rows ${rows:-?}, dangling links ${dangling:-?})" >&2
  status=1
fi
if [ "${fails:-1}" != 0 ]; then
  echo "the matrix has $fails failing cell(s)" >&2
  status=1
fi
timeout 120 "$chromium" "${flags[@]}" --hide-scrollbars --window-size=1280,1500 --screenshot="$out/report.png" \
  "file://$(realpath "$out/index.html")" >/dev/null 2>&1 || status=1
rm -rf "$profile"
echo "report: $out/index.html (screenshot $out/report.png); matrix rows $rows, failing cells $fails"
exit $status
