import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer, type TestServer } from '../helpers/test-server.js';

type Caller = { url: string; apiKey: string };

async function submit(server: Caller, title: string, endUser: { externalId: string } = { externalId: `submitter-${randomUUID()}` }) {
  const res = await request(server, 'POST', '/api/v1/feedback', { body: { title, endUser } });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.feedback as { id: string; voteCount: number };
}

/** What the database holds for an item: its vote rows and its stored counter. */
async function stored(server: TestServer, feedbackId: string): Promise<{ rows: number; counter: number }> {
  const em = server.server.orm.em.fork();
  const rows = await em.execute<{ n: number }[]>('select count(*)::int as n from votes where feedback_id = ?', [feedbackId]);
  const counter = await em.execute<{ vote_count: number }[]>('select vote_count from feedback_counters where feedback_id = ?', [feedbackId]);
  return { rows: rows[0]!.n, counter: counter[0]!.vote_count };
}

for (const backend of backends()) {
  describe(`Vote concurrency (${backend.name})`, () => {
    const server = withServer(backend);

    it('4.5 toggle, concurrency: when 200 distinct users vote on one item at once, then all answer 200 and voteCount is exactly 201 = vote rows = counter', async () => {
      const item = await submit(server, 'Two hundred voters');
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => request(server, 'POST', `/api/v1/feedback/${item.id}/vote`, { body: { endUser: { externalId: `crowd-${i}` } } })),
      );
      expect(results.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
      expect(results.every((r) => r.body.voted === true)).to.equal(true);
      // Toggles are serialized per item: each one saw a distinct count, 2..201.
      expect(results.map((r) => r.body.voteCount as number).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 200 }, (_, i) => i + 2));

      const detail = await request(server, 'GET', `/api/v1/feedback/${item.id}`);
      expect(detail.body.feedback.voteCount).to.equal(201);
      expect(await stored(server, item.id)).to.deep.equal({ rows: 201, counter: 201 });
      expect((await request(server, 'GET', `/api/v1/feedback/${item.id}/vote?endUserId=crowd-137`)).body).to.deep.equal({ voted: true, voteCount: 201 });
    });

    it('4.5 toggle, concurrency: when one user toggles 50 times at once, then there is no 5xx, the toggles alternate, and the user ends not voted with voteCount 1', async () => {
      const item = await submit(server, 'One frantic voter');
      const results = await Promise.all(
        Array.from({ length: 50 }, () => request(server, 'POST', `/api/v1/feedback/${item.id}/vote`, { body: { endUser: { externalId: 'frantic' } } })),
      );
      expect(results.filter((r) => r.status >= 500).map((r) => r.body)).to.deep.equal([]);
      expect(results.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
      // Serialized toggles: 25 added the vote (count 2) and 25 removed it (count 1).
      expect(results.filter((r) => r.body.voted === true).map((r) => r.body.voteCount)).to.deep.equal(Array(25).fill(2));
      expect(results.filter((r) => r.body.voted === false).map((r) => r.body.voteCount)).to.deep.equal(Array(25).fill(1));

      const detail = await request(server, 'GET', `/api/v1/feedback/${item.id}`);
      const { rows, counter } = await stored(server, item.id);
      expect(detail.body.feedback.voteCount).to.equal(rows);
      expect(counter).to.equal(rows);
      expect(rows).to.equal(1);
      expect((await request(server, 'GET', `/api/v1/feedback/${item.id}/vote?endUserId=frantic`)).body).to.deep.equal({ voted: false, voteCount: 1 });
      const users = await server.server.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from end_users where external_id = 'frantic'`);
      expect(users[0]!.n).to.equal(1);
    });

    it('4.5 toggle, concurrency: when one anonymous caller toggles 50 times at once, then there is no 5xx and the caller ends not voted with voteCount 1', async () => {
      const item = await submit(server, 'One frantic anonymous voter');
      const results = await Promise.all(Array.from({ length: 50 }, () => request(server, 'POST', `/api/v1/feedback/${item.id}/vote`, { body: {} })));
      expect(results.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
      expect(results.filter((r) => r.body.voted === true)).to.have.length(25);
      const { rows, counter } = await stored(server, item.id);
      expect({ rows, counter }).to.deep.equal({ rows: 1, counter: 1 });
      expect((await request(server, 'GET', `/api/v1/feedback/${item.id}/vote`)).body).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it('4.2/4.5 concurrency: when 30 submissions race with 30 votes on an existing item, then nothing is lost', async () => {
      const token = `race${randomUUID().slice(0, 8)}`;
      const existing = await submit(server, `Existing ${token}-target`);
      const [submissions, votes] = await Promise.all([
        Promise.all(Array.from({ length: 30 }, (_, i) => request(server, 'POST', '/api/v1/feedback', { body: { title: `Racing ${token} ${i}`, endUser: { externalId: `racer-${i}` } } }))),
        Promise.all(Array.from({ length: 30 }, (_, i) => request(server, 'POST', `/api/v1/feedback/${existing.id}/vote`, { body: { endUser: { externalId: `racing-voter-${i}` } } }))),
      ]);
      expect(submissions.map((r) => r.status).filter((s) => s !== 201)).to.deep.equal([]);
      expect(votes.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
      expect(votes.every((r) => r.body.voted === true)).to.equal(true);

      const list = await request(server, 'GET', `/api/v1/feedback?search=${encodeURIComponent(`Racing ${token}`)}&limit=100`);
      expect(list.status).to.equal(200);
      expect(list.body.total).to.equal(30);
      expect(list.body.items).to.have.length(30);
      expect(new Set(list.body.items.map((item: { id: string }) => item.id))).to.deep.equal(new Set(submissions.map((r) => r.body.feedback.id)));
      expect(list.body.items.map((item: { voteCount: number }) => item.voteCount)).to.deep.equal(Array(30).fill(1));
      for (const r of submissions) expect(await stored(server, r.body.feedback.id)).to.deep.equal({ rows: 1, counter: 1 });

      const detail = await request(server, 'GET', `/api/v1/feedback/${existing.id}`);
      expect(detail.body.feedback.voteCount).to.equal(31);
      expect(await stored(server, existing.id)).to.deep.equal({ rows: 31, counter: 31 });
    });

    it('4.5 toggle, concurrency: when known, new and anonymous voters and a vote on a missing item arrive at once (so in shared statements), then each gets its own answer', async () => {
      const [a, b] = await Promise.all([submit(server, 'Burst A'), submit(server, 'Burst B')]);
      const known = Array.from({ length: 20 }, (_, i) => `burst-known-${randomUUID()}-${i}`);
      for (const externalId of known) expect((await request(server, 'POST', '/api/v1/identify', { body: { externalId } })).status).to.equal(200);
      const newcomer = `burst-new-${randomUUID()}`;
      const vote = (id: string, body: Record<string, unknown>) => request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body });
      const results = await Promise.all([
        ...known.map((externalId, i) => vote(i % 2 ? a.id : b.id, { endUser: { externalId } })),
        vote(a.id, { endUser: { externalId: newcomer } }),
        vote(b.id, {}),
        vote(randomUUID(), { endUser: { externalId: known[0] } }),
      ]);
      const missing = results.pop()!;
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ error: 'Feedback not found' });
      expect(results.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
      expect(results.every((r) => r.body.voted === true)).to.equal(true);
      // a: 1 submitter + 10 known + the newcomer; b: 1 submitter + 10 known + 1 anonymous.
      expect(await stored(server, a.id)).to.deep.equal({ rows: 12, counter: 12 });
      expect(await stored(server, b.id)).to.deep.equal({ rows: 12, counter: 12 });
      expect((await request(server, 'GET', `/api/v1/feedback/${a.id}/vote?endUserId=${newcomer}`)).body).to.deep.equal({ voted: true, voteCount: 12 });
      const users = await server.server.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from end_users where external_id = ?', [newcomer]);
      expect(users[0]!.n, 'the new voter was created once').to.equal(1);
    });

    it('4.5/4.6 concurrency: when votes on several items and vote checks run at once, then each item counts only its own votes', async () => {
      const items = await Promise.all([0, 1, 2, 3].map((n) => submit(server, `Spread ${n}`)));
      const calls = items.flatMap((item, n) =>
        Array.from({ length: 10 * (n + 1) }, (_, i) => request(server, 'POST', `/api/v1/feedback/${item.id}/vote`, { body: { endUser: { externalId: `spread-${n}-${i}` } } })),
      );
      const checks = items.map((item) => request(server, 'GET', `/api/v1/feedback/${item.id}/vote?endUserId=spread-0-0`));
      const results = await Promise.all([...calls, ...checks]);
      expect(results.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
      for (const [n, item] of items.entries()) {
        const expected = 1 + 10 * (n + 1);
        expect((await request(server, 'GET', `/api/v1/feedback/${item.id}`)).body.feedback.voteCount).to.equal(expected);
        expect(await stored(server, item.id)).to.deep.equal({ rows: expected, counter: expected });
      }
    });
  });
}
