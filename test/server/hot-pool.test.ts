import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openSqlPool, type SqlPool } from '@feedbackd/server';

/**
 * The hot side's pipelined lanes on a real PostgreSQL (server/src/db/pipelined-pool.ts): queries
 * sent without waiting for the ones before them must still each get their own answer, fail alone,
 * commit alone, and survive a lost connection.
 */
describe('Hot connections on PostgreSQL: pipelined lanes', function () {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const application = `hot_pool_test_${randomBytes(4).toString('hex')}`;
  const table = `hot_pool_rows_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let pools: SqlPool[] = [];

  /** A hot pool of `lanes` connections, named so that pg_stat_activity shows its backends. */
  const open = (lanes: number): SqlPool => {
    const url = new URL(adminUrl!);
    url.searchParams.set('application_name', application);
    const pool = openSqlPool({ kind: 'postgres', connection: { clientUrl: url.toString() } }, lanes);
    pools.push(pool);
    return pool;
  };
  const backendPid = async (pool: SqlPool) => (await pool.query<{ pid: number }>('hot_pool_pid', 'select pg_backend_pid() as pid', []))[0]!.pid;
  const openBackends = async () => (await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [application])).rows.map((row) => row.pid);

  before(async function () {
    if (!adminUrl) return this.skip();
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create table ${table} (n int primary key)`);
  });
  afterEach(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
    pools = [];
  });
  after(async () => {
    await admin?.query(`drop table if exists ${table}`);
    await admin?.end();
  });

  it('when 300 queries are in flight at once on 3 lanes, then each gets its own answer and only 3 backends serve them', async () => {
    const pool = open(3);
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, n) =>
        // Some wait a little, so that answers come back while later queries are still being written.
        pool.query<{ n: number; pid: number }>('hot_pool_echo', 'select $1::int as n, pg_backend_pid() as pid from pg_sleep(case when $1::int % 50 = 0 then 0.02 else 0 end)', [n]),
      ),
    );
    expect(answers.map((rows) => rows[0]!.n)).to.deep.equal(Array.from({ length: 300 }, (_, n) => n));
    expect(new Set(answers.map((rows) => rows[0]!.pid)).size).to.be.at.most(3);
    expect(await openBackends()).to.have.length.at.most(3);
  });

  it('when one of several queued statements fails, then it fails alone: the others on its lane commit, and the lane keeps its connection', async () => {
    const pool = open(1);
    const pidBefore = await backendPid(pool);
    const insert = (n: number) => pool.query('hot_pool_insert', `insert into ${table} (n) values ($1) returning n`, [n]);
    const results = await Promise.allSettled([insert(1), pool.query('hot_pool_fail', 'select 1 / 0', []), insert(2), insert(1), insert(3)]);
    expect(results.map((result) => result.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).to.include({ code: '22012' });
    expect((results[3] as PromiseRejectedResult).reason).to.include({ code: '23505' });
    const rows = await admin.query<{ n: number }>(`select n from ${table} order by n`);
    expect(rows.rows.map((row) => row.n)).to.deep.equal([1, 2, 3]);
    expect(await backendPid(pool)).to.equal(pidBefore);
  });

  /** Both lanes of a 2-lane pool connected: two queries sent in one turn before any lane has a connection take one lane each. */
  const warm = async (pool: SqlPool) => expect(new Set(await Promise.all([backendPid(pool), backendPid(pool)])).size).to.equal(2);
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('when a slow query holds one lane, then a query sent in a later turn is answered on another lane first', async () => {
    const pool = open(2);
    await warm(pool);
    const order: string[] = [];
    const slow = pool.query('hot_pool_slow', 'select pg_sleep(0.3)', []).then(() => order.push('slow'));
    await nextTurn();
    const fast = pool.query('hot_pool_fast', 'select 1', []).then(() => order.push('fast'));
    await Promise.all([slow, fast]);
    expect(order).to.deep.equal(['fast', 'slow']);
  });

  it('when queries are sent in one turn, then they leave on one lane, until it has 4 more in flight than the least busy lane', async () => {
    const pool = open(2);
    await warm(pool);
    // One write and one woken backend for the turn's queries, not one per lane (pipelined-pool.ts, TURN_LANE_SLACK).
    const pids = await Promise.all(Array.from({ length: 6 }, () => backendPid(pool)));
    expect(new Set(pids.slice(0, 5)).size, 'the first five on one lane').to.equal(1);
    expect(pids[5], 'the sixth on the other').to.not.equal(pids[0]);
  });

  it('when a lane loses its connection, then the query on it fails and the next ones are served on a new connection', async () => {
    const pool = open(1);
    const pid = await backendPid(pool);
    const waiting = pool.query('hot_pool_wait', 'select pg_sleep(5)', []).then(
      () => undefined,
      (error: unknown) => error,
    );
    // Let the statement start before its backend is stopped under it.
    while ((await admin.query(`select 1 from pg_stat_activity where pid = $1 and state = 'active'`, [pid])).rowCount === 0);
    await admin.query('select pg_terminate_backend($1)', [pid]);
    expect(await waiting).to.be.an('error');
    const after = await backendPid(pool);
    expect(after).to.be.a('number').and.not.equal(pid);
    expect(await pool.ping(2_000)).to.equal(true);
  });

  it('when the pool is closed, then its backends are gone and a further query fails instead of reconnecting', async () => {
    const pool = open(2);
    await Promise.all([backendPid(pool), backendPid(pool)]);
    expect(await openBackends()).to.have.length.greaterThan(0);
    await pool.close();
    let backends = await openBackends();
    for (let i = 0; i < 50 && backends.length > 0; i++) backends = await openBackends();
    expect(backends).to.deep.equal([]);
    const refused = await pool.query('hot_pool_pid', 'select pg_backend_pid() as pid', []).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).to.be.an('error');
    expect(await openBackends()).to.deep.equal([]);
  });
});
