/**
 * `npm run bench:memory`: the resident memory of `feedback serve` (the whole process tree: the
 * primary, any workers, the jobs' thread and, on the embedded database, PGlite) at a large project,
 * idle and under a 70/30 read/write mix, on each backend. A measurement, not a test: it asserts
 * nothing and prints a table (or, with --json, one JSON document).
 *
 *   npm run bench:memory [-- --backends=embedded,postgres --items=100000 --duration=30 --json --reseed --cli=PATH] [-- serve flags]
 *
 * Each backend is seeded once with `feedback seed --count ITEMS --search-markers` and the seed is
 * kept for the next runs (a template database `feedback_memory_ITEMS` on BENCH_DATABASE_URL's
 * server, a data directory under the system's temporary directory); every run serves a fresh copy
 * of it, so the writes of one run never reach the next. --reseed makes the seed again.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { admin, ADMIN_URL, log, printTable } from './bench-kit.js';
import { runMix, type MixResult } from './memory-load.js';
import { mb, treeMemory, type TreeMemory } from './process-memory.js';

const argv = process.argv.slice(2);
const separator = argv.indexOf('--');
const flags = new Map((separator < 0 ? argv : argv.slice(0, separator)).map((arg) => [arg.replace(/^--/, '').split('=')[0]!, arg.split('=')[1] ?? 'true']));
/** The launcher measured: this checkout's, or another build's with --cli=PATH (a before and after). */
const CLI = resolve(flags.get('cli') ?? fileURLToPath(new URL('../../cli/bin/feedback.js', import.meta.url)));
const serveFlags = separator < 0 ? [] : argv.slice(separator + 1);
const backends = (flags.get('backends') ?? 'embedded,postgres').split(',') as Array<'embedded' | 'postgres'>;
const items = Number(flags.get('items') ?? process.env.BENCH_ITEMS ?? 100_000);
const durationS = Number(flags.get('duration') ?? 30);
const connections = Number(flags.get('connections') ?? 32);
const json = flags.has('json');

