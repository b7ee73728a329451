import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { track } from './child-processes.js';
import type { Output } from '@feedbackd/cli/testing';

// No test may read or write the credentials of whoever runs the suite (`feedback login` stores them
// under XDG_CONFIG_HOME): every run of the CLI, in this process or spawned, gets an empty one.
process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'feedback-config-'));

/** The committed launcher of the `feedback` binary, as npm links it. */
export const BIN = fileURLToPath(new URL('../../cli/bin/feedback.js', import.meta.url));

/** How a process ended, and what it wrote. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every variable the CLI reads; removed from the environment so that a run sees only what its test gives it. */
const CLI_VARIABLES = [
  'DATABASE_URL',
  'FEEDBACK_DATA_DIR',
  'FEEDBACK_PORT',
  'FEEDBACK_HOST',
  'FEEDBACK_NO_MIGRATE',
  'FEEDBACK_LOG_LEVEL',
  'FEEDBACK_RATE_LIMIT',
  'FEEDBACK_FAILED_AUTH_LIMIT',
  'FEEDBACK_TRUST_PROXY',
  'FEEDBACK_URL',
  'FEEDBACK_API_KEY',
  'FEEDBACK_RETRIES',
  'FEEDBACK_WORKERS',
  'FEEDBACK_VOTER_SECRET',
  'FEEDBACK_CONNECT_TIMEOUT',
  'REDIS_URL',
];

/** This process's environment without the CLI's variables, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of CLI_VARIABLES) delete env[name];
  return { ...env, ...extra };
}

/** Runs a command to its end with stdout and stderr piped, in a clean environment; `input`, if any, is its stdin. */
export function spawnRun(command: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = track(
      spawn(command, args, { env: cleanEnv(env), stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], detached: true }),
    );
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `feedback ...` as a user or a script would: the real binary, stdout a pipe (and `input` on stdin). */
export function runFeedback(args: string[], env: Record<string, string> = {}, input?: string): Promise<Run> {
  return spawnRun(process.execPath, [BIN, ...args], env, input);
}

/** A `feedback serve` process started by a test. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** The exit code, once the process has ended. */
  exited: Promise<number | null>;
}

/**
 * Starts `feedback serve --port 0 ...` and resolves once it logs "listening" (a JSON line: stderr
 * is a pipe), with the URL it serves.
 */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    // Detached and tracked (child-processes.ts): ended with its workers when its test is over, even one that failed or timed out.
    const child = track(spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
    let stdout = '';
    let stderr = '';
    let pending = '';
    const exited = new Promise<number | null>((done) => child.on('close', done));
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const entry = parseLogLine(line);
        if (entry?.msg === 'listening' && typeof entry.url === 'string') {
          resolve({ child, url: entry.url, stdout: () => stdout, stderr: () => stderr, exited });
        }
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening:\n${stderr}`)));
  });
}

/** One JSON log line of the server, or undefined for anything else. */
export function parseLogLine(line: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `feedback ...` in this process through main(), with stdout a terminal (tty) or a pipe. */
export async function inProcess(args: string[], options: { tty?: boolean } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const output: Output = {
    out: (text) => (stdout += text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => (stderr += text.endsWith('\n') ? text : `${text}\n`),
    isTty: options.tty ?? false,
  };
  // Imported here, not at the top: mocha loads test files (and so their static imports) through
  // require, while the CLI imports a command's module when the command line names it; the two
  // ways would load commander and the CLI's error classes twice, and `instanceof` would fail.
  const { main } = await import('@feedbackd/cli/testing');
  const code = await main(['node', 'feedback', ...args], output);
  return { code, stdout, stderr };
}
