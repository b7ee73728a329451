#!/usr/bin/env bash
# The board's page against the API list call it shows (issue 28: at least 0.7x), on the same
# server and data, in one run: `feedback serve` on DATABASE_URL, then wrk for DURATION seconds
# (default 12, after a 2 s warm-up, 32 connections) on GET /api/v1/feedback?page=1&limit=20 with
# the key, and on GET /b/<slug> (the board's first page: the same list, as HTML, plus which items
# the visitor voted for), first as the API list is asked (no compression), then as a browser asks
# (`Accept-Encoding: gzip, deflate, br, zstd`: the page comes with Brotli). Prints the rates and
# each ratio to the API list. Run from a built checkout, on a PostgreSQL database with the items to
# measure, for example 100,000 made by `feedback seed` (which creates and migrates the database):
#
#   export DATABASE_URL=postgres://postgres@127.0.0.1:5432/feedback_board_bench
#   node_modules/.bin/feedback seed --count 100000 && API_KEY=$(node_modules/.bin/feedback keys create) bash scripts/bench-board.sh
set -euo pipefail
: "${DATABASE_URL:?the database to serve}" "${API_KEY:?a public key of the project}"
command -v wrk >/dev/null || { echo "bench-board needs wrk (Debian: apt-get install wrk)" >&2; exit 1; }
slug="${BOARD_SLUG:-default}"
duration="${DURATION:-12}"
cd "$(dirname "$0")/.."
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
node_modules/.bin/feedback board on --project "$slug" --database-url "$DATABASE_URL" >/dev/null
node_modules/.bin/feedback serve --port "$port" --database-url "$DATABASE_URL" --rate-limit off >"${TMPDIR:-/tmp}/feedback-bench-board.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 120); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.25; done
# Both must answer 200 before they are timed: a refused key answers faster than any list.
for check in "-H x-api-key:$API_KEY http://127.0.0.1:$port/api/v1/feedback?page=1&limit=20" "-H accept:text/html http://127.0.0.1:$port/b/$slug"; do
  # shellcheck disable=SC2086
  status=$(curl -s -o /dev/null -w '%{http_code}' $check)
  [ "$status" = 200 ] || { echo "not 200 but $status: $check" >&2; exit 1; }
done
# Requests a second of one URL: wrk's own figure.
rate() {
  wrk -t1 -c32 -d"${round}s" "$@" 2>/dev/null | awk '/Requests\/sec/ { print $2 }'
}
api_url="http://127.0.0.1:$port/api/v1/feedback?page=1&limit=20"
board_url="http://127.0.0.1:$port/b/$slug"
# Warm-up of all three, then ROUNDS rounds that each time the three one after the other: on a
# shared machine the load drifts within seconds, and a ratio of neighbours in time drifts less
# than one of two long runs apart. The medians of the rounds are printed.
rounds="${ROUNDS:-3}"
round=$(( duration / rounds > 1 ? duration / rounds : 2 ))
wrk -t1 -c32 -d2s -H "x-api-key: $API_KEY" "$api_url" >/dev/null 2>&1
wrk -t1 -c32 -d2s -H 'accept: text/html' -H 'accept-encoding: gzip, deflate, br, zstd' "$board_url" >/dev/null 2>&1
results=""
for _ in $(seq "$rounds"); do
  api=$(rate -H "x-api-key: $API_KEY" "$api_url")
  board=$(rate -H 'accept: text/html' "$board_url")
  browser=$(rate -H 'accept: text/html' -H 'accept-encoding: gzip, deflate, br, zstd' "$board_url")
  echo "round           api list $api, board $board, board with Brotli $browser req/s"
  results+="$api $board $browser"$'\n'
done
bytes=$(curl -s -H 'accept: text/html' "$board_url" | wc -c)
compressed=$(curl -s -H 'accept: text/html' -H 'accept-encoding: br' "$board_url" | wc -c)
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
api=$(awk 'NF { print $1 }' <<<"$results" | median)
board=$(awk 'NF { print $2 }' <<<"$results" | median)
browser=$(awk 'NF { print $3 }' <<<"$results" | median)
echo "api list        $api req/s (median of $rounds rounds of ${round} s)"
echo "board           $board req/s ($bytes bytes of HTML)"
echo "board, Brotli   $browser req/s ($compressed bytes)"
board_ratio=$(awk 'NF { printf "%.4f\n", $2 / $1 }' <<<"$results" | median)
browser_ratio=$(awk 'NF { printf "%.4f\n", $3 / $1 }' <<<"$results" | median)
awk -v b="$board_ratio" -v c="$browser_ratio" 'BEGIN { printf "ratio           %.2fx (board / api list), %.2fx (board with Brotli / api list): medians of the rounds\n", b, c }'
