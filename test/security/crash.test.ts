import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { backendAt, backends, type FreshDatabase } from '../helpers/backends.js';
import { inProcess, startServe, type ServeProcess } from '../helpers/cli-process.js';
import { request, startTestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** How many acknowledged writes the load has made when the kill or the stop comes: the middle of the load on a quiet machine. */
const LOAD_WRITES = 40;
const CLIENTS = 8;

/** Counters that must equal the rows they count, whatever happened: each query returns the rows that disagree. */
const MISMATCHES = {
  voteCounts: `select c.feedback_id from feedback_counters c
    where c.vote_count <> (select count(*) from votes v where v.feedback_id = c.feedback_id)`,
  commentCounts: `select c.feedback_id from feedback_counters c
    where c.comment_count <> (select count(*) from comments m where m.feedback_id = c.feedback_id)`,
  itemsWithoutCounters: `select f.id from feedback f left join feedback_counters c on c.feedback_id = f.id where c.feedback_id is null`,
  stats: `select s.project_id, s.status, s.type from (
      select project_id, status, type, sum(item_count)::int as n from feedback_stats group by 1, 2, 3) s
    full join (select project_id, status, type, count(*)::int as n from feedback group by 1, 2, 3) f
      using (project_id, status, type)
    where coalesce(s.n, 0) <> coalesce(f.n, 0)`,
};

for (const backend of backends()) {
  describe(`Crash and shutdown under a write load: no acknowledged write lost (${backend.name})`, () => {
    let database: FreshDatabase;
    let where: string[];
    const acknowledged: string[] = [];
    let votesAcknowledged = 0;

    before(async () => {
      database = await backend.createMigrated();
      where = database.location.databaseUrl ? ['--database-url', database.location.databaseUrl] : ['--data-dir', database.location.dataDir];
    });
    // A server a test started and did not stop (it failed before its SIGKILL or SIGTERM) is killed
    // here: left running, it keeps mocha, and so CI, alive for ever.
    const started: ServeProcess[] = [];
    afterEach(() => {
      for (const server of started.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    });
    after(() => database?.drop());

    it('when the server is killed with SIGKILL in the middle of submissions and votes, then after a restart every acknowledged item is there and every counter equals its rows', async () => {
      const server = await startServe([...where, '--workers', '1', '--rate-limit', 'off']);
      started.push(server);
      await until(() => /pk_/.test(server.stdout()), 30_000, 'the first key');
      const apiKey = /(pk_[0-9A-Za-z]+)/.exec(server.stdout())![1]!;
      const caller = { url: server.url, apiKey };

      let stop = false;
      const client = async (n: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const created = await request(caller, 'POST', '/api/v1/feedback', {
              body: { title: `crash ${n}-${i}`, type: 'bug', endUser: { externalId: `crash-user-${n}`, name: `User ${n}` } },
            });
            if (created.status !== 201) continue;
            acknowledged.push(created.body.feedback.id);
            const target = acknowledged[(i * 7 + n) % acknowledged.length]!;
            const vote = await request(caller, 'POST', `/api/v1/feedback/${target}/vote`, { body: { endUser: { externalId: `voter-${i % 5}` } } });
            if (vote.status === 200) votesAcknowledged += 1;
          } catch {
            // The server is gone: the connection was cut. Whatever was not acknowledged may or may not be there.
          }
        }
      };
      const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
      // The kill comes in the middle of the load, once it has acknowledged writes to look for: a
      // count, not a time, which a busy machine would stretch.
      await until(() => acknowledged.length >= LOAD_WRITES, 60_000, () => `${LOAD_WRITES} acknowledged writes (${acknowledged.length} so far)`);
      server.child.kill('SIGKILL');
      await server.exited;
      stop = true;
      await load;
      expect(acknowledged.length, 'the load acknowledged writes before the kill').to.be.above(10);

      // Restarted on the same data, in this process, so the rows can be read directly.
      const same = backendAt(backend.name, database.location);
      const restarted = await startTestServer(same, { existingKey: apiKey });
      try {
        for (const id of acknowledged) {
          const res = await request(restarted, 'GET', `/api/v1/feedback/${id}`);
          expect(res.status, `acknowledged item ${id}`).to.equal(200);
        }
        for (const [name, sql] of Object.entries(MISMATCHES)) {
          const rows = await restarted.server.sql.query(`crash_${name}`, sql, []);
          expect(rows, `${name}: rows whose counters disagree`).to.deep.equal([]);
        }
        console.log(`      (${backend.name}: ${acknowledged.length} items and ${votesAcknowledged} votes acknowledged before SIGKILL, all checked)`);
      } finally {
        await restarted.server.close();
      }
    });

    it('when SIGTERM arrives under the same load, then requests in flight are answered (never a 5xx), the server exits 0, and every acknowledged item is there', async () => {
      const server = await startServe([...where, '--workers', '1', '--rate-limit', 'off']);
      started.push(server);
      const caller = { url: server.url, apiKey: await newKeyFor(database) };
      const statuses: number[] = [];
      const created: string[] = [];
      let stop = false;
      const client = async (n: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await request(caller, 'POST', '/api/v1/feedback', { body: { title: `term ${n}-${i}` } });
            statuses.push(res.status);
            if (res.status === 201) created.push(res.body.feedback.id);
          } catch {
            // A new connection after SIGTERM is refused: that is the point. A pause before the next
            // try, so the refusals do not spin: pacing, not a wait for a condition.
            await sleep(20);
          }
        }
      };
      const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
      // As above: SIGTERM arrives once the load is under way, however slowly a busy machine starts it.
      await until(() => created.length >= LOAD_WRITES / 2, 60_000, () => `${LOAD_WRITES / 2} created items (${created.length} so far)`);
      server.child.kill('SIGTERM');
      const code = await server.exited;
      stop = true;
      await load;
      expect(code).to.equal(0);
      expect(statuses.filter((status) => status >= 500)).to.deep.equal([]);
      expect(created.length).to.be.above(10);
      const same = backendAt(backend.name, database.location);
      const restarted = await startTestServer(same, { existingKey: caller.apiKey });
      try {
        const list = await request(restarted, 'GET', '/api/v1/feedback?search=term&limit=100');
        expect(list.body.total).to.equal(created.length);
      } finally {
        await restarted.server.close();
      }
    });
  });
}

/** A key minted by the operator command on a database that already has its first key. */
async function newKeyFor(database: FreshDatabase): Promise<string> {
  const where = database.location.databaseUrl ? ['--database-url', database.location.databaseUrl] : ['--data-dir', database.location.dataDir];
  // In this process, through the running server: the key is a means here, not the binary's behaviour.
  const created = await inProcess(['keys', 'create', '--json', ...where]);
  expect(created.code, created.stderr).to.equal(0);
  return (JSON.parse(created.stdout) as { key: string }).key;
}
