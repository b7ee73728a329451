#!/usr/bin/env bash
# The widget's panel against the API list call it shows (issue 41: at least 0.7x), on the same
# server and data, in one run, as scripts/bench-board.sh measures the board: `feedback serve` on
# DATABASE_URL, then wrk for DURATION seconds (default 10, after a 2 s warm-up, 32 connections)
# on GET /api/v1/feedback?page=1&limit=20 with the key, on the panel's Board tab (the same first
# page of the list, as HTML, with which items the visitor votes for) and on its first view (Give
# feedback), each first as the API list is asked (no compression), then as a browser asks
# (Brotli). Prints the rates and each ratio to the API list. Run from a built checkout on a
# PostgreSQL database with the items to measure, for example 100,000 made by `feedback seed`:
#
#   export DATABASE_URL=postgres://postgres@127.0.0.1:5432/feedback_widget_bench
#   node_modules/.bin/feedback seed --count 100000 && API_KEY=$(node_modules/.bin/feedback keys create) bash scripts/bench-widget.sh
set -euo pipefail
: "${DATABASE_URL:?the database to serve}" "${API_KEY:?a public key of the project}"
slug="${BOARD_SLUG:-default}"
duration="${DURATION:-10}"
# The host origin the panel is asked for (allowed for the run: `feedback widget on`).
host="https://app.example.com"
cd "$(dirname "$0")/.."
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
node_modules/.bin/feedback widget on --origin "$host" --project "$slug" --database-url "$DATABASE_URL" >/dev/null
node_modules/.bin/feedback serve --port "$port" --database-url "$DATABASE_URL" --rate-limit off >"${TMPDIR:-/tmp}/feedback-bench-widget.log" 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 120); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.25; done
base="http://127.0.0.1:$port"
board_tab="$base/w/$slug?origin=https%3A%2F%2Fapp.example.com&tab=board"
first_view="$base/w/$slug?origin=https%3A%2F%2Fapp.example.com"
# Each must answer 200 before it is timed: a refusal answers faster than any list.
for check in "-H x-api-key:$API_KEY $base/api/v1/feedback?page=1&limit=20" "$board_tab" "$first_view"; do
  # shellcheck disable=SC2086
  status=$(curl -s -o /dev/null -w '%{http_code}' $check)
  [ "$status" = 200 ] || { echo "not 200 but $status: $check" >&2; exit 1; }
done
rate() {
  wrk -t1 -c32 -d2s "$@" >/dev/null 2>&1
  wrk -t1 -c32 -d"${duration}s" "$@" 2>/dev/null | awk '/Requests\/sec/ { print $2 }'
}
api=$(rate -H "x-api-key: $API_KEY" "$base/api/v1/feedback?page=1&limit=20")
board=$(rate -H 'accept: text/html' "$board_tab")
board_br=$(rate -H 'accept: text/html' -H 'accept-encoding: gzip, deflate, br, zstd' "$board_tab")
first=$(rate -H 'accept: text/html' -H 'accept-encoding: gzip, deflate, br, zstd' "$first_view")
bytes=$(curl -s "$board_tab" | wc -c)
compressed=$(curl -s -H 'accept-encoding: br' "$board_tab" | wc -c)
echo "api list             $api req/s"
echo "panel board tab      $board req/s ($bytes bytes of HTML)"
echo "panel board, Brotli  $board_br req/s ($compressed bytes)"
echo "panel first view     $first req/s (Give feedback, Brotli)"
awk -v a="$api" -v b="$board" -v c="$board_br" -v d="$first" 'BEGIN { printf "ratio                %.2fx (board tab / api list), %.2fx (with Brotli), %.2fx (first view / api list)\n", b / a, c / a, d / a }'
