#!/usr/bin/env bash
# Runs every fuzz target in the packages given (default ./...), one at a time, each for FUZZTIME (default 30s), and
# stops at the first finding. Targets are discovered with `go test -list '^Fuzz'`, so a new one needs no edit here.
# A finding is written by go test under the package's testdata/fuzz/<Target>/; commit it with the fix, and plain
# `go test` replays it from then on. At the end (or at the finding) it prints each target's time and executions.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
# Minimising each new interesting input may take go test's default 60 s, during which a short run executes nothing
# (seen on FuzzQueries, whose seeds are whole QueryRequests): a few seconds keeps the time for fuzzing.
MINIMIZETIME=${MINIMIZETIME:-5s}
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)
module=$($GO list -m)

# `go test -list` prints the matching names of a package, then "ok <import path> <time>".
targets=()
names=()
while read -r first second _; do
  case $first in
    Fuzz*) names+=("$first") ;;
    ok)
      for n in "${names[@]+"${names[@]}"}"; do targets+=("$n .${second#"$module"}"); done
      names=()
      ;;
    FAIL) echo "fuzz: listing the targets of $second failed" >&2; exit 1 ;;
  esac
done < <($GO test -list '^Fuzz' "${pkgs[@]}" | grep -v '^?')
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz: no fuzz targets in ${pkgs[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, $FUZZTIME each"

summary=()
report() {
  printf '\n%-18s %-32s %8s %14s\n' target package seconds executions
  for line in "${summary[@]}"; do printf '%-18s %-32s %8s %14s\n' $line; done
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
  read -r name pkg <<<"$t"
  echo "=== $name ($pkg)"
  start=$(date +%s)
  status=0
  $GO test -run '^$' -fuzz "^$name\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$MINIMIZETIME" "$pkg" 2>&1 | tee "$log" || status=$?
  execs=$( (grep -o 'execs: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
  summary+=("$name $pkg $(($(date +%s) - start)) ${execs:-baseline-only}")
  if [ $status -ne 0 ]; then
    report
    echo "fuzz: $name found a failing input (saved under $pkg/testdata/fuzz/$name/ as go test says above)" >&2
    exit 1
  fi
done
report
