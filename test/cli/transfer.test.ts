import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { backends, type FreshDatabase } from '../helpers/backends.js';
import { runFeedback as feedback, startServe, type Run } from '../helpers/cli-process.js';

/** A fixed export time (the reproducible-build convention), so that two dumps of the same data are the same bytes. */
const FIXED_TIME = { SOURCE_DATE_EPOCH: '1780000000' };
const EXPORT_SUMMARY = /^exported every project \(1 project, \d+ users, 30 items, \d+ votes, \d+ comments, 0 comment revisions, 0 status changes, 0 changelog entries, 0 changelog links, [1-9]\d* subscriptions, 0 held posts, 0 posting blocks\) to (stdout|\S+) in [\d.]+ s: \d+ records\/s\n$/;
const IMPORT_SUMMARY = /^imported 1 project, \d+ users, 30 items, \d+ votes, \d+ comments, 0 comment revisions, 0 status changes, 0 changelog entries, 0 changelog links, [1-9]\d* subscriptions, 0 held posts, 0 posting blocks into default in [\d.]+ s: \d+ records\/s; (\d+) rows added, (\d+) already there\n$/;

/** The flags that name a database of this backend. */
const flagsOf = (database: FreshDatabase) => (database.location.databaseUrl ? ['--database-url', database.location.databaseUrl] : ['--data-dir', database.location.dataDir]);

for (const backend of backends()) {
  describe(`feedback export and import (${backend.name})`, () => {
    let dir: string;
    let source: FreshDatabase;
    let target: FreshDatabase;
    let exported: Run;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'feedback-transfer-'));
      source = await backend.createMigrated();
      target = await backend.create();
      expect((await feedback(['seed', '--count', '30', '--seed', '4', ...flagsOf(source)])).code).to.equal(0);
      exported = await feedback(['export', ...flagsOf(source)], FIXED_TIME);
    });
    after(async () => {
      await source?.drop();
      await target?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('when a seeded database is exported, imported from stdin into an empty one and exported again, then the dumps are the same bytes; a second import adds nothing', async () => {
      expect(exported.code, exported.stderr).to.equal(0);
      expect(exported.stderr, 'one summary line on stderr, no progress bar when stderr is not a terminal').to.match(EXPORT_SUMMARY);
      const dump = exported.stdout;
      expect(JSON.parse(dump.slice(0, dump.indexOf('\n')))).to.include({ type: 'header', version: 6, exportedAt: '2026-05-28T20:26:40.000Z', project: null });

      const imported = await feedback(['import', '-', ...flagsOf(target)], {}, dump);
      expect(imported.code, imported.stderr).to.equal(0);
      const [, added, there] = IMPORT_SUMMARY.exec(imported.stdout) ?? [];
      expect(Number(added), imported.stdout).to.equal(dump.trimEnd().split('\n').length - 1);
      expect(Number(there)).to.equal(0);

      const file = join(dir, 'again.jsonl');
      const again = await feedback(['export', '--output', file, ...flagsOf(target)], FIXED_TIME);
      expect(again.code, again.stderr).to.equal(0);
      expect(again.stdout, 'with --output the summary goes to stdout').to.match(EXPORT_SUMMARY);
      expect(readFileSync(file, 'utf8') === dump, 'the second dump differs from the first').to.equal(true);

      const twice = await feedback(['import', file, '--json', ...flagsOf(target)]);
      expect(twice.code, twice.stderr).to.equal(0);
      const summary = JSON.parse(twice.stdout) as { inserted: Record<string, number>; projects: { voterSalt: string }[] };
      expect(Object.values(summary.inserted)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
      expect(summary.projects.map((p) => p.voterSalt)).to.deep.equal(['same']);
    });

    it('when a line of the dump is malformed, then import exits 2 naming the file and line, and the database is as it was', async () => {
      const dump = exported.stdout;
      const lines = dump.split('\n');
      lines[5] = lines[5]!.replace('"createdAt"', '"created"');
      const bad = join(dir, 'bad.jsonl');
      writeFileSync(bad, lines.join('\n'));
      const run = await feedback(['import', bad, ...flagsOf(source)]);
      expect(run.code, run.stderr).to.equal(2);
      expect(run.stderr).to.include(`feedback: ${bad}: line 6: data`).and.include('nothing was imported');
      expect((await feedback(['export', ...flagsOf(source)], FIXED_TIME)).stdout === dump).to.equal(true);

      const notADump = join(dir, 'not-a-dump.txt');
      writeFileSync(notADump, 'hello\n');
      const wrong = await feedback(['import', notADump, '--json', ...flagsOf(source)]);
      expect(wrong.code).to.equal(2);
      expect(JSON.parse(wrong.stderr)).to.deep.include({ exitCode: 2 });
    });

    it('when the project or the database does not exist, then export exits 3 and creates nothing; a missing file is 3 before any database is made', async () => {
      const unknown = await feedback(['export', '--project', 'nope', '--output', join(dir, 'nope.jsonl'), ...flagsOf(source)]);
      expect(unknown.code).to.equal(3);
      expect(unknown.stderr).to.include('no project has the slug "nope"');
      expect(existsSync(join(dir, 'nope.jsonl')), 'no dump file').to.equal(false);

      if (backend.name === 'embedded') {
        const missing = join(dir, 'missing');
        const run = await feedback(['export', '--data-dir', missing]);
        expect(run.code).to.equal(3);
        expect(existsSync(missing), 'export created the directory').to.equal(false);
        const noFile = await feedback(['import', join(dir, 'no-such.jsonl'), '--data-dir', missing]);
        expect(noFile.code).to.equal(3);
        expect(noFile.stderr).to.include('no such file');
        expect(existsSync(missing), 'import of a missing file created the directory').to.equal(false);
      } else {
        const url = new URL(source.location.databaseUrl!);
        const name = `feedback_absent_${process.pid}_${Date.now()}`;
        url.pathname = `/${name}`;
        const run = await feedback(['export', '--database-url', url.toString()]);
        expect(run.code, run.stderr).to.equal(3);
        url.pathname = '/postgres';
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        try {
          expect((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount).to.equal(0);
        } finally {
          await client.end();
        }
      }
    });

    if (backend.name === 'embedded') {
      it('when serve runs on the data directory, then export goes through the server and writes the same dump', async () => {
        const server = await startServe(['--data-dir', source.location.dataDir, '--rate-limit', 'off']);
        try {
          const run = await feedback(['export', '--data-dir', source.location.dataDir], FIXED_TIME);
          expect(run.code, run.stderr).to.equal(0);
          expect(run.stdout === exported.stdout, 'the dump differs from the one taken without the server').to.equal(true);
          expect((await fetch(`${server.url}/healthz`)).status, 'the server answers after the export').to.equal(200);
        } finally {
          server.child.kill('SIGTERM');
          await server.exited;
        }
      });
    }
  });
}
