#!/usr/bin/env bash
# profile-breakdown.sh BINARY PROFILE... — the submission path's CPU by part, as a share of all samples, for the
# CPU profiles `aqp-load -cpuprofile FILE` writes (one per collector phase). Parts overlap nowhere: each is the
# cumulative time of the functions named, which do not call one another.
set -euo pipefail
bin=$1; shift
parts=(
  "HTTP (net/http outside the handler)|net/http.(*conn).serve|-github.com/agentqueryprotocol/aqp-go/bindings/https.(*Server).ServeHTTP"
  "body read|github.com/agentqueryprotocol/aqp-go/internal/httpio.readBody"
  "decoding the response (I-JSON reader)|github.com/agentqueryprotocol/aqp-go/core.decodeWith|-github.com/agentqueryprotocol/aqp-go/core/collector.(*Collector).requestDocument"
  "schema evaluation (jsonschema + number bounds)|github.com/agentqueryprotocol/aqp-go/core.validateValue"
  "stored request decoded again|github.com/agentqueryprotocol/aqp-go/core/collector.(*Collector).requestDocument"
  "paired checks|github.com/agentqueryprotocol/aqp-go/core.CheckResponse|github.com/agentqueryprotocol/aqp-go/core/collector.checkCreatedAt"
  "canonical encoding + SHA-256|github.com/agentqueryprotocol/aqp-go/core/collector.contentHash"
  "receipt|github.com/agentqueryprotocol/aqp-go/core/collector.receiptFor.accepted|github.com/agentqueryprotocol/aqp-go/core/collector.(*Collector).revealReceipt"
  "store: LoadQuery|github.com/agentqueryprotocol/aqp-go/core/collector.timedStore.LoadQuery"
  "store: Accept|github.com/agentqueryprotocol/aqp-go/core/collector.timedStore.Accept"
  "store: background (SQLite writer, pgx)|github.com/agentqueryprotocol/aqp-go/store/sqlite.(*Store).run|github.com/jackc/pgx/v5/pgxpool.(*Pool).backgroundHealthCheck"
  "GC (background marking)|runtime.gcBgMarkWorker"
  "load generator (in-process client)|main.forEach.func1"
)
for prof in "$@"; do
  top=$(go tool pprof -top -cum -nodecount=100000 "$bin" "$prof" 2>/dev/null)
  total=$(awk '/Total samples/ {for (i=1;i<=NF;i++) if ($i=="=") {print $(i+1); exit}}' <<<"$top" | sed 's/s$//')
  echo "| part | $(basename "$prof") |"
  echo "| --- | ---: |"
  for p in "${parts[@]}"; do
    name=${p%%|*}; rest=${p#*|}
    sum=0
    IFS='|' read -ra fns <<<"$rest"
    for f in "${fns[@]}"; do
      sign=1; [[ $f == -* ]] && { sign=-1; f=${f#-}; }
      v=$(awk -v fn="$f" '$6 == fn {print $4; exit}' <<<"$top" | sed 's/ms$/e-3/; s/s$//')
      [[ -z $v ]] && v=0
      sum=$(awk -v a="$sum" -v b="$v" -v s="$sign" 'BEGIN {print a + s*b}')
    done
    printf '| %s | %.1f%% |\n' "$name" "$(awk -v a="$sum" -v t="$total" 'BEGIN {print 100*a/t}')"
  done
  echo
done
