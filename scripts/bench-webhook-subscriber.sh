#!/usr/bin/env bash
# Measures what webhooks cost the hot path: run before a benchmark's server starts, it starts a local
# receiver (answering 204 to every delivery) and subscribes it to every event of the benchmark's
# project. Then start the server with --webhooks-allow-private (the receiver is on loopback) and load
# it as without webhooks; the difference is their cost. From a built checkout:
#
#   DATABASE_URL=postgres://… PERF_KEY=pk_… bash scripts/bench-webhook-subscriber.sh
#   node_modules/.bin/feedback serve --database-url "$DATABASE_URL" --webhooks-allow-private
#
# DATABASE_URL is the benchmark's database and PERF_KEY a public key of its project. The receiver
# keeps running after this script: it writes its pid to $TMPDIR/feedback-bench-receiver.pid, and
# stops by itself after BENCH_RECEIVER_SECONDS (default 900), so a finished run leaves nothing behind.
# BENCH_RECEIVER_EVENTS (a comma-separated list, e.g. notification.created) subscribes the endpoint to
# those event types only; unset, to every type.
set -euo pipefail
: "${DATABASE_URL:?the database to benchmark}" "${PERF_KEY:?a public key of its project}"
port="${BENCH_RECEIVER_PORT:-5599}"
seconds="${BENCH_RECEIVER_SECONDS:-900}"
events="${BENCH_RECEIVER_EVENTS:-}"
pidfile="${TMPDIR:-/tmp}/feedback-bench-receiver.pid"

if [ -f "$pidfile" ]; then kill "$(cat "$pidfile")" 2>/dev/null || true; fi
nohup node -e "
  let n = 0;
  const server = require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => { n++; res.writeHead(204).end(); }); });
  server.listen($port, '127.0.0.1');
  setTimeout(() => { console.log('deliveries received:', n); process.exit(0); }, $seconds * 1000);
  process.on('SIGTERM', () => { console.log('deliveries received:', n); process.exit(0); });
" >"${TMPDIR:-/tmp}/feedback-bench-receiver.log" 2>&1 &
echo $! >"$pidfile"

# The endpoint, in the project of the benchmark's key: null events is every type.
psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -q -v key="$PERF_KEY" -v url="http://127.0.0.1:$port/hooks" -v events="$events" <<'SQL'
insert into webhook_endpoints (project_id, url, events, secret)
select k.project_id, :'url', nullif(string_to_array(:'events', ','), '{}'), 'whsec_' || encode(decode(md5(random()::text) || md5(random()::text), 'hex'), 'base64')
from api_keys k where k.key_hash = encode(sha256(convert_to(:'key', 'UTF8')), 'hex');
SQL
echo "subscribed http://127.0.0.1:$port/hooks to ${events:-every event}"
