/**
 * `npm run bench`: speed of the v1 API over a large project on a real PostgreSQL.
 *
 * Creates a throwaway database on BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local
 * server), fills one project with BENCH_ITEMS items (default 100,000) and their votes, comments
 * and users with the seeder of `feedback seed` (seed 1, with its search markers), starts the server on it and
 * measures each list order, filters, search, detail and concurrent vote toggles over HTTP. Prints
 * the query plans of the list statements (pass --no-explain to skip them) and the process memory.
 */
import { randomBytes } from 'node:crypto';
import { ListFeedbackQuerySchema } from '@feedbackd/sdk/contract';
import { createApiKey, seedProject, startServer, type RunningServer } from '@feedbackd/server';
import { listStatement, listValues, SEED_MARKERS, silentLogger } from '@feedbackd/server/testing';
import pg from 'pg';
import { admin, ADMIN_URL, log, printTable, quantile, timedRequest, type Timed } from './bench-kit.js';

const itemCount = Number(process.env.BENCH_ITEMS ?? 100_000);
const explain = !process.argv.includes('--no-explain');

/** The seed's marker word found in one item of every `every` (see SEED_MARKERS). */
function marker(every: number): string {
  const found = SEED_MARKERS.find((m) => m.every === every);
  if (!found) throw new Error(`no seed marker word is in 1 of ${every} items`);
  return found.word;
}

/** The list requests measured, as query strings of GET /api/v1/feedback. */
const LIST_CASES: Record<string, string> = {
  'newest, page 1': '',
  'oldest, page 1': 'sortBy=oldest',
  'votes, page 1': 'sortBy=votes',
  'comments, page 1': 'sortBy=comments',
  'newest, page 500': 'page=500',
  'votes, page 500': 'sortBy=votes&page=500',
  'status=planned,completed': 'status=planned,completed',
  'type=bug, votes': 'type=bug&sortBy=votes',
  [`search "${marker(10)}" (10 % of items)`]: `search=${marker(10)}`,
  [`search "${marker(100)}" (1 %), votes`]: `search=${marker(100)}&sortBy=votes`,
  [`search "${marker(1000)}" (0.1 %)`]: `search=${marker(1000)}`,
  'search "zzzq" (no match)': 'search=zzzq',
  'limit=100': 'limit=100',
};

