import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { backends, type FreshDatabase } from '../helpers/backends.js';
import { BIN, inProcess, runFeedback as feedback, spawnRun, startServe, type Run, type ServeProcess } from '../helpers/cli-process.js';

/**
 * Issue 24: `feedback export` into a slow reader, or into `feedback import -` on the same
 * database, while `feedback serve` runs. On the embedded database an export used to hold the one
 * session for as long as its reader took (503s from /healthz), and an import fed by it waited for
 * that session forever while the export waited for the import to read.
 */

/** Generous: a request here waits for an export's snapshot or an import's transaction, measured in tenths of a second. */
const ANSWER_BOUND_MS = 5_000;
/** How long the slow reader leaves the dump in the pipe before it reads. */
const READER_PAUSE_S = 3;
const ITEMS = 200;
/** Rows per page of the export: the seeded data spans several pages of every type. */
const PAGE_SIZE = '100';

interface Probe {
  path: string;
  status: number;
  ms: number;
}

/** Asks /healthz and a list (with a key) in turn until stopped, and records every answer. */
function probeServer(url: string, key: string): { stop(): Promise<Probe[]> } {
  const probes: Probe[] = [];
  let running = true;
  const targets: [string, Record<string, string>][] = [
    ['/healthz', {}],
    ['/api/v1/feedback?limit=5', { 'x-api-key': key }],
  ];
  const loop = (async () => {
    while (running) {
      for (const [path, headers] of targets) {
        const started = performance.now();
        let status = 0;
        try {
          const response = await fetch(`${url}${path}`, { headers, signal: AbortSignal.timeout(60_000) });
          await response.arrayBuffer();
          status = response.status;
        } catch {
          // status 0: no answer at all.
        }
        probes.push({ path, status, ms: Math.round(performance.now() - started) });
      }
      // Pacing of the probes while the export runs, not a wait for a condition.
      await sleep(100);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return probes;
    },
  };
}

/** Every probe answered 200 within the bound, and there were enough of them to mean something. */
function expectAnsweredThroughout(probes: Probe[]): void {
  const failed = probes.filter((probe) => probe.status !== 200 || probe.ms > ANSWER_BOUND_MS);
  expect(failed, `answers that were not a 200 within ${ANSWER_BOUND_MS} ms`).to.deep.equal([]);
  for (const path of ['/healthz', '/api/v1/feedback?limit=5']) {
    expect(probes.filter((probe) => probe.path === path).length, `probes of ${path}`).to.be.at.least(5);
  }
}

/** Runs a bash pipeline with `$NODE` and `$BIN` for the CLI and `$@` for the database flags; prints PIPESTATUS last on stderr. */
function pipeline(script: string, flags: string[]): Promise<Run> {
  return spawnRun('bash', ['-c', `${script}; echo "status \${PIPESTATUS[*]}" >&2`, 'pipeline', ...flags], {
    NODE: process.execPath,
    BIN,
    SOURCE_DATE_EPOCH: '1780000000',
  });
}

/** The exit codes of a pipeline's commands, from its last line on stderr. */
function statuses(run: Run): number[] {
  return (/status ([\d ]+)\n$/.exec(run.stderr)?.[1] ?? '').split(' ').map(Number);
}

const flagsOf = (database: FreshDatabase) => (database.location.databaseUrl ? ['--database-url', database.location.databaseUrl] : ['--data-dir', database.location.dataDir]);

for (const backend of backends()) {
  describe(`feedback export and import while the server runs (${backend.name})`, function () {
    this.timeout(120_000);
    let database: FreshDatabase;
    let flags: string[];
    let server: ServeProcess;
    let key: string;

    before(async () => {
      database = await backend.createMigrated();
      flags = flagsOf(database);
      // 200 items: about 2,300 records, 600 KB, more than a pipe and a reader's buffers hold (an
      // import buffers about 1,000 lines), so a reader that pauses really holds the export back.
      // The seed and the key are setup, not the subject: in this process, not two more children that open the database.
      const seeded = await inProcess(['seed', '--count', String(ITEMS), '--seed', '24', ...flags]);
      expect(seeded.code, seeded.stderr).to.equal(0);
      server = await startServe([...flags, '--rate-limit', 'off']);
      const created = await inProcess(['keys', 'create', '--json', ...flags]);
      expect(created.code, created.stderr).to.equal(0);
      key = (JSON.parse(created.stdout) as { key: string }).key;
    });

    after(async () => {
      if (server) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      await database?.drop();
    });

    it('when an export is piped into a reader that pauses, then the server answers every request within the bound, and the export finishes once the reader reads', async () => {
      const probe = probeServer(server.url, key);
      // The reader takes the header, then pauses: the export has begun writing by then, so the
      // pause holds it back, however long the export took to start.
      const run = await pipeline(`"$NODE" "$BIN" export --page-size ${PAGE_SIZE} "$@" | { IFS= read -r header; sleep ${READER_PAUSE_S}; wc -c; }`, flags);
      const probes = await probe.stop();

      expect(statuses(run), run.stderr).to.deep.equal([0, 0]);
      expect(Number(run.stdout.trim()), 'bytes after the header').to.be.greaterThan(400_000);
      // The export ends when its last chunk is taken: after the pause, or the reader held nothing back.
      const seconds = Number(/ in ([\d.]+) s: /.exec(run.stderr)?.[1]);
      expect(seconds, 'the export waited for its reader').to.be.at.least(READER_PAUSE_S - 1);
      expectAnsweredThroughout(probes);
    });

    it('when an export is piped into an import of the same database, then both finish, the import reads every record the export announced, and the server answers throughout', async () => {
      const probe = probeServer(server.url, key);
      const run = await pipeline(`"$NODE" "$BIN" export --page-size ${PAGE_SIZE} --json "$@" | "$NODE" "$BIN" import - --json "$@"`, flags);
      const probes = await probe.stop();

      expect(statuses(run), run.stderr).to.deep.equal([0, 0]);
      const exported = JSON.parse(run.stderr.slice(0, run.stderr.lastIndexOf('status'))) as { counts: Record<string, number>; records: number };
      const imported = JSON.parse(run.stdout) as { records: Record<string, number>; inserted: Record<string, number> };
      expect(exported.counts.item).to.equal(ITEMS);
      expect(exported.records, 'several pages of rows').to.be.greaterThan(5 * Number(PAGE_SIZE));
      expect(imported.records).to.deep.equal(exported.counts);
      // The same database: every row is there already, identical.
      expect(Object.values(imported.inserted)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
      expectAnsweredThroughout(probes);
    });

    if (backend.name === 'embedded') {
      it('when another connection holds the embedded database longer than a command waits, then the command says so in one line naming the database and exits 1', async () => {
        // An open transaction holds the one session: no other connection opens until it ends.
        const holder = new pg.Client({ host: database.location.dataDir, port: 5432, user: 'postgres', database: 'postgres' });
        await holder.connect();
        await holder.query('begin');
        let run: Run;
        try {
          // The wait a script that would rather fail fast sets (30 s by default).
          run = await feedback(['export', ...flags], { FEEDBACK_CONNECT_TIMEOUT: '2' });
        } finally {
          await holder.query('rollback');
          await holder.end();
        }
        expect(run.code, run.stderr).to.equal(1);
        expect(run.stdout).to.equal('');
        expect(run.stderr).to.match(
          /^feedback: could not get a connection to the database \(embedded PostgreSQL in \S+, through the server \(pid \d+\) that owns it\) within 2 s: [^\n]+\n$/,
        );
        expect(run.stderr).not.to.match(/knex|transacting/i);
      });

      it('when FEEDBACK_CONNECT_TIMEOUT is not a whole number of seconds from 1 to 3600, then a database command says so and exits 2 without touching the database', async () => {
        for (const value of ['0', '1.5', 'soon', '3601']) {
          const run = await feedback(['export', ...flags], { FEEDBACK_CONNECT_TIMEOUT: value });
          expect(run.code, run.stderr).to.equal(2);
          expect(run.stdout).to.equal('');
          expect(run.stderr).to.equal(`feedback: FEEDBACK_CONNECT_TIMEOUT must be a whole number of seconds from 1 to 3600, not "${value}"\n`);
        }
      });
    }
  });
}
