/**
 * `node --import tsx test/bench/webhook-sender.ts`: the webhook sender under mixed fan-out (issue
 * 49, finding 1, "the webhook sender sends successful deliveries twice"). A server in this process,
 * on a new embedded database (BENCH_BACKEND=postgres: a throwaway database on BENCH_DATABASE_URL,
 * else TEST_DATABASE_URL, else the local server), sends to BENCH_ENDPOINTS receivers (default 7),
 * each subscribed to every event, while BENCH_BURSTS bursts (default 12) each post BENCH_COMMENTS
 * comments (default 12, one event row each: one event to every endpoint) and BENCH_ANONYMOUS
 * anonymous submissions (default 16, sent at once, so they leave in batch statements whose events
 * are grouped rows), BENCH_PAUSE_MS apart (default 300). That is the issue's reproduction: events
 * alone that claim more than a turn's free slots while grouped rows wait.
 *
 * It waits until every event is fanned out and every delivery has ended, then prints the
 * deliveries made, the webhook-ids that reached a receiver more than once or never, the deliveries
 * whose attempts counted or logged are not one, the sender's failed runs (its log), and how long
 * the deliveries waited (from the event to the attempt's `webhook-timestamp`). It asserts no time:
 * it exits 1 when a webhook-id arrived other than once or a run of the sender failed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey, startServer, type RunningServer } from '@feedbackd/server';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { admin, ADMIN_URL, log, printTable, quantile } from './bench-kit.js';

const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 7);
const BURSTS = Number(process.env.BENCH_BURSTS ?? 12);
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 12);
const ANONYMOUS = Number(process.env.BENCH_ANONYMOUS ?? 16);
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 300);
const BACKEND = process.env.BENCH_BACKEND === 'postgres' ? 'postgres' : 'embedded';

async function main(): Promise<void> {
  const dataDir = BACKEND === 'embedded' ? mkdtempSync(join(tmpdir(), 'feedback-bench-sender-')) : '';
  const dbName = `feedback_bench_sender_${randomBytes(4).toString('hex')}`;
  let databaseUrl: string | undefined;
  if (BACKEND === 'postgres') {
    await admin(`create database "${dbName}"`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const receivers = await Promise.all(Array.from({ length: ENDPOINTS }, () => startReceiver()));
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  let publicKey = '';
  let server: RunningServer | undefined;
  try {
    server = await startServer({
      dataDir,
      databaseUrl,
      port: 0,
      host: '127.0.0.1',
      rateLimit: 'off',
      webhooksAllowPrivate: true,
      logger: { debug: () => {}, info: () => {}, warn: keep('warn'), error: keep('error') },
      onFirstKey: (key) => {
        publicKey = key;
      },
    });
    const running = server;
    const secretKey = (await createApiKey(running.orm.em.fork(), { kind: 'secret' })).key;
    const call = async (key: string, method: string, path: string, body: unknown) => {
      const answer = await fetch(running.url + path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await answer.text();
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
      return JSON.parse(text) as { feedback?: { id: string } };
    };
    for (const receiver of receivers) await call(secretKey, 'POST', '/api/v1/webhooks', { url: receiver.url });
    const item = (await call(publicKey, 'POST', '/api/v1/feedback', { title: 'Talked about in every burst' })).feedback!;

    const started = performance.now();
    let sentRequests = 0;
    for (let burst = 0; burst < BURSTS; burst++) {
      await Promise.all([
        ...Array.from({ length: COMMENTS }, (_, i) =>
          call(publicKey, 'POST', `/api/v1/feedback/${item.id}/comments`, { content: `Burst ${burst}, comment ${i}`, endUser: { externalId: `commenter-${burst}-${i}` } }),
        ),
        ...Array.from({ length: ANONYMOUS }, (_, i) => call(publicKey, 'POST', '/api/v1/feedback', { title: `Burst ${burst}, anonymous ${i}` })),
      ]);
      sentRequests += COMMENTS + ANONYMOUS;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
    const written = performance.now();

    const query = <T extends Record<string, unknown>>(text: string) => running.sql.query<T>('', text, []);
    for (;;) {
      const [row] = await query<{ waiting: number }>(
        `select (select count(*) from webhook_events where not fanned_out)::int + (select count(*) from webhook_deliveries where state = 'pending')::int as waiting`,
      );
      if (row!.waiting === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const settled = performance.now();

    const made = await query<{ id: string; state: string; attempts: number; logged: number; created_ms: string }>(
      `select d.id, d.state, d.attempts, (select count(*) from webhook_attempts a where a.delivery_id = d.id)::int as logged,
         (extract(epoch from e.created_at) * 1000)::bigint::text as created_ms
       from webhook_deliveries d join webhook_events e on e.id = d.event_id`,
    );
    const arrived = new Map<string, number>();
    const sentAt = new Map<string, number>();
    for (const { headers } of receivers.flatMap((receiver) => receiver.received)) {
      const id = String(headers['webhook-id']);
      arrived.set(id, (arrived.get(id) ?? 0) + 1);
      if (!sentAt.has(id)) sentAt.set(id, Number(headers['webhook-timestamp']) * 1000);
    }
    const twice = made.filter((d) => (arrived.get(`msg_${d.id}`) ?? 0) > 1).length;
    const never = made.filter((d) => !arrived.has(`msg_${d.id}`)).length;
    const strangers = [...arrived.keys()].filter((id) => !made.some((d) => `msg_${d.id}` === id)).length;
    const notOneAttempt = made.filter((d) => d.state !== 'succeeded' || d.attempts !== 1 || d.logged !== 1).length;
    const failures = lines.filter((line) => line.includes('webhook sender failed')).length;
    // From the event's commit to its first attempt, in whole seconds (webhook-timestamp's unit).
    const waits = made.filter((d) => sentAt.has(`msg_${d.id}`)).map((d) => Math.max(0, sentAt.get(`msg_${d.id}`)! - Number(d.created_ms)) / 1000);

    log(`backend: ${BACKEND}; ${ENDPOINTS} endpoints, every event; ${BURSTS} bursts of ${COMMENTS} comments + ${ANONYMOUS} anonymous submissions, ${PAUSE_MS} ms apart`);
    printTable(
      ['figure', 'value', ''],
      [
        ['requests written', String(sentRequests + 1), `in ${((written - started) / 1000).toFixed(1)} s`],
        ['deliveries made', String(made.length), `all ended ${((settled - started) / 1000).toFixed(1)} s after the first burst`],
        ['webhook-ids arrived', String(arrived.size), ''],
        ['arrived more than once', String(twice), 'must be 0'],
        ['never arrived', String(never), 'must be 0'],
        ['arrived, no such delivery', String(strangers), 'must be 0'],
        ['not one attempt counted and logged', String(notOneAttempt), 'must be 0'],
        ['sender runs failed', String(failures), 'must be 0'],
        ['wait to first attempt, p50 / p99 / max', `${quantile(waits, 0.5).toFixed(0)} / ${quantile(waits, 0.99).toFixed(0)} / ${Math.max(0, ...waits).toFixed(0)} s`, 'the pace: 100 attempts a second'],
        ['waited over 30 s', String(waits.filter((w) => w > 30).length), ''],
      ],
    );
    for (const d of made.filter((d) => d.state !== 'succeeded' || d.attempts !== 1 || d.logged !== 1).slice(0, 5)) {
      log(`delivery ${d.id}: ${d.state}, ${d.attempts} attempts counted, ${d.logged} logged, arrived ${arrived.get(`msg_${d.id}`) ?? 0} times`);
    }
    for (const line of lines.slice(0, 10)) log(line);
    if (twice > 0 || never > 0 || strangers > 0 || notOneAttempt > 0 || failures > 0) process.exitCode = 1;
  } finally {
    await server?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) await admin(`drop database if exists "${dbName}" with (force)`);
  }
}

await main();
