import { expect } from 'chai';
import { FEEDBACK_STATUSES } from '@feedbackd/sdk/contract';
import { backends } from '../helpers/backends.js';
import { expectCountersExact, expectListTotalsExact } from '../helpers/invariants.js';
import { request, withServer } from '../helpers/test-server.js';

type Reply = Awaited<ReturnType<typeof request>>;

/** The replies whose status is not among `allowed`, with their bodies (the tests expect none). */
function unexpected(replies: Reply[], ...allowed: number[]): unknown[] {
  return replies.filter((r) => !allowed.includes(r.status)).map((r) => ({ status: r.status, body: r.body }));
}

/** Runs `clients` loops at once, each calling `step` `steps` times; resolves to every reply. */
async function clients(count: number, steps: number, step: (client: number, i: number) => Promise<Reply>): Promise<Reply[]> {
  const replies = await Promise.all(
    Array.from({ length: count }, async (_, c) => {
      const mine: Reply[] = [];
      for (let i = 0; i < steps; i++) mine.push(await step(c, i));
      return mine;
    }),
  );
  return replies.flat();
}

/**
 * Issue 24 §2: no 500 from contention. Toggles of one item by a few voters from many clients at
 * once leave in batches that hold the same rows in different orders; merges and status changes
 * lock the same items beside them. Every lock is taken in one order (item, counters, vote), and a
 * deadlock that still happens is retried inside the server, so every answer is a 200 or the
 * spec's 404 (an item merged away), and the counters equal the rows they count.
 */
for (const backend of backends()) {
  describe(`contention: the same voters toggling the same items beside merges and status changes (${backend.name})`, () => {
    const server = withServer(backend);
    let ops: { url: string; apiKey: string };
    before(async () => {
      ops = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
    });
    afterEach(async () => {
      await expectCountersExact(server);
      await expectListTotalsExact(server);
    });

    const submit = async (title: string): Promise<string> => {
      const res = await request(server, 'POST', '/api/v1/feedback', { body: { title } });
      expect(res.status).to.equal(201);
      return res.body.feedback.id;
    };
    const vote = (id: string, voter: string) => request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId: voter } } });

    it('when 12 clients toggle one item for 5 identified voters, then every answer is a 200', async () => {
      const id = await submit('One item, five voters, twelve clients');
      const replies = await clients(12, 25, (c, i) => vote(id, `voter-${(c + i) % 5}`));
      expect(unexpected(replies, 200)).to.deep.equal([]);
    });

    it('when toggles of several items by the same voters run beside merges and status changes, then every answer is a 200 or a 404', async () => {
      for (let round = 0; round < 3; round++) {
        const target = await submit(`Round ${round} target`);
        const duplicates = await Promise.all([0, 1, 2].map((d) => submit(`Round ${round} duplicate ${d}`)));
        const all = [target, ...duplicates];
        const toggles = clients(12, 12, (c, i) => vote(all[(c + i) % all.length]!, `voter-${(c * 7 + i) % 6}`));
        const statuses = clients(4, 6, (c, i) =>
          request(ops, 'PATCH', `/api/v1/feedback/${all[(c + i) % all.length]}`, { body: { status: FEEDBACK_STATUSES[(c + i) % FEEDBACK_STATUSES.length] } }),
        );
        const merges = Promise.all(duplicates.map((id) => request(ops, 'POST', `/api/v1/feedback/${id}/merge`, { body: { intoId: target } })));
        const [toggled, changed, merged] = await Promise.all([toggles, statuses, merges]);
        // A duplicate merged away answers 404 to what comes after; nothing answers a 5xx.
        expect(unexpected(toggled, 200, 404), `round ${round} toggles`).to.deep.equal([]);
        expect(unexpected(changed, 200, 404), `round ${round} status changes`).to.deep.equal([]);
        expect(unexpected(merged, 200), `round ${round} merges`).to.deep.equal([]);
      }
      expect(server.logs.filter((line) => line.startsWith('ERROR'))).to.deep.equal([]);
    });
  });
}
