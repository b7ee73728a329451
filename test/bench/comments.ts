/**
 * `npm run bench:comments`: the conversation's speed (issue 39) on a real PostgreSQL.
 *
 * Creates a throwaway database on BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local
 * server) and starts the server on it in this process. Measures posting a comment through a public
 * key (one statement, no ORM: counted), alone and 20 at a time; then fills one item with 1,000
 * comments through the API (end users, replies, team answers, internal notes, a pinned answer)
 * and another with 10, and reads both details alternately: each read is one statement (counted),
 * and the p99 of the large one is held to at most twice the small one's (BENCH_DETAIL_READS reads
 * each, default 400).
 */
import { randomBytes } from 'node:crypto';
import { createApiKey, startServer, type RunningServer } from '@feedbackd/server';
import { DETAIL, silentLogger } from '@feedbackd/server/testing';
import pg from 'pg';
import { admin, ADMIN_URL, log, printTable, quantile, timedRead, timedRequest, type Timed } from './bench-kit.js';
import { statementsDuring } from '../helpers/statement-count.js';

const reads = Number(process.env.BENCH_DETAIL_READS ?? 400);
const LARGE = 1_000;
const SMALL = 10;

async function main(): Promise<void> {
  const dbName = `feedback_bench_comments_${randomBytes(4).toString('hex')}`;
  await admin(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  let server: RunningServer | undefined;
  try {
    server = await startServer({ databaseUrl: url.toString(), dataDir: '', port: 0, host: '127.0.0.1', rateLimit: 1_000_000_000, logger: silentLogger });
    const site = (await createApiKey(server.orm.em.fork(), { name: 'bench' })).key;
    const team = (await createApiKey(server.orm.em.fork(), { name: 'bench-team', kind: 'secret' })).key;
    const base = `http://127.0.0.1:${server.port}`;
    const call = (key: string, method: string, path: string, body?: unknown) => timedRequest(base, key, method, path, body);
    const item = async (title: string) => (await call(site, 'POST', '/api/v1/feedback', { title })).body.feedback.id as string;
    const large = await item('An item with a thousand comments');
    const small = await item('An item with ten comments');
    const scratch = await item('Where the posting is measured');

    // Posting: one statement per comment, alone and 20 at a time.
    const post = (id: string, i: number, extra: Record<string, unknown> = {}) =>
      call(site, 'POST', `/api/v1/feedback/${id}/comments`, { content: `Comment ${i}: this matters to us because the export is how we report every week.`, endUser: { externalId: `user-${i % 200}` }, ...extra });
    const { statements: postStatements } = await statementsDuring(() => post(scratch, 0));
    const alone: number[] = [];
    for (let i = 1; i <= 300; i++) alone.push(check(await post(scratch, i), 201).ms);
    const concurrent: number[] = [];
    const started = performance.now();
    for (let round = 0; round < 50; round++) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, j) => post(scratch, 1000 + round * 20 + j)));
      for (const answer of answers) concurrent.push(check(answer, 201).ms);
    }
    const perSecond = Math.round(concurrent.length / ((performance.now() - started) / 1000));

    // The large item: 1,000 comments, a third of them replies, some team answers and notes, one pinned.
    const tops: string[] = [];
    for (let i = 0; i < LARGE; i++) {
      let answer: Timed;
      if (i % 50 === 7) answer = await call(team, 'POST', `/api/v1/feedback/${large}/comments`, { content: `Internal note ${i}`, team: { name: 'Support' }, internal: true });
      else if (i % 25 === 3) answer = await call(team, 'POST', `/api/v1/feedback/${large}/comments`, { content: `Team answer ${i}`, team: { name: 'Support' }, parentId: tops[i % tops.length], pin: i === 3 });
      else answer = await post(large, i, i % 3 === 1 && tops.length > 0 ? { parentId: tops[i % tops.length] } : {});
      const comment = check(answer, 201).body.comment;
      if (!comment.parentId && !comment.internal) tops.push(comment.id);
    }
    for (let i = 0; i < SMALL; i++) check(await post(small, i, i % 3 === 1 ? { parentId: undefined } : {}), 201);

    const detail = (id: string) => call(site, 'GET', `/api/v1/feedback/${id}?endUserId=user-1`);
    const { result: sample, statements: readStatements } = await statementsDuring(() => detail(large));
    const shown = check(sample, 200).body.feedback;
    for (let i = 0; i < 20; i++) (await detail(large), await detail(small));
    const big: number[] = [];
    const little: number[] = [];
    // Alternately, so that both see the same machine (this one is shared); read to the last byte,
    // not parsed (bench-kit.ts, timedRead).
    const read = async (id: string) => {
      const answer = await timedRead(base, site, `/api/v1/feedback/${id}?endUserId=user-1`);
      if (answer.status !== 200) throw new Error(`the detail was answered ${answer.status}`);
      return answer.ms;
    };
    for (let i = 0; i < reads; i++) {
      big.push(await read(large));
      little.push(await read(small));
    }

    // The statement alone, on a connection of its own: what the database spends, without HTTP.
    // `plain`: the statement every short item is read with; `built`: the thread statement of a long
    // item, building its thread; `kept`: the same, sent the thread's current stamp, as a reader
    // that holds the thread sends it (domain/feedback/comment-threads.ts).
    const sqlOnly = async (id: string, mode: 'plain' | 'built' | 'kept') => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        const [projectId] = (await client.query<{ project_id: string }>('select project_id from feedback where id = $1', [id])).rows.map((r) => r.project_id);
        const thread = DETAIL.thread;
        const first = await client.query<{ stamp: string | null }>({ name: thread.name, text: thread.text, values: [id, projectId, 'user-1', null] });
        const query = mode === 'plain' ? { ...DETAIL, values: [id, projectId, 'user-1'] } : { ...thread, values: [id, projectId, 'user-1', mode === 'kept' ? first.rows[0]!.stamp : null] };
        const times: number[] = [];
        for (let i = 0; i < reads; i++) {
          const t = performance.now();
          await client.query({ name: query.name, text: query.text, values: query.values });
          times.push(performance.now() - t);
        }
        return times;
      } finally {
        await client.end();
      }
    };
    if (process.argv.includes('--explain')) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const [projectId] = (await client.query<{ project_id: string }>('select project_id from feedback where id = $1', [large])).rows.map((r) => r.project_id);
      const plan = await client.query(`explain (analyze, buffers, costs off) ${DETAIL.thread.text}`, [large, projectId, 'user-1', null]);
      log(plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n'));
      await client.end();
    }
    const sqlLittle = await sqlOnly(small, 'plain');
    const sqlBigPlain = await sqlOnly(large, 'plain');
    const sqlBig = await sqlOnly(large, 'built');
    const sqlBigKept = await sqlOnly(large, 'kept');

    const rows = [
      ['POST comment (public key), one at a time', ...cells(alone), `${postStatements.length} statement(s)`],
      ['POST comment, 20 concurrent', ...cells(concurrent), `${perSecond} comments/s`],
      [`GET detail, ${SMALL} comments`, ...cells(little), ''],
      [`GET detail, ${LARGE} comments (${shown.comments.length} visible)`, ...cells(big), `${readStatements.length} statement(s), ${Math.round(JSON.stringify(shown).length / 1024)} KB`],
      [`detail statement alone, ${SMALL} comments`, ...cells(sqlLittle), ''],
      [`detail statement alone, ${LARGE} comments`, ...cells(sqlBigPlain), 'the plain statement'],
      [`detail statement alone, ${LARGE} comments, thread built`, ...cells(sqlBig), 'the thread statement, no stamp'],
      [`detail statement alone, ${LARGE} comments, thread kept`, ...cells(sqlBigKept), 'its stamp sent and still current'],
    ];
    printTable(['request', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'note'], rows);
    const ratio = quantile(big, 0.99) / quantile(little, 0.99);
    log(`\np99 of the detail with ${LARGE} comments is ${ratio.toFixed(2)}x that with ${SMALL} (the goal: at most 2x)`);
    if (readStatements.length !== 1) throw new Error(`the detail took ${readStatements.length} statements`);
    if (postStatements.length !== 1) throw new Error(`posting a comment took ${postStatements.length} statements`);
  } finally {
    await server?.close();
    // BENCH_KEEP=1 keeps the database, to look at its plans by hand.
    if (process.env.BENCH_KEEP) log(`kept the database ${dbName}`);
    else await admin(`drop database if exists "${dbName}" with (force)`);
  }
}

function check(answer: Timed, status: number): Timed {
  if (answer.status !== status) throw new Error(`answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

function cells(values: number[]): string[] {
  return [quantile(values, 0.5), quantile(values, 0.95), quantile(values, 0.99), Math.max(...values)].map((ms) => ms.toFixed(1));
}

await main();
