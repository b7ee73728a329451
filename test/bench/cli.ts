/**
 * `npm run bench:cli`: how long the `feedback` binary takes to answer, beside `node -e 0` measured
 * in the same run (this machine is shared, so only ratios are compared with the targets).
 *
 * Each command runs RUNS times (default 15, at least 10) in turn with the others, so that a burst
 * of load elsewhere touches every command alike; the table shows medians. `list --json` talks to a
 * `feedback serve` started here on a throwaway embedded database holding a few items, so that the
 * timed run reads, checks and prints real rows.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../cli/bin/feedback.js', import.meta.url));
const RUNS = Math.max(10, Number(process.env.RUNS ?? 15));
/** Items on the server before `list --json` is timed. */
const ITEMS = 5;

interface Case {
  name: string;
  args: string[];
  /** Largest accepted median, as a multiple of `node -e 0`'s. */
  target?: number;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'feedback-bench-cli-'));
  const config = mkdtempSync(join(tmpdir(), 'feedback-bench-config-'));
  process.stderr.write(`starting a server on a new embedded database (the first start takes a while)...\n`);
  const server = await startServer(dataDir);
  try {
    const env = { ...process.env, FEEDBACK_URL: server.url, FEEDBACK_API_KEY: server.key, XDG_CONFIG_HOME: config };
    await submitItems(server, ITEMS);
    const cases: Case[] = [
      { name: 'node -e 0', args: ['-e', '0'] },
      { name: 'feedback --version', args: [BIN, '--version'], target: 3 },
      { name: 'feedback --help', args: [BIN, '--help'], target: 3 },
      { name: 'feedback list --json', args: [BIN, 'list', '--json'], target: 5 },
    ];
    const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    for (let run = 0; run < RUNS; run += 1) {
      for (const c of cases) times.get(c.name)!.push(timeOnce(c.args, env));
      process.stderr.write(`\rrun ${run + 1} of ${RUNS}`);
    }
    process.stderr.write('\n');
    const base = median(times.get('node -e 0')!);
    const rows = cases.map((c) => {
      const ms = median(times.get(c.name)!);
      const ratio = ms / base;
      const verdict = c.target === undefined ? '' : ratio <= c.target ? `ok (target <= ${c.target}x)` : `MISSED (target <= ${c.target}x)`;
      return [c.name, ms.toFixed(1), `${ratio.toFixed(2)}x`, verdict];
    });
    printTable(['command', 'median ms', 'vs node -e 0', ''], rows);
    console.log(`\n${RUNS} runs each, interleaved; Node ${process.version}.`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(config, { recursive: true, force: true });
  }
}

/** `count` items submitted through the API, as a customer's backend would. */
async function submitItems(server: { url: string; key: string }, count: number): Promise<void> {
  for (let i = 1; i <= count; i += 1) {
    const response = await fetch(`${server.url}/api/v1/feedback`, {
      method: 'POST',
      headers: { 'x-api-key': server.key, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Benchmark item ${i}`, description: 'A few words, as most items have.' }),
    });
    if (response.status !== 201) throw new Error(`submitting an item answered ${response.status}: ${await response.text()}`);
  }
}

/** Wall time of one run, in milliseconds; a failing command fails the benchmark. */
function timeOnce(args: string[], env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr.toString()}`);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `feedback serve` on port 0; resolves with its address and the first key it prints. */
function startServer(dataDir: string): Promise<{ url: string; key: string; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<void>((done) => child.on('close', () => done()));
    const check = () => {
      const url = /is ready at (http:\/\/\S+)/.exec(stderr)?.[1];
      const key = /(pk_[0-9A-Za-z]+)/.exec(stdout)?.[1];
      if (url && key) resolve({ url, key, stop: async () => void (child.kill('SIGTERM'), await exited) });
    };
    child.stdout.on('data', (chunk) => ((stdout += chunk), check()));
    child.stderr.on('data', (chunk) => ((stderr += chunk), check()));
    void exited.then(() => reject(new Error(`serve exited before it was ready:\n${stderr}`)));
  });
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const line of [header, ...rows]) console.log(line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd());
}

await main();
