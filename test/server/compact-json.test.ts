import { expect } from 'chai';
import { addComment } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { withServer } from '../helpers/test-server.js';

/** The fields of a FeedbackListItem in the order of spec 2.2. */
const ITEM_KEYS = ['id', 'title', 'description', 'type', 'status', 'voteCount', 'commentCount', 'createdAt', 'endUser'];

/**
 * The bodies the statements build inside PostgreSQL: compact JSON, as JSON.stringify writes it.
 * PostgreSQL's json_build_object writes `{"id" : "…"}` and json_agg a line break between elements;
 * those spaces went out to every client.
 */
for (const backend of backends()) {
  describe(`compact JSON bodies (${backend.name})`, () => {
    const server = withServer(backend);

    /** The raw text of a response, asserted to be compact. */
    async function compact(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, any> }> {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'x-api-key': server.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      // No white space outside the strings (numbers are left as PostgreSQL writes them: similarity 0.600).
      expect(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'), `${method} ${path}: ${text}`).to.not.match(/\s/);
      return { status: res.status, json: JSON.parse(text) as Record<string, any> };
    }

    it('when the spec\'s endpoints answer, then every body is compact JSON with the fields in the spec\'s order', async () => {
      const user = await compact('POST', '/api/v1/identify', { externalId: 'compact-user', name: 'Comp "Act"', avatarUrl: 'https://example.com/c.png' });
      expect(user.status).to.equal(200);
      expect(Object.keys(user.json.user)).to.deep.equal(['id', 'email', 'name', 'avatarUrl', 'createdAt']);

      const named = await compact('POST', '/api/v1/feedback', { title: 'Compact bodies, please', description: 'No " : " in them\nat all', type: 'idea', endUser: { externalId: 'compact-user' } });
      expect(named.status).to.equal(201);
      expect(Object.keys(named.json.feedback)).to.deep.equal(ITEM_KEYS);
      expect(named.json.feedback.endUser).to.deep.equal({ name: 'Comp "Act"', avatarUrl: 'https://example.com/c.png' });
      const anonymous = await compact('POST', '/api/v1/feedback', { title: 'Compact anonymous bodies', type: 'bug' });
      expect(anonymous.json.feedback.endUser).to.equal(null);

      const id = named.json.feedback.id as string;
      const [row] = await server.sql<{ project_id: string }>('select project_id from feedback where id = ?', [id]);
      expect(await addComment(server.server.orm.em.fork(), row!.project_id, id, 'From the team', { kind: 'team', name: 'Team' })).to.equal(true);
      expect(await addComment(server.server.orm.em.fork(), row!.project_id, id, 'From the user', { kind: 'user', externalId: 'compact-user' })).to.equal(true);

      const list = await compact('GET', '/api/v1/feedback?limit=5');
      expect(list.json.items.length).to.be.at.least(2);
      for (const item of list.json.items) expect(Object.keys(item)).to.deep.equal(ITEM_KEYS);
      expect((await compact('GET', '/api/v1/feedback?search=compact&sortBy=votes')).json.items).to.have.length(2);

      const detail = await compact('GET', `/api/v1/feedback/${id}?endUserId=compact-user`);
      // The spec's fields in its order; the subscription (issue 40, an endUserId's extension) after them.
      expect(Object.keys(detail.json.feedback)).to.deep.equal([...ITEM_KEYS, 'userHasVoted', 'comments', 'userIsSubscribed']);
      const anyone = await compact('GET', `/api/v1/feedback/${id}`);
      expect(Object.keys(anyone.json.feedback), 'without an endUserId, exactly the spec\'s fields').to.deep.equal([...ITEM_KEYS, 'userHasVoted', 'comments']);
      expect(detail.json.feedback.comments.map((c: { author: unknown }) => c.author)).to.deep.equal([
        { name: 'Team', isTeam: true },
        { name: 'Comp "Act"', avatarUrl: 'https://example.com/c.png', id: 'compact-user' },
      ]);

      const similar = await compact('GET', '/api/v1/feedback/similar?title=compact%20bodies');
      expect(similar.json.items.length).to.be.at.least(1);
      expect(Object.keys(similar.json.items[0])).to.deep.equal([...ITEM_KEYS, 'userHasVoted', 'similarity']);
      await compact('POST', `/api/v1/feedback/${id}/vote`, { endUserId: 'other-user' });
      await compact('GET', `/api/v1/feedback/${id}/vote?endUserId=other-user`);
    });
  });
}
