import pg from 'pg';

/*
 * What the benchmark scripts (run.ts, comments.ts) share: the PostgreSQL server they make their
 * databases on, a timed request, the latency quantiles, and the table they print.
 */

/** The server a benchmark makes (and drops) its own database on. */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One request's answer and how long it took. */
export interface Timed {
  status: number;
  ms: number;
  body: any;
}

export async function timedRequest(baseUrl: string, apiKey: string, method: string, path: string, body?: unknown): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(baseUrl + path, {
    method,
    headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await response.json();
  return { status: response.status, ms: performance.now() - started, body: parsed };
}

/**
 * A GET whose answer is read to its last byte and not parsed: the time the server takes to answer,
 * without the JSON parse of a client that shares this process with it (a 278 KB detail takes
 * about 1.5 ms to parse, on the same event loop as the server).
 */
export async function timedRead(baseUrl: string, apiKey: string, path: string): Promise<{ status: number; ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(baseUrl + path, { headers: { 'x-api-key': apiKey } });
  const bytes = (await response.arrayBuffer()).byteLength;
  return { status: response.status, ms: performance.now() - started, bytes };
}

/** The `q` quantile of `values` (the nearest rank at or below it), 0 for none. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** A table with its first and last columns left-aligned and the figures between right-aligned. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 || i === row.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}`);
}

/** Runs one statement on ADMIN_URL (a database's creation or drop). */
export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function log(text: string): void {
  process.stdout.write(`${text}\n`);
}
