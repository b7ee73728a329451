import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { backendAt, type Backend } from './backends.js';
import { freePort } from './redis-process.js';

const run = promisify(execFile);

/** A PostgreSQL server of the test's own (initdb into a temporary directory, its own port), to stop and start at will. */
export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  /**
   * Stops the server. `fast` (the default): connections are cut, as in an outage or a restart;
   * `immediate`: it stops as if it crashed, mid-commit for some, and recovers from its WAL on start.
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its files. */
  destroy(): Promise<void>;
}

/** The directory of PostgreSQL's server programs (Debian puts them under /usr/lib/postgresql/N/bin), or undefined. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const newest = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(root, newest, 'bin') : undefined;
}

/**
 * initdb refuses to run as root: as root, the server's programs run as the `postgres` user, which
 * the directory is handed to.
 */
async function asServerUser(program: string, args: string[]): Promise<void> {
  if (process.getuid?.() === 0) await run('runuser', ['-u', 'postgres', '--', program, ...args]);
  else await run(program, args);
}

export async function startThrowawayPostgres(bin: string): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-pg-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  // Durability is not under test here: fsync off makes initdb and the server quick.
  await asServerUser(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = (mode: 'fast' | 'immediate' = 'fast') => asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
  await start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop(mode) {
      await stop(mode);
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The throwaway server as a test backend: its one database, the server's own, never dropped. */
export function throwawayBackend(postgres: ThrowawayPostgres): Backend {
  return backendAt('postgres', { databaseUrl: postgres.url, dataDir: '' });
}
