# Sourced by the scripts that run a check against a real collector. fresh_serve AQP_BINARY starts `aqp serve` on a
# free loopback port with a data directory of its own (embedded SQLite), waits until /readyz answers, and on exit
# stops it and removes the directory. It sets AQP_URL (the base URL) and SERVE_LOG (its log file). Set
# AQP_ADMIN_TOKEN first: the collector takes its admin token from it. Further arguments go to `aqp serve`.
fresh_serve() {
  local aqp=$1 port
  shift
  serve_data=$(mktemp -d)
  SERVE_LOG=$serve_data/serve.log
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  "$aqp" serve --addr "127.0.0.1:$port" --data-dir "$serve_data" "$@" >"$SERVE_LOG" 2>&1 &
  serve_pid=$!
  trap 'kill $serve_pid 2>/dev/null; wait $serve_pid 2>/dev/null; rm -rf "$serve_data"' EXIT
  AQP_URL="http://127.0.0.1:$port"
  for _ in $(seq 100); do
    curl -fsS "$AQP_URL/readyz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "aqp serve did not become ready at $AQP_URL in 10 s; its log:" >&2
  cat "$SERVE_LOG" >&2
  return 1
}
