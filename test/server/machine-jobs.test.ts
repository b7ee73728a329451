import { expect } from 'chai';
import { runPeriodically } from '../../server/src/jobs/periodic.js';
import { backendAt, backends } from '../helpers/backends.js';
import { request, startTestServer } from '../helpers/test-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger that keeps what it is told. */
function keptLogger() {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, logger: { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') } };
}

describe('periodic jobs', () => {
  it('when a job takes longer than its period, then its runs never overlap, and stop waits for the run in flight', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const { logger } = keptLogger();
    const jobs = runPeriodically([{ name: 'slow job', everyMs: 10, run: async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(35);
      running -= 1;
      runs += 1;
    } }], logger, 0);
    await sleep(200);
    await jobs.stop();
    expect(most, 'runs at once').to.equal(1);
    expect(runs, 'runs').to.be.within(2, 8);
    expect(running, 'a run still going after stop').to.equal(0);
    const after = runs;
    await sleep(50);
    expect(runs, 'runs after stop').to.equal(after);
  });

  it('when a run fails, then it is logged as a warning and the job runs again at its next turn', async () => {
    let calls = 0;
    const { lines, logger } = keptLogger();
    const jobs = runPeriodically([{ name: 'flaky job', everyMs: 20, run: async () => {
      calls += 1;
      if (calls === 1) throw new Error('database restarting');
      return { done: calls };
    } }], logger, 0);
    await sleep(120);
    await jobs.stop();
    expect(calls).to.be.at.least(2);
    expect(lines.filter((line) => line.startsWith('warn flaky job failed'))).to.have.length(1);
    expect(lines[0]).to.include('database restarting');
    expect(lines.some((line) => line.startsWith('debug flaky job done {"done":2'))).to.equal(true);
  });
});

for (const backend of backends()) {
  describe(`the machine's jobs in a serving process (${backend.name})`, () => {
    it('when a server starts on a database holding expired idempotency keys, then they are deleted without any request, and fresh ones stay', async () => {
      const first = await startTestServer(backend);
      const created = await request(first, 'POST', '/api/v1/feedback', { body: { title: 'Swept later' }, headers: { 'Idempotency-Key': 'old-key' } });
      expect(created.status).to.equal(201);
      await request(first, 'POST', '/api/v1/feedback', { body: { title: 'Kept' }, headers: { 'Idempotency-Key': 'new-key' } });
      await first.server.orm.em.fork().execute("update idempotency_keys set created_at = now() - interval '25 hours' where key = 'old-key'");
      await first.server.close();

      const same = backendAt(backend.name, first.database.location);
      const restarted = await startTestServer(same, { existingKey: first.apiKey });
      try {
        const keys = async () =>
          (await restarted.server.orm.em.fork().execute<{ key: string }[]>('select key from idempotency_keys order by key')).map((row) => row.key);
        let left = await keys();
        for (let i = 0; i < 60 && left.includes('old-key'); i++) {
          await sleep(100);
          left = await keys();
        }
        expect(left).to.deep.equal(['new-key']);
      } finally {
        await restarted.server.close();
        await first.database.drop();
      }
    });
  });
}