/** Progress goes to stderr, so that --json leaves stdout to the document alone. */
function progress(text: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${text}\n`);
}

interface Seeded {
  /** The flags that point `feedback` at the copy this run serves. */
  location: string[];
  userPool: number;
  drop(): Promise<void>;
}

interface BackendResult {
  backend: string;
  serveFlags: string[];
  idle: TreeMemory;
  peak: TreeMemory;
  end: TreeMemory;
  after: TreeMemory;
  load: MixResult;
}

async function main(): Promise<void> {
  const results: BackendResult[] = [];
  for (const backend of backends) results.push(await measure(backend));
  if (json) {
    process.stdout.write(`${JSON.stringify({ items, durationS, connections, load: loadAverage(), results }, null, 2)}\n`);
    return;
  }
  log(`\n${items.toLocaleString('en')} items, ${connections} connections, ${durationS} s of the 70/30 mix; load average at the end: ${loadAverage()}`);
  printTable(
    ['backend', 'idle RSS', 'idle PSS', 'load peak RSS', 'load peak PSS', 'end of load RSS', 'idle after RSS', 'requests (non-2xx)'],
    results.map((r) => [r.backend, mb(r.idle.rss), mb(r.idle.pss), mb(r.peak.rss), mb(r.peak.pss), mb(r.end.rss), mb(r.after.rss), `${r.load.requests} (${r.load.non2xx})`]),
  );
  log('\n(MB = MiB. RSS: each process counted in full, summed over the tree; PSS: shared pages divided among the processes that share them.)');
  for (const r of results) {
    log(`${r.backend} at its peak: ${r.peak.processes.map((p) => `${p.name} ${p.pid} rss ${mb(p.rss)} pss ${mb(p.pss)}`).join('; ')}`);
  }
}

async function measure(backend: 'embedded' | 'postgres'): Promise<BackendResult> {
  const seeded = backend === 'embedded' ? await embeddedCopy() : await postgresCopy();
  let server: ChildProcess | undefined;
  try {
    const key = mintKey(seeded.location);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const args = [CLI, 'serve', ...seeded.location, '--port', String(port), '--host', '127.0.0.1', '--rate-limit', '999999999', ...serveFlags];
    progress(`[${backend}] starting feedback serve ${args.slice(2).join(' ')}`);
    let stderr = '';
    server = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    await waitUntil(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok === true, 120_000, () => `the server did not start: ${stderr}`);
    const pid = server.pid!;
    const idle = await settled(pid);
    progress(`[${backend}] idle: rss ${mb(idle.rss)} MB; ${durationS} s of the mix with ${connections} connections`);
    let peak = idle;
    const sampler = setInterval(() => {
      const now = treeMemory(pid);
      if (now.rss > peak.rss) peak = now;
    }, 250);
    const load = await runMix({ base, key, userPool: seeded.userPool, durationS, connections, progress: (text) => progress(`[${backend}] ${text}`) });
    clearInterval(sampler);
    const end = treeMemory(pid);
    if (end.rss > peak.rss) peak = end;
    const after = await settled(pid);
    progress(`[${backend}] peak rss ${mb(peak.rss)} MB, idle after the load ${mb(after.rss)} MB`);
    return { backend, serveFlags, idle, peak, end, after, load };
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((done) => server!.once('exit', done));
      server.kill('SIGTERM');
      await exited;
    }
    await seeded.drop();
  }
}

/**
 * The tree's memory once it stops moving: its RSS changed by less than 1 MB over 2 s (a start's
 * last allocations, a load's last writes and collections), or after 30 s at most.
 */
async function settled(pid: number): Promise<TreeMemory> {
  const deadline = Date.now() + 30_000;
  let last = treeMemory(pid);
  for (;;) {
    await new Promise((done) => setTimeout(done, 2_000));
    const now = treeMemory(pid);
    if (Math.abs(now.rss - last.rss) < 1024 * 1024 || Date.now() > deadline) return now;
    last = now;
  }
}

/** A fresh copy of the kept embedded seed, seeding it first when there is none. */
async function embeddedCopy(): Promise<Seeded> {
  const kept = join(tmpdir(), `feedback-memory-${items}`);
  const marker = join(kept, 'seeded.json');
  if (flags.has('reseed') || !existsSync(marker)) {
    rmSync(kept, { recursive: true, force: true });
    const summary = await seed('embedded', ['--data-dir', kept]);
    writeFileSync(marker, JSON.stringify(summary));
  }
  const { userPool } = JSON.parse(readFileSync(marker, 'utf8')) as { userPool: number };
  const copy = mkdtempSync(join(tmpdir(), 'feedback-memory-run-'));
  progress('[embedded] copying the seeded data directory');
  cpSync(join(kept, 'pgdata'), join(copy, 'pgdata'), { recursive: true });
  return { location: ['--data-dir', copy], userPool, drop: async () => rmSync(copy, { recursive: true, force: true }) };
}

/** A fresh database made from the kept seeded template, seeding the template first when there is none. */
async function postgresCopy(): Promise<Seeded> {
  const template = `feedback_memory_${items}`;
  let summary = flags.has('reseed') ? null : await templateSummary(template);
  if (!summary) {
    await admin(`drop database if exists "${template}" with (force)`);
    await admin(`create database "${template}"`);
    summary = await seed('postgres', ['--database-url', databaseUrl(template)]);
    // The summary rides on the database itself, so a kept template says what it holds.
    await admin(`comment on database "${template}" is '${JSON.stringify(summary)}'`);
  }
  const copy = `feedback_memory_run_${process.pid}`;
  progress('[postgres] copying the seeded template database');
  await admin(`drop database if exists "${copy}" with (force)`);
  await admin(`create database "${copy}" template "${template}"`);
  return { location: ['--database-url', databaseUrl(copy)], userPool: summary.userPool, drop: () => admin(`drop database if exists "${copy}" with (force)`) };
}

async function templateSummary(template: string): Promise<{ userPool: number } | null> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ summary: string | null }>(`select shobj_description(oid, 'pg_database') as summary from pg_database where datname = $1`, [template]);
    return rows[0]?.summary ? (JSON.parse(rows[0].summary) as { userPool: number }) : null;
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `feedback seed` into `location`, with a line of progress every 15 s (100,000 items take minutes). */
async function seed(backend: string, location: string[]): Promise<{ userPool: number }> {
  progress(`[${backend}] seeding ${items.toLocaleString('en')} items (kept for later runs; this takes minutes)`);
  const started = Date.now();
  const ticker = setInterval(() => progress(`[${backend}] still seeding, ${Math.round((Date.now() - started) / 1000)} s`), 15_000);
  try {
    const child = spawn(process.execPath, [CLI, 'seed', '--count', String(items), '--search-markers', '--json', ...location], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    if (code !== 0) throw new Error(`feedback seed failed (${code}): ${err}`);
    const summary = JSON.parse(out) as { userPool: number };
    progress(`[${backend}] seeded in ${Math.round((Date.now() - started) / 1000)} s`);
    return summary;
  } finally {
    clearInterval(ticker);
  }
}

/** A public key for the default project, minted as an operator would. */
function mintKey(location: string[]): string {
  const made = spawnSync(process.execPath, [CLI, 'keys', 'create', '--json', ...location], { encoding: 'utf8' });
  const key = /"key":\s*"(pk_[A-Za-z0-9_-]+)"/.exec(made.stdout)?.[1];
  if (!key) throw new Error(`feedback keys create gave no key: ${made.stdout} ${made.stderr}`);
  return key;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
    probe.on('error', fail);
  });
}

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, failure: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(failure());
    await new Promise((done) => setTimeout(done, 250));
  }
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
