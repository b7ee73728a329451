import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { type SqlPool } from '@feedbackd/server';
import { submitBatches, type Submission } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { expectListTotalsExact } from '../helpers/invariants.js';
import { request, withServer } from '../helpers/test-server.js';

interface Sent {
  name: string;
  values: readonly unknown[];
  answer: (rows: Record<string, unknown>[]) => void;
  fail: (error: unknown) => void;
}

/** A hot pool that records each statement and answers it only when the test says so. */
function fakePool(): { sql: SqlPool; sent: Sent[] } {
  const sent: Sent[] = [];
  const sql: SqlPool = {
    query: <R extends Record<string, unknown>>(name: string, _text: string, values: readonly unknown[]) =>
      new Promise<R[]>((resolve, reject) => sent.push({ name, values, answer: (rows) => resolve(rows as R[]), fail: reject })),
    ping: async () => true,
    close: async () => {},
  };
  return { sql, sent };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const item = { project: 'p', description: null, type: 'idea', metadata: null };
const byUser = (title: string, externalId: string): Submission => ({ ...item, title, externalId, profile: '{}' });
const anonymous = (title: string): Submission => ({ ...item, title, voterKey: `key-${title}` });

function refusal(): pg.DatabaseError {
  const refused = new pg.DatabaseError('insert or update on table "feedback" violates foreign key constraint', 0, 'error');
  refused.severity = 'ERROR';
  refused.code = '23503';
  return refused;
}

/**
 * Group commit of submissions (server/src/domain/feedback/submissions.ts), against a fake pool: which
 * statement carries what, who gets which answer, and what a failure does.
 */
describe('Submit batches: submissions that arrive together leave in one statement', () => {
  it('when one submission arrives alone, then it leaves as the single statement of its kind', async () => {
    const { sql, sent } = fakePool();
    const batches = submitBatches(sql, 2);
    const answer = batches.submit(byUser('Alone', 'ada'));
    await turn();
    expect(sent.map((s) => s.name)).to.deep.equal(['submit_identified']);
    expect(sent[0]!.values).to.deep.equal(['p', 'Alone', null, 'idea', null, 'ada', '{}']);
    sent[0]!.answer([{ body: '{"id":"x"}' }]);
    expect(await answer).to.equal('{"id":"x"}');
  });

  it('when submissions arrive in one turn, then they leave as one batch statement, and each gets the row of its own place; one with no row is answered `alone`', async () => {
    const { sql, sent } = fakePool();
    const batches = submitBatches(sql, 2);
    const answers = Promise.all([batches.submit(byUser('One', 'ada')), batches.submit(anonymous('Two')), batches.submit(byUser('Three', 'nobody-yet'))]);
    await turn();
    expect(sent.map((s) => s.name)).to.deep.equal(['submit_batch']);
    expect(sent[0]!.values).to.deep.equal([
      'p',
      ['One', 'Two', 'Three'],
      [null, null, null],
      ['idea', 'idea', 'idea'],
      [null, null, null],
      ['ada', null, 'nobody-yet'],
      ['{}', null, '{}'],
      [null, 'key-Two', null],
    ]);
    sent[0]!.answer([{ idx: 2, body: 'two' }, { idx: 1, body: 'one' }]);
    expect(await answers).to.deep.equal(['one', 'two', 'alone']);
  });

  it('when PostgreSQL refuses a batch of several, then each submission is answered `alone`, to run by itself', async () => {
    const { sql, sent } = fakePool();
    const batches = submitBatches(sql, 2);
    const answers = Promise.all([batches.submit(anonymous('A')), batches.submit(anonymous('B'))]);
    await turn();
    sent[0]!.fail(refusal());
    expect(await answers).to.deep.equal(['alone', 'alone']);
  });

  it('when PostgreSQL refuses a submission that left alone, then it fails with its own error and is not run again', async () => {
    const { sql, sent } = fakePool();
    const batches = submitBatches(sql, 2);
    const answer = batches.submit(anonymous('A')).then(
      () => 'answered',
      (error: pg.DatabaseError) => error.code,
    );
    await turn();
    sent[0]!.fail(refusal());
    expect(await answer).to.equal('23503');
    await turn();
    expect(sent).to.have.length(1);
  });

  it('when the statements in flight are at their limit, then the submissions that arrive meanwhile wait and leave together', async () => {
    const { sql, sent } = fakePool();
    const batches = submitBatches(sql, 1);
    const first = batches.submit(anonymous('First'));
    await turn();
    const later = [batches.submit(anonymous('Second')), batches.submit(byUser('Third', 'ada')), batches.submit(byUser('Fourth', 'ada'))];
    await turn();
    expect(sent, 'nothing more leaves while one statement runs').to.have.length(1);
    sent[0]!.answer([{ body: 'first' }]);
    await first;
    await turn();
    expect(sent.map((s) => s.name)).to.deep.equal(['submit_anonymous', 'submit_batch']);
    expect(sent[1]!.values[1], 'two submissions of one user share the batch').to.deep.equal(['Second', 'Third', 'Fourth']);
    sent[1]!.answer([1, 2, 3].map((idx) => ({ idx, body: `b${idx}` })));
    expect(await Promise.all(later)).to.deep.equal(['b1', 'b2', 'b3']);
  });
});

interface SubmitBody {
  title: string;
  description?: string;
  type?: string;
  metadata?: Record<string, unknown>;
  endUser?: { externalId: string; name?: string; avatarUrl?: string };
}

for (const backend of backends()) {
  describe(`Submit batches against the database (${backend.name})`, () => {
    const server = withServer(backend);

    it('4.2 concurrency: when known, new, changed and anonymous submitters submit at once (so in shared statements), then each gets its own item, vote and submitter', async () => {
      const run = randomUUID();
      const known = Array.from({ length: 6 }, (_, i) => `known-${run}-${i}`);
      for (const externalId of known) expect((await request(server, 'POST', '/api/v1/identify', { body: { externalId, name: `Known ${externalId}` } })).status).to.equal(200);
      const bodies: SubmitBody[] = [
        // known users sending no profile field, twice each: only read, never written
        ...known.flatMap((externalId, i) => [0, 1].map((n) => ({ title: `${run} known ${i}.${n}`, type: 'bug', metadata: { n }, endUser: { externalId } }))),
        // a known user with the same name (unchanged) and one with a new name (changed: upserted)
        { title: `${run} same name`, endUser: { externalId: known[0]!, name: `Known ${known[0]}` } },
        { title: `${run} new name`, endUser: { externalId: known[1]!, name: 'Renamed', avatarUrl: 'https://example.com/a.png' } },
        // new users, one of them twice in the burst
        { title: `${run} newcomer`, endUser: { externalId: `new-${run}`, name: 'Newcomer' } },
        { title: `${run} newcomer again`, endUser: { externalId: `new-${run}`, name: 'Newcomer' } },
        ...Array.from({ length: 6 }, (_, i) => ({ title: `${run} anonymous ${i}`, description: `from nobody ${i}`, type: 'question' })),
      ];
      const results = await Promise.all(bodies.map((body) => request(server, 'POST', '/api/v1/feedback', { body })));
      expect(results.map((r) => r.status).filter((s) => s !== 201)).to.deep.equal([]);

      for (const [i, body] of bodies.entries()) {
        const got = results[i]!.body.feedback as Record<string, unknown>;
        expect(got.title).to.equal(body.title);
        expect(got.description).to.equal(body.description ?? null);
        expect(got.type).to.equal(body.type ?? 'idea');
        expect(got.voteCount).to.equal(1);
        const stored = await server.sql<{ metadata: unknown; external_id: string | null; voter_key: string; votes: number; counter: number }>(
          `select f.metadata, e.external_id, v.voter_key, (select count(*)::int from votes where feedback_id = f.id) as votes, c.vote_count as counter
           from feedback f join feedback_counters c on c.feedback_id = f.id join votes v on v.feedback_id = f.id left join end_users e on e.id = f.end_user_id
           where f.id = ?`,
          [got.id],
        );
        expect(stored, body.title).to.have.length(1);
        expect(stored[0]!.votes).to.equal(1);
        expect(stored[0]!.counter).to.equal(1);
        expect(stored[0]!.metadata).to.deep.equal(body.metadata ?? null);
        expect(stored[0]!.external_id).to.equal(body.endUser?.externalId ?? null);
      }
      const renamed = results[bodies.findIndex((b) => b.title.endsWith('new name'))]!.body.feedback.endUser;
      expect(renamed, 'the changed profile was written before the item was answered').to.deep.equal({ name: 'Renamed', avatarUrl: 'https://example.com/a.png' });
      expect(results[0]!.body.feedback.endUser).to.deep.equal({ name: `Known ${known[0]}`, avatarUrl: null });
      const newcomers = await server.sql<{ n: number }>('select count(*)::int as n from end_users where external_id = ?', [`new-${run}`]);
      expect(newcomers[0]!.n, 'the new submitter was created once').to.equal(1);
      await expectListTotalsExact(server);
    });

    it('4.2 batch statement: when several submissions leave in one statement, then those by known, unchanged or anonymous submitters are made there, and the others are left to run alone', async () => {
      const run = randomUUID();
      for (const externalId of [`ada-${run}`, `bob-${run}`]) {
        expect((await request(server, 'POST', '/api/v1/identify', { body: { externalId, name: externalId } })).status).to.equal(200);
      }
      const [project] = await server.sql<{ id: string }>('select id from projects order by created_at limit 1');
      const base = { project: project!.id, description: null, type: 'bug', metadata: null };
      // Submissions sent in one turn leave together, as one batch statement.
      const batches = submitBatches(server.server.sql, 1);
      const submissions: Submission[] = [
        { ...base, title: `${run} first`, voterKey: `k0-${run}` },
        { ...base, title: `${run} ada`, externalId: `ada-${run}`, profile: '{}' },
        { ...base, title: `${run} ada again`, externalId: `ada-${run}`, profile: JSON.stringify({ name: `ada-${run}` }), metadata: '{"plan":"pro"}' },
        { ...base, title: `${run} bob renamed`, externalId: `bob-${run}`, profile: JSON.stringify({ name: 'Robert' }) },
        { ...base, title: `${run} stranger`, externalId: `stranger-${run}`, profile: '{}' },
        { ...base, title: `${run} anonymous`, description: 'quiet', voterKey: `k1-${run}` },
      ];
      const answers = await Promise.all(submissions.map((s) => batches.submit(s)));
      expect(answers.map((a) => (a === 'alone' ? a : (JSON.parse(a) as { title: string }).title))).to.deep.equal([
        `${run} first`,
        `${run} ada`,
        `${run} ada again`,
        'alone',
        'alone',
        `${run} anonymous`,
      ]);
      const made = answers.filter((a) => a !== 'alone').map((a) => JSON.parse(a) as { id: string; endUser: unknown; voteCount: number; status: string });
      expect(made.map((m) => m.endUser)).to.deep.equal([null, { name: `ada-${run}`, avatarUrl: null }, { name: `ada-${run}`, avatarUrl: null }, null]);
      expect(made.every((m) => m.voteCount === 1 && m.status === 'new')).to.equal(true);
      const rows = await server.sql<{ title: string; metadata: unknown; voter_key: string; external_id: string | null }>(
        `select f.title, f.metadata, v.voter_key, e.external_id from feedback f join votes v on v.feedback_id = f.id left join end_users e on e.id = f.end_user_id
         where f.title like ? order by f.title`,
        [`${run}%`],
      );
      expect(rows.map((r) => [r.title, r.metadata, r.external_id])).to.deep.equal([
        [`${run} ada`, null, `ada-${run}`],
        [`${run} ada again`, { plan: 'pro' }, `ada-${run}`],
        [`${run} anonymous`, null, null],
        [`${run} first`, null, null],
      ]);
      expect(rows.map((r) => r.voter_key).slice(2)).to.deep.equal([`k1-${run}`, `k0-${run}`]);
      const bob = await server.sql<{ name: string }>('select name from end_users where external_id = ?', [`bob-${run}`]);
      expect(bob[0]!.name, 'the batch wrote no end user').to.equal(`bob-${run}`);
      await expectListTotalsExact(server);
    });
  });
}
