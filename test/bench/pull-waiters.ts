/**
 * `node --import tsx test/bench/pull-waiters.ts`: what waiting webhook pulls (`feedback webhooks
 * listen`) cost the API on the embedded database (issue 37). A server on a new embedded database
 * answers list requests from CLIENTS loops for SECONDS, alone and while WAITERS pulls wait (each
 * re-sent as soon as it answers, as a listener does), ROUNDS times in turn (the machine may be
 * shared: compare the medians), and prints both rates and the statements per second the waiting
 * pulls alone send to the database once they all wait (counted on node-postgres's client, as
 * test/helpers/statement-count.ts does; the most of any round).
 *
 * SERVER_ENTRY names the server package's built entry to measure (default: this checkout's), so
 * that another checkout's build can be measured by the same harness.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SECONDS = Number(process.env.SECONDS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CLIENTS = Number(process.env.CLIENTS ?? 8);
const WAITERS = Number(process.env.WAITERS ?? 60);

type ServerModule = typeof import('@feedbackd/server');

async function main(): Promise<void> {
  const entry = process.env.SERVER_ENTRY;
  const { startServer, createApiKey } = (await import(entry ?? '@feedbackd/server')) as ServerModule;
  const dataDir = mkdtempSync(join(tmpdir(), 'feedback-bench-pulls-'));
  let publicKey = '';
  const quiet = () => {};
  const server = await startServer({
    dataDir,
    port: 0,
    host: '127.0.0.1',
    rateLimit: 100_000_000,
    logger: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    onFirstKey: (key) => {
      publicKey = key;
    },
  });
  const counted = countStatements(entry);
  try {
    const secretKey = (await createApiKey(server.orm.em.fork(), { kind: 'secret' })).key;
    const call = (key: string, method: string, path: string, body?: unknown, signal?: AbortSignal) =>
      fetch(server.url + path, { method, signal, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    for (let i = 0; i < 50; i++) await (await call(publicKey, 'POST', '/api/v1/feedback', { title: `Item ${i}` })).text();

    const rate = async (): Promise<number> => {
      let done = 0;
      const until = performance.now() + SECONDS * 1000;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (performance.now() < until) {
            const answer = await call(publicKey, 'GET', '/api/v1/feedback?limit=20');
            await answer.text();
            if (answer.status === 200) done += 1;
          }
        }),
      );
      return done / SECONDS;
    };

    const endpoints: string[] = [];
    for (let i = 0; i < WAITERS; i++) {
      const made = (await (await call(secretKey, 'POST', '/api/v1/webhooks/listen', { forwardTo: 'http://localhost:4000/hooks' })).json()) as { webhook: { id: string } };
      endpoints.push(made.webhook.id);
    }
    const alone: number[] = [];
    const withWaiters: number[] = [];
    let idleStatements = 0;
    for (let round = 0; round < ROUNDS; round++) {
      alone.push(await rate());
      const stopRound = new AbortController();
      const listeners = endpoints.map(async (id) => {
        while (!stopRound.signal.aborted) {
          await call(secretKey, 'POST', `/api/v1/webhooks/${id}/pull`, { waitSeconds: 25 }, stopRound.signal)
            .then((answer) => answer.text())
            .catch(() => {});
        }
      });
      // Every listener reaches its wait: on a busy machine 60 pulls take seconds to start, so
      // until a second passes in which fewer statements were sent than a quarter of the pulls'
      // first ones (at most 20 s); then what the waiting pulls alone send, over 3 s.
      const warm = performance.now() + 20_000;
      await sleep(1_000);
      for (let last = counted(); performance.now() < warm; ) {
        await sleep(1_000);
        const now = counted();
        if (now - last < WAITERS / 4) break;
        last = now;
      }
      const before = counted();
      await sleep(3_000);
      idleStatements = Math.max(idleStatements, (counted() - before) / 3);
      withWaiters.push(await rate());
      stopRound.abort();
      await Promise.all(listeners);
    }

    console.log(`server: ${entry ?? '@feedbackd/server (this checkout)'}; embedded database; ${CLIENTS} clients for ${SECONDS} s each, GET /api/v1/feedback?limit=20`);
    console.log(`no waiting pull:   ${alone.map((r) => r.toFixed(0)).join(', ')} req/s, median ${median(alone).toFixed(0)}`);
    console.log(`${WAITERS} waiting pulls: ${withWaiters.map((r) => r.toFixed(0)).join(', ')} req/s, median ${median(withWaiters).toFixed(0)} (${(median(withWaiters) / median(alone)).toFixed(2)}x)`);
    console.log(`statements the waiting pulls send, with no other request: ${idleStatements.toFixed(1)} a second`);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A running count of the statements sent through node-postgres's Client (the server's copy of pg). */
function countStatements(entry: string | undefined): () => number {
  const server = createRequire(createRequire(import.meta.url).resolve(entry ?? '@feedbackd/server'));
  const prototype = (server('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } }).Client.prototype;
  const original = prototype.query;
  let n = 0;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    n += 1;
    return original.apply(this, args);
  };
  return () => n;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

await main();