async function main(): Promise<void> {
  const dbName = `feedback_bench_${randomBytes(4).toString('hex')}`;
  await admin(`create database "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  let server: RunningServer | undefined;
  try {
    server = await startServer({ databaseUrl: url.toString(), dataDir: '', port: 0, host: '127.0.0.1', rateLimit: 1_000_000_000, logger: silentLogger });
    const { key } = await createApiKey(server.orm.em.fork(), { name: 'bench' });
    const projectId = await defaultProjectId(server);

    // The searches below look for the marker words, which a seed holds only on request.
    const seeded = await seedProject(server.orm, { count: itemCount, seed: 1, searchMarkers: true });
    log(
      `seeded ${seeded.items.toLocaleString('en')} items, ${seeded.votes.toLocaleString('en')} votes, ${seeded.comments.toLocaleString('en')} comments ` +
        `and ${seeded.users.toLocaleString('en')} users in ${seeded.seconds.toFixed(1)} s (${seeded.rowsPerSecond.toLocaleString('en')} rows/s)`,
    );
    // What autovacuum (at the 1% scale factor the migration sets) does soon after a burst of
    // writes: a visibility map that lets the list scans stay index-only from the first request.
    await server.orm.em.fork().execute('vacuum analyze feedback, feedback_counters');
    const user = (n: number) => `seed-1-user-${1 + (n % seeded.userPool)}`;

    const call = (method: string, path: string, body?: unknown) => timedRequest(server!.url, key, method, path, body);
    const rows: string[][] = [];
    for (const [name, query] of Object.entries(LIST_CASES)) {
      const result = await measure(() => call('GET', `/api/v1/feedback${query ? `?${query}` : ''}`), 30);
      rows.push([`GET list: ${name}`, ...result.cells, `total=${result.last.total}`]);
    }
    const first = (await call('GET', '/api/v1/feedback?sortBy=votes')).body.items[0].id as string;
    const detail = await measure(() => call('GET', `/api/v1/feedback/${first}?endUserId=${user(0)}`), 100);
    rows.push(['GET detail', ...detail.cells, '']);

    const single = await measure(() => call('POST', `/api/v1/feedback/${first}/vote`, { endUser: { externalId: user(0) } }), 100);
    rows.push(['POST vote, one at a time', ...single.cells, '']);

    // Concurrent toggles: 20 callers at a time, seeded users spread over 50 items.
    const items = (await call('GET', '/api/v1/feedback?limit=50')).body.items.map((item: { id: string }) => item.id) as string[];
    const toggles = 2_000;
    const started = performance.now();
    const latencies: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < toggles) {
          const n = next++;
          const res = await call('POST', `/api/v1/feedback/${items[n % items.length]}/vote`, { endUser: { externalId: user(n) } });
          if (res.status !== 200) throw new Error(`vote answered ${res.status}`);
          latencies.push(res.ms);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    rows.push(['POST vote x2000, 20 concurrent', ...percentiles(latencies), `${Math.round(toggles / seconds)} votes/s`]);

    printTable(['request', 'p50 ms', 'p95 ms', 'max ms', 'note'], rows);
    const memory = process.memoryUsage();
    log(`\nmemory of the benchmark process (server included): rss ${mb(memory.rss)} MB, heap used ${mb(memory.heapUsed)} MB`);

    if (explain) await printPlans(url.toString(), projectId);
  } finally {
    await server?.close();
    await admin(`drop database if exists "${dbName}" with (force)`);
  }
}

/**
 * The plans the server really runs: every list statement is prepared and explained under
 * plan_cache_mode=force_generic_plan, as the hot pool sets it, so a plan that only holds for
 * one set of values shows here.
 */
async function printPlans(databaseUrl: string, projectId: string): Promise<void> {
  const cases: Record<string, Record<string, string>> = {
    [`search "${marker(10)}" (10 %, newest)`]: { search: marker(10) },
    [`search "${marker(100)}" (1 %, votes)`]: { search: marker(100), sortBy: 'votes' },
    [`search "${marker(1000)}" (0.1 %)`]: { search: marker(1000) },
    newest: {},
    oldest: { sortBy: 'oldest' },
    votes: { sortBy: 'votes' },
    comments: { sortBy: 'comments' },
    'page 50': { page: '50' },
    'status=planned,completed': { status: 'planned,completed' },
    'status=planned,in-progress&type=bug,idea, votes': { status: 'planned,in-progress', type: 'bug,idea', sortBy: 'votes' },
  };
  const client = new pg.Client({ connectionString: databaseUrl, options: '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0 -c jit=off' });
  await client.connect();
  try {
    for (const [name, raw] of Object.entries(cases)) {
      const query = ListFeedbackQuerySchema.parse(raw);
      const statement = listStatement(query);
      const values = listValues(statement, projectId, query).map((value) => client.escapeLiteral(Array.isArray(value) ? `{${value.join(',')}}` : String(value)));
      await client.query(`prepare plan_probe as ${statement.text}`);
      const plan = await client.query<Record<string, string>>(`explain (analyze, buffers, costs off) execute plan_probe(${values.join(', ')})`);
      await client.query('deallocate plan_probe');
      log(`\nEXPLAIN ${name} (${statement.name}, generic plan)\n${plan.rows.map((row) => `  ${Object.values(row)[0]}`).join('\n')}`);
    }
  } finally {
    await client.end();
  }
}

/** Runs a request `times` times in a row (after two warm-ups) and reports its latency percentiles. */
async function measure(request: () => Promise<Timed>, times: number): Promise<{ cells: string[]; last: any }> {
  await request();
  await request();
  const latencies: number[] = [];
  let last: Timed | undefined;
  for (let i = 0; i < times; i++) {
    last = await request();
    if (last.status !== 200) throw new Error(`answered ${last.status}: ${JSON.stringify(last.body)}`);
    latencies.push(last.ms);
  }
  return { cells: percentiles(latencies), last: last?.body };
}

function percentiles(values: number[]): string[] {
  return [quantile(values, 0.5), quantile(values, 0.95), Math.max(0, ...values)].map((ms) => ms.toFixed(1));
}

async function defaultProjectId(server: RunningServer): Promise<string> {
  const rows = await server.orm.em.fork().execute<{ id: string }[]>("select id from projects where slug = 'default'");
  const id = rows[0]?.id;
  if (!id) throw new Error('the default project is missing');
  return id;
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
