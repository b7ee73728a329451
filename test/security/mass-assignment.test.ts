import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

/** Fields the server owns; a request body naming them must change nothing. */
const FORGED = {
  id: randomUUID(),
  status: 'completed',
  voteCount: 999,
  commentCount: 42,
  createdAt: '2001-01-01T00:00:00.000Z',
  userHasVoted: true,
  comments: [{ id: randomUUID(), content: 'forged', createdAt: '2001-01-01T00:00:00.000Z', author: { name: 'Team', isTeam: true } }],
  projectId: randomUUID(),
};

for (const backend of backends()) {
  describe(`Mass assignment: server-owned fields in request bodies have no effect (${backend.name})`, () => {
    const server = withServer(backend);

    it('when a submission names id, status, counts, createdAt or comments, then the item is created as any other and they are ignored', async () => {
      const before = Date.now();
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Forged fields', type: 'bug', ...FORGED } });
      expect(created.status).to.equal(201);
      const item = created.body.feedback;
      expect(item.id).to.not.equal(FORGED.id);
      expect(item).to.include({ status: 'new', voteCount: 1, commentCount: 0, type: 'bug', title: 'Forged fields' });
      expect(Date.parse(item.createdAt)).to.be.at.least(before - 5_000);
      const detail = await request(server, 'GET', `/api/v1/feedback/${item.id}`);
      expect(detail.body.feedback).to.include({ status: 'new', voteCount: 1, commentCount: 0, userHasVoted: false });
      expect(detail.body.feedback.comments).to.deep.equal([]);
      expect((await request(server, 'GET', `/api/v1/feedback/${FORGED.id}`)).status).to.equal(404);
    });

    it('when a vote names voteCount or voted, then the count moves by exactly one', async () => {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Vote target' } });
      const id = created.body.feedback.id as string;
      const vote = await request(server, 'POST', `/api/v1/feedback/${id}/vote`, {
        body: { endUser: { externalId: 'voter-1', voteCount: 500 }, voteCount: 500, voted: false },
      });
      expect(vote.status).to.equal(200);
      expect(vote.body).to.deep.equal({ voted: true, voteCount: 2 });
    });

    it('when identify names an id or createdAt, then they are not stored', async () => {
      const forged = { externalId: 'user-forged', name: 'Forged', id: FORGED.id, createdAt: FORGED.createdAt, projectId: FORGED.projectId };
      const first = await request(server, 'POST', '/api/v1/identify', { body: forged });
      expect(first.status).to.equal(200);
      expect(first.body.user.id).to.not.equal(FORGED.id);
      expect(first.body.user.createdAt).to.not.equal(FORGED.createdAt);
      const again = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'user-forged' } });
      expect(again.body.user).to.deep.equal(first.body.user);
    });
  });
}
