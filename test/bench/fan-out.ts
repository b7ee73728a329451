/**
 * `npm run bench:fan-out`: a status change on an item with many subscribers (issue 40, "Speed and
 * scale"), on a real PostgreSQL.
 *
 * Creates a throwaway database on BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local
 * server), starts the server on it in this process with one webhook endpoint subscribed to
 * `notification.created` (a local receiver answering 204), and subscribes BENCH_SUBSCRIBERS people
 * (default 100,000) to one item. Then, with BENCH_VOTERS votes in flight at all times (default 8)
 * on other items:
 *   1. votes alone for BENCH_BASELINE_SECONDS (default 10): the vote rate without a fan-out;
 *   2. the item moves to `planned` (one PATCH through a secret key): the vote rate while its
 *      notifications are recorded, and how long the change took;
 *   3. votes alone again, as many seconds: the machine's drift between the two.
 * It checks that every subscriber got a notification and that the events carry them 500 at a time.
 * The goal: every notification within 60 s, and the API answering meanwhile.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiKey, startServer, type RunningServer } from '@feedbackd/server';
import { silentLogger } from '@feedbackd/server/testing';
import pg from 'pg';
import { admin, ADMIN_URL, log, printTable, quantile, timedRequest } from './bench-kit.js';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100_000);
const VOTERS = Number(process.env.BENCH_VOTERS ?? 8);
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 10);
const RECIPIENTS_PER_EVENT = 500;

interface Window {
  votes: number;
  seconds: number;
  latencies: number[];
}

async function main(): Promise<void> {
  const dbName = `feedback_bench_fanout_${randomBytes(4).toString('hex')}`;
  await admin(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  let deliveries = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  let server: RunningServer | undefined;
  const db = new pg.Client({ connectionString: url.toString() });
  try {
    server = await startServer({ databaseUrl: url.toString(), dataDir: '', port: 0, host: '127.0.0.1', rateLimit: 1_000_000_000, webhooksAllowPrivate: true, logger: silentLogger });
    const site = (await createApiKey(server.orm.em.fork(), { name: 'bench' })).key;
    const team = (await createApiKey(server.orm.em.fork(), { name: 'bench-team', kind: 'secret' })).key;
    const base = `http://127.0.0.1:${server.port}`;
    const call = (key: string, method: string, path: string, body?: unknown) => timedRequest(base, key, method, path, body);
    const hook = await call(team, 'POST', '/api/v1/webhooks', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: ['notification.created'] });
    if (hook.status !== 201) throw new Error(`the webhook was answered ${hook.status}: ${JSON.stringify(hook.body)}`);
    const item = (await call(site, 'POST', '/api/v1/feedback', { title: 'Everyone wants this' })).body.feedback.id as string;
    const others: string[] = [];
    for (let i = 0; i < 50; i++) others.push((await call(site, 'POST', '/api/v1/feedback', { title: `Something else ${i}` })).body.feedback.id as string);

    await db.connect();
    const filled = performance.now();
    await db.query(
      `with users as (
         insert into end_users (project_id, external_id, email)
         select f.project_id, 'fan-' || n, 'fan-' || n || '@example.com' from feedback f, generate_series(1, $2::int) n where f.id = $1
         returning id, project_id
       )
       insert into subscriptions (feedback_id, end_user_id, project_id, reasons) select $1, id, project_id, 8 from users`,
      [item, SUBSCRIBERS],
    );
    await db.query('analyze');
    log(`subscribed ${SUBSCRIBERS.toLocaleString('en')} people to one item in ${((performance.now() - filled) / 1000).toFixed(1)} s`);

    // VOTERS loops, each voting as a new identified user on one of the other items, until told to stop.
    let voter = 0;
    const vote = async () => {
      const n = voter++;
      const answer = await call(site, 'POST', `/api/v1/feedback/${others[n % others.length]}/vote`, { endUserId: `voter-${n}` });
      if (answer.status !== 200 && answer.status !== 201) throw new Error(`a vote was answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.ms;
    };
    const votesWhile = async (running: () => boolean): Promise<Window> => {
      const latencies: number[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: VOTERS }, async () => {
          while (running()) latencies.push(await vote());
        }),
      );
      return { votes: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
    };
    const votesFor = (seconds: number) => {
      const until = performance.now() + seconds * 1000;
      return votesWhile(() => performance.now() < until);
    };

    await votesFor(2); // warm-up
    const before = await votesFor(BASELINE_SECONDS);
    let changing = true;
    const during = votesWhile(() => changing);
    const started = performance.now();
    const change = await call(team, 'PATCH', `/api/v1/feedback/${item}`, { status: 'planned' }).finally(() => (changing = false));
    const changeSeconds = (performance.now() - started) / 1000;
    const meanwhile = await during;
    if (change.status !== 200) throw new Error(`the status change was answered ${change.status}: ${JSON.stringify(change.body)}`);
    const after = await votesFor(BASELINE_SECONDS);

    const recorded = Number((await db.query(`select count(*) as n from notifications where feedback_id = $1 and kind = 'status_changed'`, [item])).rows[0].n);
    const events = Number((await db.query(`select count(*) as n from webhook_events where type = 'notification.created'`)).rows[0].n);
    const rate = (w: Window) => w.votes / w.seconds;
    const row = (name: string, w: Window) => [name, w.seconds.toFixed(1), String(w.votes), rate(w).toFixed(0), ...[0.5, 0.99].map((q) => quantile(w.latencies, q).toFixed(1)), Math.max(...w.latencies).toFixed(0)];
    printTable(['votes', 's', 'answered', 'per s', 'p50 ms', 'p99 ms', 'max ms'], [row('before the change', before), row('during the fan-out', meanwhile), row('after the change', after)]);
    const alone = (rate(before) + rate(after)) / 2;
    log(`\nthe status change on an item with ${SUBSCRIBERS.toLocaleString('en')} subscribers took ${changeSeconds.toFixed(1)} s (the goal: within 60 s)`);
    log(`${recorded.toLocaleString('en')} notifications recorded, ${events} notification.created events (${deliveries} delivered so far)`);
    log(`votes during the fan-out: ${(rate(meanwhile) / alone).toFixed(2)}x the rate without it (the mean of before and after, ${alone.toFixed(0)} per second, ${VOTERS} in flight)`);
    if (recorded !== SUBSCRIBERS) throw new Error(`${recorded} notifications for ${SUBSCRIBERS} subscribers`);
    if (events !== Math.ceil(SUBSCRIBERS / RECIPIENTS_PER_EVENT)) throw new Error(`${events} events for ${SUBSCRIBERS} recipients`);
    if (meanwhile.votes === 0) throw new Error('no vote was answered during the fan-out');
  } finally {
    await db.end().catch(() => undefined);
    await server?.close();
    receiver.close();
    if (process.env.BENCH_KEEP) log(`kept the database ${dbName}`);
    else await admin(`drop database if exists "${dbName}" with (force)`);
  }
}

await main();
