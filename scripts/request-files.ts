/**
 * `npm run request-files [-- --database-url URL]`: how many of the project's own source files run
 * code for one request of each kind (issue 26 counts them: a vote, a submit and a list should each
 * cross at most 10).
 *
 * It starts a server in this process as `feedback serve` runs one, with its defaults (the rate
 * limit on, JSON log lines, written here to /dev/null), on a new embedded database, or with
 * `--database-url` on a new database of that PostgreSQL server (made and dropped here). It warms
 * each request up (so that module loading and first-time set-up are not counted), then takes V8's
 * precise coverage around one more of it and lists the files of sdk/, server/ and cli/ with a
 * function that ran. Reads the built packages: run `npm run build` first.
 *
 * What is counted is what ran in each of SAMPLES requests. A file that ran in some of them only is
 * named apart: the machine's jobs run in this process too (a log line of their thread, a timer),
 * and a request now and then refills a cache (the key's, every few seconds) or takes a new lease of
 * its rate limit (every so many requests): work of the path, but not of every request on it. On the embedded database, db/embedded/ is the
 * database's own side (the session scheduler that PGlite's socket serves through, in this process):
 * what PostgreSQL's server does on the other backend, and is not counted there either. It is named
 * apart too, so that nothing that ran goes unsaid.
 */
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createLogger, startServer, type DatabaseLocation } from '@feedbackd/server';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OWN = /\/(sdk|server|cli)\/dist\//;
/** The embedded database's server side: the database, not the request's code (see above). */
const DATABASE_SIDE = /^server\/dist\/db\/embedded\//;
/** Requests measured of each kind; a file counts when it ran for every one of them. */
const SAMPLES = 3;

const { values: args } = parseArgs({ options: { 'database-url': { type: 'string' } } });
const serverUrl = args['database-url'];
const dataDir = mkdtempSync(join(tmpdir(), 'feedback-request-files-'));
const scratch = `feedback_request_files_${process.pid}`;
const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};
let location: DatabaseLocation = { dataDir };
if (serverUrl) {
  await admin(`create database ${scratch}`);
  const url = new URL(serverUrl);
  url.pathname = `/${scratch}`;
  location = { dataDir, databaseUrl: url.toString() };
}
process.stdout.write(`on ${serverUrl ? 'PostgreSQL' : 'the embedded database'}, rate limit on, JSON request lines\n`);
let apiKey = '';
const logger = createLogger({ fd: openSync('/dev/null', 'w') });
const server = await startServer({ ...location, port: 0, host: '127.0.0.1', logger, onFirstKey: (key) => (apiKey = key) });
const session = new Session();
session.connect();
try {
  const send = (method: string, path: string, body?: unknown) =>
    fetch(server.url + path, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as { feedback?: { id: string } } }));
  const item = (await send('POST', '/api/v1/feedback', { title: 'Counted' })).body.feedback!.id;
  const requests: Record<string, () => Promise<{ status: number }>> = {
    vote: () => send('POST', `/api/v1/feedback/${item}/vote`, {}),
    submit: () => send('POST', '/api/v1/feedback', { title: 'Another one', endUser: { externalId: 'counted-user' } }),
    list: () => send('GET', '/api/v1/feedback?sortBy=votes'),
  };
  await session.post('Profiler.enable');
  /** The project's files with a function that ran during one request of `run`, and its status. */
  const filesOfOne = async (run: () => Promise<{ status: number }>) => {
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const { status } = await run();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    await session.post('Profiler.stopPreciseCoverage');
    const files = result
      .filter((script) => OWN.test(script.url) && script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
      .map((script) => relative(ROOT, fileURLToPath(script.url)));
    return { status, files: new Set(files) };
  };
  for (const [name, run] of Object.entries(requests)) {
    for (let i = 0; i < 20; i++) await run();
    const samples: { status: number; files: Set<string> }[] = [];
    for (let i = 0; i < SAMPLES; i++) samples.push(await filesOfOne(run));
    const ranAlways = [...samples[0]!.files].filter((file) => samples.every((sample) => sample.files.has(file))).sort();
    const besideOne = [...new Set(samples.flatMap((sample) => [...sample.files]))].filter((file) => !ranAlways.includes(file)).sort();
    const counted = ranAlways.filter((file) => !DATABASE_SIDE.test(file));
    const database = ranAlways.filter((file) => DATABASE_SIDE.test(file));
    const statuses = [...new Set(samples.map((sample) => sample.status))].join(', ');
    process.stdout.write(`${name} (HTTP ${statuses}): ${counted.length} files\n${counted.map((file) => `  ${file}`).join('\n')}\n`);
    if (database.length > 0) process.stdout.write(`  and the embedded database's side, not counted: ${database.join(', ')}\n`);
    if (besideOne.length > 0) process.stdout.write(`  and in some of the ${SAMPLES} requests only (a cache refill, a new lease, the machine's jobs), not counted: ${besideOne.join(', ')}\n`);
  }
} finally {
  session.disconnect();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (serverUrl) await admin(`drop database ${scratch}`);
}
