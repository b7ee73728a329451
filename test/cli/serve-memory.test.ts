import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startServe, type ServeProcess } from '../helpers/cli-process.js';
import { endGroup } from '../helpers/child-processes.js';

/*
 * The sizes `feedback serve` runs with (docs/operations.md, "Memory"): the heap the launcher asks
 * V8 for, and the embedded database's buffer pool. Read from the running process (/proc, Linux).
 */

/** The command line a process runs now, as its arguments. */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

describe('feedback serve: the sizes of its memory', function () {
  this.timeout(120_000);
  let dataDir: string;
  let server: ServeProcess | undefined;

  before(function () {
    if (process.platform !== 'linux') this.skip();
    // One data directory for both: only the first start creates the database (the slow part).
    dataDir = mkdtempSync(join(tmpdir(), 'feedback-serve-memory-'));
  });

  afterEach(async () => {
    if (server) await endGroup(server.child);
    server = undefined;
  });

  after(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('when feedback serve starts, then the same process runs with a 16 MB young generation and at most 512 MB of old generation, and PGlite with 32 MB of buffers', async () => {
    server = await startServe(['--data-dir', dataDir]);
    const args = commandLine(server.child.pid!);
    // Started again in place (execve): the pid the caller holds is the server's.
    expect(args).to.include.members(['--max-semi-space-size=16', '--max-old-space-size=512']);
    expect(args.slice(args.indexOf('serve'))).to.include('--data-dir');
    const client = new pg.Client({ host: dataDir, port: 5432, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      const { rows } = await client.query<{ shared_buffers: string }>('show shared_buffers');
      expect(rows[0]!.shared_buffers).to.equal('32MB');
    } finally {
      await client.end();
    }
  });

  it('when NODE_OPTIONS sets a size, then the launcher keeps it and adds only the other', async () => {
    server = await startServe(['--data-dir', dataDir], { NODE_OPTIONS: '--max-old-space-size=300' });
    const args = commandLine(server.child.pid!);
    expect(args).to.include('--max-semi-space-size=16');
    expect(args.some((arg) => arg.startsWith('--max-old-space-size'))).to.equal(false);
  });
});
