import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { copyEmbeddedTemplate } from '../helpers/backends.js';
import { inProcess, runFeedback as feedback } from '../helpers/cli-process.js';
import { scratchRoot } from '../helpers/scratch.js';

/** The commands that read or change a database but must never make one (issue: "by accident"). */
const OPERATOR_COMMANDS = [
  ['keys', 'list'],
  ['keys', 'create'],
  ['keys', 'revoke', '00000000-0000-0000-0000-000000000000'],
  ['migrate', 'status'],
  ['migrate', 'down'],
  ['export'],
];

describe('operator commands never create a database by accident', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(scratchRoot(), 'feedback-nodata-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('when the data directory does not exist, then each command exits 3, names the path and what to run, and creates nothing', async () => {
    const missing = join(root, 'does-not-exist');
    for (const [i, command] of OPERATOR_COMMANDS.entries()) {
      // The first through the binary, the others through main() in this process: the same check, without a process each.
      const run = await (i === 0 ? feedback : inProcess)([...command, '--data-dir', missing]);
      expect(run.code, `${command.join(' ')}: ${run.stderr}`).to.equal(3);
      expect(run.stderr).to.include(`feedback: no feedback database in ${missing}`).and.include('feedback migrate');
      expect(existsSync(missing), `${command.join(' ')} created the directory`).to.equal(false);
    }
  });

  it('when the data directory exists but holds no database, then keys exits 3 and leaves it empty', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const run = await feedback(['keys', 'create', '--json', '--data-dir', empty]);
    expect(run.code).to.equal(3);
    expect(JSON.parse(run.stderr)).to.deep.include({ exitCode: 3 });
    expect(readdirSync(empty)).to.deep.equal([]);
  });

  it('when FEEDBACK_DATA_DIR names a migrated directory, then keys use it from any working directory without --data-dir', async () => {
    const dataDir = join(root, 'data');
    // What `feedback migrate` makes, copied: the subject here is the variable, not the migration.
    copyEmbeddedTemplate(dataDir);
    const created = await feedback(['keys', 'create', '--json'], { FEEDBACK_DATA_DIR: dataDir });
    expect(created.code, created.stderr).to.equal(0);
    const listed = await feedback(['keys', 'list', '--json'], { FEEDBACK_DATA_DIR: dataDir });
    expect((JSON.parse(listed.stdout) as unknown[]).length).to.equal(1);
  });

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const withAdmin = async <T>(action: (client: pg.Client) => Promise<T>, database?: string): Promise<T> => {
      const url = new URL(adminUrl);
      if (database) url.pathname = `/${database}`;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return await action(client);
      } finally {
        await client.end();
      }
    };
    const urlOf = (database: string) => Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();

    it('when --database-url names a database that does not exist, then keys exits 3 and PostgreSQL still has no such database', async () => {
      const name = `feedback_absent_${process.pid}_${Date.now()}`;
      const run = await feedback(['keys', 'list', '--database-url', urlOf(name)]);
      expect(run.code, run.stderr).to.equal(3);
      expect(run.stderr).to.include(`database "${name}" does not exist`).and.include('feedback migrate');
      const found = await withAdmin((client) => client.query('select 1 from pg_database where datname = $1', [name]));
      expect(found.rowCount).to.equal(0);
    });

    it('when --database-url names an empty database, then keys exits 3 and creates no table', async () => {
      const name = `feedback_empty_${process.pid}_${Date.now()}`;
      await withAdmin((client) => client.query(`create database "${name}"`));
      try {
        const run = await feedback(['keys', 'create', '--database-url', urlOf(name)]);
        expect(run.code, run.stderr).to.equal(3);
        expect(run.stderr).to.match(/is not migrated \(\d+ migrations pending\); run `feedback migrate --database-url/);
        const tables = await withAdmin((client) => client.query(`select tablename from pg_tables where schemaname = 'public'`), name);
        expect(tables.rows).to.deep.equal([]);
      } finally {
        await withAdmin((client) => client.query(`drop database if exists "${name}" with (force)`));
      }
    });
  }
});
