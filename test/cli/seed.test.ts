import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { renderProgress } from '@feedbackd/cli/testing';
import { backends, copyEmbeddedTemplate } from '../helpers/backends.js';
import { inProcess, runFeedback as feedback, startServe } from '../helpers/cli-process.js';
import { scratchRoot } from '../helpers/scratch.js';

const SUMMARY_LINE = /^seeded (\d+) items, (\d+) votes, (\d+) comments and (\d+) users into project default \(seed 3\) in [\d.]+ s: \d+ rows\/s/;

async function list(url: string, key: string, query: string): Promise<{ status: number; total: number }> {
  const res = await fetch(`${url}/api/v1/feedback?${query}`, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as { total: number };
  return { status: res.status, total: body.total };
}

describe('feedback seed', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(scratchRoot(), 'feedback-seed-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when seed runs piped, then it prints one summary line; while serve runs it seeds through the server, which keeps answering, and --json tells what it added', async () => {
    // Nothing here is about the migrations: a migrated copy spares the first child seconds of them under load.
    copyEmbeddedTemplate(dataDir);
    // Spawned: whether stderr is a terminal is the real process's.
    const piped = await feedback(['seed', '--count', '150', '--seed', '3', '--search-markers', '--data-dir', dataDir]);
    expect(piped.code, piped.stderr).to.equal(0);
    expect(piped.stdout.split('\n').filter(Boolean)).to.have.length(1);
    expect(piped.stdout).to.match(SUMMARY_LINE);
    expect(piped.stderr, 'no progress bar when stderr is not a terminal').not.to.match(/\r|\[#/);

    const server = await startServe(['--data-dir', dataDir, '--rate-limit', 'off']);
    try {
      const created = await inProcess(['keys', 'create', '--json', '--data-dir', dataDir]);
      expect(created.code, created.stderr).to.equal(0);
      const key = (JSON.parse(created.stdout) as { key: string }).key;
      expect((await list(server.url, key, 'limit=1')).total).to.equal(150);

      // The same seed with a larger count adds the items it lacks; requests are served meanwhile.
      let seeding = true;
      const statuses: number[] = [];
      const requests = (async () => {
        while (seeding) {
          statuses.push((await list(server.url, key, 'limit=5&sortBy=votes')).status);
          // Pacing of the requests while the seed runs, not a wait for a condition.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const during = await inProcess(['seed', '--count', '300', '--seed', '3', '--search-markers', '--json', '--data-dir', dataDir]);
      seeding = false;
      await requests;
      expect(during.code, during.stderr).to.equal(0);
      const summary = JSON.parse(during.stdout) as Record<string, unknown>;
      expect(summary).to.include({ project: 'default', seed: 3, count: 300, items: 150, skippedItems: 150 });
      expect(summary.markers).to.deep.equal([
        { word: 'quokka', items: 30 },
        { word: 'axolotl', items: 3 },
        { word: 'narwhal', items: 1 },
      ]);
      expect(summary.rowsPerSecond).to.be.a('number');
      expect(statuses.length, 'requests were answered while seeding').to.be.greaterThan(0);
      expect(statuses.filter((status) => status !== 200)).to.deep.equal([]);

      expect((await list(server.url, key, 'limit=1')).total).to.equal(300);
      expect((await list(server.url, key, 'search=quokka')).total).to.equal(30);
      server.child.kill('SIGTERM');
      expect(await server.exited).to.equal(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('when a flag is out of range, then it exits 2 before opening the database', async () => {
    for (const args of [['--count', '0'], ['--count', '1e3'], ['--seed', '-1'], ['--project', 'no spaces']]) {
      const run = await inProcess(['seed', ...args, '--data-dir', dataDir]);
      expect(run.code, args.join(' ')).to.equal(2);
      expect(run.stderr).to.match(/^feedback: --(count|seed|project) must be/);
    }
    const help = await inProcess(['seed', '--help']);
    expect(help.stdout).to.include('--count').and.include('--seed').and.include('--project').and.include('--search-markers').and.include('FEEDBACK_DATA_DIR');
  });

  it('when progress is drawn, then the bar fits the terminal and shows the share done', () => {
    expect(renderProgress(50, 200, '50/200 items', 80, 8)).to.equal('[##------]  25%  50/200 items');
    expect(renderProgress(3, 3, 'done', 80, 4)).to.equal('[####] 100%  done');
    expect(renderProgress(1, 2, 'x'.repeat(100), 40)).to.have.length(39);
  });

  const postgres = backends().find((backend) => backend.name === 'postgres');
  if (postgres) {
    it('when --database-url points at PostgreSQL, then seed fills it, without search markers unless asked (issue 38)', async () => {
      const fresh = await postgres.create();
      try {
        const run = await feedback(['seed', '--count', '200', '--seed', '3', '--database-url', fresh.location.databaseUrl!]);
        expect(run.code, run.stderr).to.equal(0);
        const [, items, votes] = SUMMARY_LINE.exec(run.stdout)!;
        expect(items).to.equal('200');
        const client = new pg.Client({ connectionString: fresh.location.databaseUrl });
        await client.connect();
        try {
          const { rows } = await client.query<{ items: number; votes: number; titles: number; marked: number }>(
            `select (select count(*)::int from feedback) as items, (select count(*)::int from votes) as votes,
                    (select count(distinct title)::int from feedback) as titles, (select count(*)::int from feedback where search_text ~ 'quokka|axolotl|narwhal') as marked`,
          );
          expect(rows[0]).to.deep.equal({ items: 200, votes: Number(votes), titles: 200, marked: 0 });
        } finally {
          await client.end();
        }
      } finally {
        await fresh.drop();
      }
    });
  }
});
