import { expect } from 'chai';
import { FEEDBACK_STATUSES, FEEDBACK_TYPES } from '@feedbackd/sdk/contract';
import { backends } from '../helpers/backends.js';
import { expectCountersExact, expectListTotalsExact } from '../helpers/invariants.js';
import { request, withServer } from '../helpers/test-server.js';

type Caller = { url: string; apiKey: string };
type Reply = Awaited<ReturnType<typeof request>>;

/** The statuses of the replies that are not among `allowed` (the tests expect none). */
function unexpected(replies: Reply[], ...allowed: number[]): unknown[] {
  return replies.filter((r) => !allowed.includes(r.status)).map((r) => ({ status: r.status, body: r.body }));
}

/**
 * Issue 9 §2: every operator operation is one transaction and keeps every counter exact, whatever
 * runs beside it. After each storm, vote_count and comment_count equal count(*) of their rows,
 * and the list `total` of every status/type filter equals count(*) of the items.
 */
for (const backend of backends()) {
  describe(`operator endpoints under concurrency (${backend.name})`, () => {
    const server = withServer(backend);
    let ops: Caller;
    before(async () => {
      ops = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
    });
    afterEach(async () => {
      await expectCountersExact(server);
      await expectListTotalsExact(server);
    });

    async function submit(title: string, i = 0): Promise<string> {
      const res = await request(server, 'POST', '/api/v1/feedback', { body: { title, type: FEEDBACK_TYPES[i % 4], endUser: { externalId: `submitter-${i % 3}` } } });
      expect(res.status).to.equal(201);
      return res.body.feedback.id;
    }
    const vote = (id: string, voter: string) => request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId: voter } } });

    it('when merges race votes on both sides, then no answer is a 5xx and the target counts each voter once', async () => {
      const target = await submit('Merge target');
      const duplicates = await Promise.all(Array.from({ length: 4 }, (_, i) => submit(`Duplicate ${i}`, i + 1)));
      // Voters shared by every item, so merged votes meet votes already on the target.
      for (const id of [target, ...duplicates]) await Promise.all(['v0', 'v1', 'v2'].map((voter) => vote(id, voter)));
      const votes = [target, ...duplicates].flatMap((id) => Array.from({ length: 8 }, (_, i) => vote(id, `v${i}`)));
      const merges = duplicates.map((id) => request(ops, 'POST', `/api/v1/feedback/${id}/merge`, { body: { intoId: target } }));
      const [voteReplies, mergeReplies] = await Promise.all([Promise.all(votes), Promise.all(merges)]);
      // A vote on a duplicate that was merged away first is a 404, never a 500.
      expect(unexpected(voteReplies, 200, 404)).to.deep.equal([]);
      expect(unexpected(mergeReplies, 200)).to.deep.equal([]);
      for (const id of duplicates) expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).status).to.equal(404);
      const voters = await server.server.orm.em.fork().execute<{ voter_key: string; n: number }[]>(
        'select voter_key, count(*)::int as n from votes where feedback_id = ? group by voter_key having count(*) > 1',
        [target],
      );
      expect(voters, 'one vote per voter').to.deep.equal([]);
    });

    it('when merges cross (A into B while B into A, and B into C), then they queue: each pair ends merged once, without a deadlock or a 5xx', async () => {
      const [a, b, c] = await Promise.all([submit('Cross A', 0), submit('Cross B', 1), submit('Cross C', 2)]);
      for (const id of [a, b, c]) await Promise.all(['x', 'y'].map((voter) => vote(id, `${voter}-${id.slice(0, 4)}`)));
      const replies = await Promise.all([
        request(ops, 'POST', `/api/v1/feedback/${a}/merge`, { body: { intoId: b } }),
        request(ops, 'POST', `/api/v1/feedback/${b}/merge`, { body: { intoId: a } }),
        request(ops, 'POST', `/api/v1/feedback/${b}/merge`, { body: { intoId: c } }),
        ...[a, b, c].map((id) => vote(id, 'crosser')),
      ]);
      expect(unexpected(replies, 200, 404)).to.deep.equal([]);
      const alive = [];
      for (const id of [a, b, c]) if ((await request(server, 'GET', `/api/v1/feedback/${id}`)).status === 200) alive.push(id);
      expect(alive.length, 'at least one merge happened, and one item is left of each merged pair').to.be.within(1, 2);
    });

    it('when comments are added and deleted at once (and some deleted twice), then commentCount ends equal to the comments left', async () => {
      const id = await submit('Busy thread');
      const first = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: `Comment ${i}`, ...(i % 2 ? { team: { name: 'Support' } } : { endUser: { externalId: `c-${i % 5}` } }) } }),
        ),
      );
      expect(unexpected(first, 201)).to.deep.equal([]);
      const doomed = first.slice(0, 20).map((r) => r.body.comment.id as string);
      const storm = await Promise.all([
        ...doomed.map((commentId) => request(ops, 'DELETE', `/api/v1/feedback/${id}/comments/${commentId}`)),
        ...doomed.slice(0, 10).map((commentId) => request(ops, 'DELETE', `/api/v1/feedback/${id}/comments/${commentId}`)),
        ...Array.from({ length: 15 }, (_, i) => request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: `Late ${i}`, team: { name: 'Support' } } })),
        ...Array.from({ length: 10 }, (_, i) => vote(id, `thread-voter-${i}`)),
      ]);
      expect(unexpected(storm.slice(0, 30), 200, 404)).to.deep.equal([]);
      // Each of the 20 comments was deleted exactly once; the second delete of one is the 404.
      expect(storm.slice(0, 30).filter((r) => r.status === 200)).to.have.length(20);
      expect(unexpected(storm.slice(30), 200, 201)).to.deep.equal([]);
      const shown = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
      expect(shown.commentCount).to.equal(25);
      expect(shown.comments).to.have.length(25);
      expect(shown.voteCount).to.equal(11);
    });

    it('when one item gets 24 status changes at once, then the history is one unbroken chain that ends at its status', async () => {
      const id = await submit('Status storm', 1);
      const targets = Array.from({ length: 24 }, (_, i) => FEEDBACK_STATUSES[(i * 5 + 1) % FEEDBACK_STATUSES.length]!);
      const replies = await Promise.all([
        ...targets.map((status, i) => request(ops, 'PATCH', `/api/v1/feedback/${id}`, { body: { status, ...(i % 4 === 0 ? { type: FEEDBACK_TYPES[i % 4] } : {}) } })),
        ...Array.from({ length: 10 }, (_, i) => vote(id, `storm-voter-${i}`)),
      ]);
      expect(unexpected(replies, 200)).to.deep.equal([]);
      const shown = (await request(ops, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
      const history = shown.statusHistory as { from: string; to: string }[];
      let status = 'new';
      for (const change of history) {
        expect(change.from, 'each change starts where the one before ended').to.equal(status);
        expect(change.to).to.not.equal(change.from);
        status = change.to;
      }
      expect(status).to.equal(shown.status);
      expect(shown.voteCount).to.equal(11);
    });

    it('when items are deleted while they are voted on, commented and changed, then every answer is a 2xx or a 404', async () => {
      const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(`Doomed ${i}`, i)));
      const replies = await Promise.all(
        ids.flatMap((id, i) => [
          ...Array.from({ length: 5 }, (_, v) => vote(id, `doomed-voter-${v}`)),
          request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'Last words', endUser: { externalId: `doomed-commenter-${i}` } } }),
          request(ops, 'PATCH', `/api/v1/feedback/${id}`, { body: { status: 'closed' } }),
          request(ops, 'DELETE', `/api/v1/feedback/${id}`),
          ...(i % 2 ? [request(ops, 'POST', `/api/v1/feedback/${id}/merge`, { body: { intoId: ids[0] } })] : []),
        ]),
      );
      expect(unexpected(replies, 200, 201, 404)).to.deep.equal([]);
      for (const id of ids) expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).status).to.equal(404);
    });
  });
}
