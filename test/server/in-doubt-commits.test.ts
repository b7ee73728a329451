import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectCountersExact } from '../helpers/invariants.js';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';
import { postgresBinaries, startThrowawayPostgres, throwawayBackend, type ThrowawayPostgres } from '../helpers/throwaway-postgres.js';
import { until } from '../helpers/until.js';

/** Clients sending at once, and the writes each must get through. */
const CLIENTS = 8;
const WRITES_PER_CLIENT = 24;
/** Items the votes go to, made before the load. */
const ITEMS = 4;
/** A write that has not succeeded by then fails the test (the database is back long before). */
const GIVE_UP_AFTER_MS = 90_000;

/** One write of the load: sent with its own Idempotency-Key until it answers 2xx. */
interface Write {
  key: string;
  path: string;
  body: unknown;
  /** The non-2xx answers (and network errors, as 0) it met before it succeeded. */
  failures: number[];
}

/**
 * Issue 24 §1: a retry after an in-doubt commit never applies a write twice. Submissions and votes
 * run against a PostgreSQL of the test's own, which is stopped as if it crashed (some commits are
 * cut mid-way) and started again. Every write is retried with its key until it answers 2xx, as the
 * SDK does: then every submission exists exactly once and every vote exactly once (each vote is
 * its voter's only toggle of its item, so a vote applied twice would be a vote removed).
 */
describe('in-doubt commits: PostgreSQL crashes under a submit and vote load, every write retried with its key', function () {
  let postgres: ThrowawayPostgres;
  let server: TestServer;
  const items: string[] = [];

  before(async function () {
    const bin = postgresBinaries();
    // The machine's PostgreSQL server programs make the throwaway instance; without them there is nothing to stop.
    if (!bin) return this.skip();
    postgres = await startThrowawayPostgres(bin);
    server = await startTestServer(throwawayBackend(postgres));
    for (let i = 0; i < ITEMS; i++) {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: `Voted on during the crash ${i}` } });
      expect(created.status).to.equal(201);
      items.push(created.body.feedback.id);
    }
  });
  after(async () => {
    await server?.close().catch(() => {});
    await postgres?.destroy();
  });

  /** Sends `write` until it answers 2xx, recording what it met on the way. */
  async function deliver(write: Write, deadline: number): Promise<void> {
    for (;;) {
      expect(Date.now(), `${write.path} ${write.key} never succeeded; it met ${write.failures.join(',')}`).to.be.below(deadline);
      let status = 0;
      try {
        const response = await fetch(server.url + write.path, {
          method: 'POST',
          headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json', 'idempotency-key': write.key },
          body: JSON.stringify(write.body),
          signal: AbortSignal.timeout(10_000),
        });
        status = response.status;
        await response.arrayBuffer();
      } catch {
        status = 0;
      }
      if (status >= 200 && status < 300) return;
      write.failures.push(status);
      // A client's backoff between retries (as the SDK's): pacing, not a wait for a condition.
      await sleep(100 + Math.random() * 200);
    }
  }

  it('when every non-2xx is retried with its key until it succeeds, then each submission and each vote exists exactly once', async () => {
    const writes: Write[][] = Array.from({ length: CLIENTS }, (_, c) =>
      Array.from({ length: WRITES_PER_CLIENT }, (_, i): Write =>
        i % 2 === 0
          ? { key: `submit-${c}-${i}`, path: '/api/v1/feedback', body: { title: `crash load ${c}-${i}`, endUser: { externalId: `submitter-${c}` } }, failures: [] }
          : { key: `vote-${c}-${i}`, path: `/api/v1/feedback/${items[i % ITEMS]}/vote`, body: { endUser: { externalId: `voter-${c}-${i}` } }, failures: [] },
      ),
    );
    const deadline = Date.now() + GIVE_UP_AFTER_MS;
    let crashed = false;
    let delivered = 0;
    // Each client sends its writes one after another, spaced so the load spans the crash.
    const load = Promise.all(
      writes.map(async (mine) => {
        for (const write of mine) {
          await deliver(write, deadline);
          delivered += 1;
          // Pacing, so that the writes span the crash rather than all land before it.
          if (!crashed) await sleep(40);
        }
      }),
    );
    await until(() => delivered >= CLIENTS, 30_000, 'the load to be under way');
    await postgres.stop('immediate');
    crashed = true;
    // Down until the load has met the outage, or this test shows nothing.
    await until(() => writes.flat().some((write) => write.failures.length > 0), 30_000, 'a write to meet the outage');
    await postgres.start();
    await load;

    const all = writes.flat();
    const failed = all.filter((write) => write.failures.length > 0);
    // The crash must have hit the load, or this test shows nothing.
    expect(failed.length, 'writes that met the crash').to.be.greaterThan(0);
    for (const write of all) expect(write.failures.every((status) => [0, 503].includes(status)), `${write.key}: ${write.failures.join(',')}`).to.equal(true);

    const titles = await server.server.orm.em
      .fork()
      .execute<{ title: string; n: number }[]>("select title, count(*)::int as n from feedback where title like 'crash load %' group by title");
    const submits = all.filter((write) => write.key.startsWith('submit-'));
    expect(titles.filter((row) => row.n !== 1), 'submissions saved more than once').to.deep.equal([]);
    expect(titles.length, 'submissions saved').to.equal(submits.length);

    const votes = await server.server.orm.em
      .fork()
      .execute<{ external_id: string }[]>("select e.external_id from votes v join end_users e on e.id = v.end_user_id where e.external_id like 'voter-%'");
    const voters = votes.map((row) => row.external_id).sort();
    const expected = all.filter((write) => write.key.startsWith('vote-')).map((write) => `voter-${write.key.slice('vote-'.length)}`).sort();
    // A vote applied twice is a vote removed: its voter would be missing here.
    expect(voters).to.deep.equal(expected);
    await expectCountersExact(server);

    // Every connection of the ORM's pool is back: one that died inside a transaction is given up,
    // not kept checked out for ever (db/orm-pool-guard.ts).
    const pool = await server.server.orm.em.getConnection().getNativeClient();
    expect({ checkedOut: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }).to.deep.equal({ checkedOut: 0, waiting: 0 });
  });
});
