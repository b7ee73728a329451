import { expect } from 'chai';
import pg from 'pg';
import { type SqlPool } from '@feedbackd/server';
import { voteBatches, type BatchedToggle } from '@feedbackd/server/testing';

type Row = { idx: number; user_known: boolean; item_found: boolean; now_voted: boolean; new_count: number };

interface Sent {
  values: readonly unknown[];
  answer: (rows: Row[]) => void;
  fail: (error: unknown) => void;
}

/** A hot pool that records each statement and answers it only when the test says so. */
function fakePool(): { sql: SqlPool; sent: Sent[] } {
  const sent: Sent[] = [];
  const sql: SqlPool = {
    query: <R extends Record<string, unknown>>(_name: string, _text: string, values: readonly unknown[]) =>
      new Promise<R[]>((resolve, reject) => sent.push({ values, answer: (rows) => resolve(rows as unknown as R[]), fail: reject })),
    ping: async () => true,
    close: async () => {},
  };
  return { sql, sent };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const row = (idx: number, newCount: number): Row => ({ idx, user_known: true, item_found: true, now_voted: true, new_count: newCount });

/**
 * Group commit of vote toggles (server/src/domain/votes/votes.ts), against a fake pool: what
 * leaves in which statement, who gets which answer, and what a failure does.
 */
describe('Vote batches: toggles that arrive together leave in one statement', () => {
  it('when toggles arrive in one turn, then they leave as one statement, and each voter gets the row of its own place', async () => {
    const { sql, sent } = fakePool();
    const batches = voteBatches(sql, 2);
    const answers = Promise.all([
      batches.toggle({ project: 'p', item: 'i1', externalId: 'ada' }),
      batches.toggle({ project: 'p', item: 'i2', voterKey: 'anon-key' }),
      batches.toggle({ project: 'p', item: 'i1', externalId: 'nobody-yet' }),
    ]);
    await turn();
    expect(sent).to.have.length(1);
    expect(sent[0]!.values).to.deep.equal(['p', ['i1', 'i2', 'i1'], ['ada', null, 'nobody-yet'], [null, 'anon-key', null]]);
    // Rows come back in item order, not in the order the toggles arrived.
    sent[0]!.answer([row(1, 5), { idx: 3, user_known: false, item_found: false, now_voted: false, new_count: 0 }, row(2, 9)]);
    const got: BatchedToggle[] = await answers;
    expect(got).to.deep.equal([{ item_found: true, now_voted: true, new_count: 5 }, { item_found: true, now_voted: true, new_count: 9 }, 'unknown-user']);
  });

  it('when the statements in flight are at their limit, then the toggles that arrive meanwhile wait and leave together in the next one', async () => {
    const { sql, sent } = fakePool();
    const batches = voteBatches(sql, 1);
    const first = batches.toggle({ project: 'p', item: 'i1', externalId: 'a' });
    await turn();
    const later = [batches.toggle({ project: 'p', item: 'i2', externalId: 'b' }), batches.toggle({ project: 'p', item: 'i3', externalId: 'c' })];
    await turn();
    expect(sent, 'nothing more leaves while one statement runs').to.have.length(1);
    sent[0]!.answer([row(1, 1)]);
    await first;
    await turn();
    expect(sent).to.have.length(2);
    expect(sent[1]!.values[1]).to.deep.equal(['i2', 'i3']);
    sent[1]!.answer([row(1, 2), row(2, 3)]);
    expect((await Promise.all(later)).map((a) => (typeof a === 'string' ? a : a.new_count))).to.deep.equal([2, 3]);
  });

  it('when toggles of two projects wait together, then each project leaves in a statement of its own', async () => {
    const { sql, sent } = fakePool();
    const batches = voteBatches(sql, 2);
    const answers = Promise.all([batches.toggle({ project: 'p', item: 'i1', externalId: 'a' }), batches.toggle({ project: 'q', item: 'i2', externalId: 'b' })]);
    await turn();
    expect(sent.map((s) => s.values[0])).to.deep.equal(['p', 'q']);
    for (const s of sent) s.answer([row(1, 7)]);
    expect(await answers).to.have.length(2);
  });

  it('when one project has a backlog bigger than a statement, then another project\'s toggle does not wait behind all of it', async () => {
    const { sql, sent } = fakePool();
    const batches = voteBatches(sql, 1);
    const first = batches.toggle({ project: 'p', item: 'i0', externalId: 'a' });
    await turn();
    const backlog = Array.from({ length: 70 }, (_, i) => batches.toggle({ project: 'p', item: `i${i + 1}`, externalId: 'a' }));
    const other = batches.toggle({ project: 'q', item: 'j', externalId: 'b' });
    await turn();
    const answerAll = (s: Sent) => s.answer((s.values[1] as string[]).map((_, i) => row(i + 1, i)));
    for (let i = 0; i < 4; i++) {
      answerAll(sent[i]!);
      await turn();
      await turn();
    }
    expect(sent.map((s) => `${s.values[0] as string}:${(s.values[1] as string[]).length}`)).to.deep.equal(['p:1', 'p:64', 'q:1', 'p:6']);
    await Promise.all([first, ...backlog, other]);
  });

  it('when PostgreSQL refuses the batch statement, then every toggle of it is answered `alone`, to run by itself', async () => {
    const { sql, sent } = fakePool();
    const batches = voteBatches(sql, 2);
    const answers = Promise.all([batches.toggle({ project: 'p', item: 'i1', externalId: 'a' }), batches.toggle({ project: 'p', item: 'gone', externalId: 'b' })]);
    await turn();
    const refused = new pg.DatabaseError('insert or update on table "votes" violates foreign key constraint', 0, 'error');
    refused.severity = 'ERROR';
    refused.code = '23503';
    sent[0]!.fail(refused);
    expect(await answers).to.deep.equal(['alone', 'alone']);
  });

  it('when the connection is lost under the batch statement, then every toggle of it fails with that error and none is run again (it may have committed)', async () => {
    const { sql, sent } = fakePool();
    const batches = voteBatches(sql, 2);
    const answers = [batches.toggle({ project: 'p', item: 'i1', externalId: 'a' }), batches.toggle({ project: 'p', item: 'i2', externalId: 'b' })];
    await turn();
    sent[0]!.fail(new Error('Connection terminated unexpectedly'));
    for (const answer of answers) {
      const outcome = await answer.then(
        () => 'answered',
        (error: Error) => error.message,
      );
      expect(outcome).to.equal('Connection terminated unexpectedly');
    }
    await turn();
    expect(sent, 'no statement after the failure').to.have.length(1);
  });
});
