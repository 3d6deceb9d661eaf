#!/usr/bin/env bash
# install-check: `go install` of the aqp command as another user would do it — from an empty module cache and
# GOBIN, with only the Go module proxy to fetch from — then runs the installed binary. `make interop` runs it.
# (`go install github.com/agentqueryprotocol/aqp-go/cmd/aqp@VERSION` is the same with the module itself fetched;
# this checks everything else it needs.)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
if ! GOMODCACHE="$tmp/mod" GOBIN="$tmp/bin" GOFLAGS=-mod=readonly go install ./cmd/aqp >"$tmp/install.log" 2>&1; then
  echo "install-check: go install ./cmd/aqp failed from an empty module cache:" >&2
  cat "$tmp/install.log" >&2
  exit 1
fi
version=$("$tmp/bin/aqp" version)
case "$version" in
  *"protocol 2026-07-30"*) echo "install-check: go install ./cmd/aqp from an empty module cache into an empty GOBIN works: $(echo "$version" | head -1), $(du -sh "$tmp/mod" | cut -f1) of modules fetched" ;;
  *) echo "install-check: the installed aqp says: $version" >&2; exit 1 ;;
esac
