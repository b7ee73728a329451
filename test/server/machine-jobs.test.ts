import { expect } from 'chai';
import { runPeriodically } from '@feedbackd/server/testing';
import { backendAt, backends } from '../helpers/backends.js';
import { request, startTestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** A logger that keeps what it is told. */
function keptLogger() {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, logger: { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') } };
}

/**
 * Counts the turns of a timer of `everyMs` started now. The jobs' timers of the same period were
 * started just before it, and timers of one period fire in the order they were made: after n of
 * these, each job's timer has come round n times too, however slow the machine.
 */
function turns(everyMs: number) {
  let count = 0;
  const timer = setInterval(() => (count += 1), everyMs);
  return { get count() { return count; }, stop: () => clearInterval(timer) };
}

describe('periodic jobs', () => {
  it('when a job takes longer than its period, then its runs never overlap, and stop waits for the run in flight', async () => {
    let running = 0;
    let most = 0;
    let started = 0;
    let runs = 0;
    // Each run lasts until the test lets it end, so "longer than its period" holds on any machine.
    let release = () => {};
    const { logger } = keptLogger();
    const jobs = runPeriodically([{ name: 'slow job', everyMs: 10, run: async () => {
      running += 1;
      started += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => (release = resolve));
      running -= 1;
      runs += 1;
    } }], logger, 0);
    const ticks = turns(10);
    try {
      for (let run = 1; run <= 3; run++) {
        await until(() => started === run, 10_000, `run ${run} to start`);
        // Five more turns of the job's period while this run holds: none may start another.
        const from = ticks.count;
        await until(() => ticks.count >= from + 5, 10_000, 'five turns of the period');
        expect(started, `runs started while run ${run} was going`).to.equal(run);
        if (run < 3) release();
      }
      // Stopped with the third run in flight: stop waits for it.
      let stopped = false;
      const stopping = jobs.stop().then(() => (stopped = true));
      const from = ticks.count;
      await until(() => ticks.count >= from + 3, 10_000, 'three turns of the period');
      expect(stopped, 'stop resolved before the run in flight ended').to.equal(false);
      release();
      await stopping;
      expect(running, 'a run still going after stop').to.equal(0);
      expect(most, 'runs at once').to.equal(1);
      expect(runs, 'runs').to.equal(3);
      const after = ticks.count;
      await until(() => ticks.count >= after + 5, 10_000, 'five turns of the period after stop');
      expect(started, 'runs started after stop').to.equal(3);
    } finally {
      ticks.stop();
      release();
      await jobs.stop();
    }
  });

  it('when a run fails, then it is logged as a warning and the job runs again at its next turn', async () => {
    let calls = 0;
    const { lines, logger } = keptLogger();
    const jobs = runPeriodically([{ name: 'flaky job', everyMs: 20, run: async () => {
      calls += 1;
      if (calls === 1) throw new Error('database restarting');
      return { done: calls };
    } }], logger, 0);
    try {
      await until(() => lines.some((line) => line.startsWith('debug flaky job done {"done":2')), 10_000, () => `the second run's line (lines: ${lines.join(' | ')})`);
    } finally {
      await jobs.stop();
    }
    expect(calls).to.be.at.least(2);
    expect(lines.filter((line) => line.startsWith('warn flaky job failed'))).to.have.length(1);
    expect(lines[0]).to.include('database restarting');
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
        // The sweep runs a second after the start (runPeriodically's first turn).
        await until(async () => !(await keys()).includes('old-key'), 15_000, 'the expired key to be swept');
        expect(await keys()).to.deep.equal(['new-key']);
      } finally {
        await restarted.server.close();
        await first.database.drop();
      }
    });
  });
}
