import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { addComment, type CommentAuthorInput } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';
import { nextMillisecond } from '../helpers/until.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The fields of a FeedbackDetail (spec 2.2 and 2.3), sorted. */
const DETAIL_KEYS = ['commentCount', 'comments', 'createdAt', 'description', 'endUser', 'id', 'status', 'title', 'type', 'userHasVoted', 'voteCount'];
const NOT_FOUND = { error: 'Feedback not found' };

for (const backend of backends()) {
  describe(`GET /api/v1/feedback/:id (${backend.name})`, () => {
    const server = withServer(backend);
    let defaultProjectId: string;
    before(async () => {
      const rows = await server.sql<{ id: string }>(`select id from projects where slug = 'default'`);
      defaultProjectId = rows[0]!.id;
    });

    async function create(body: Record<string, unknown>, client: { url: string; apiKey: string } = server): Promise<string> {
      const res = await request(client, 'POST', '/api/v1/feedback', { body });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.feedback.id;
    }

    async function comment(feedbackId: string, content: string, author: CommentAuthorInput, projectId = defaultProjectId): Promise<string> {
      const added = await addComment(server.server.orm.em.fork(), projectId, feedbackId, content, author);
      expect(added).to.equal(true);
      const rows = await server.sql<{ id: string }>('select id from comments where feedback_id = ? and content = ?', [feedbackId, content]);
      return rows[0]!.id;
    }

    async function detail(id: string, query = '') {
      return request(server, 'GET', `/api/v1/feedback/${id}${query}`);
    }

    it('2.3 fields: when an item exists, then it answers 200 {feedback} with the fields of spec 2.2 plus userHasVoted and comments', async () => {
      const created = await request(server, 'POST', '/api/v1/feedback', {
        body: { title: 'Detailed', description: 'Full text', type: 'question', endUser: { externalId: 'detail-owner', name: 'Dee', avatarUrl: 'https://example.com/d.png' } },
      });
      const res = await detail(created.body.feedback.id);
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['feedback']);
      const { feedback } = res.body;
      expect(Object.keys(feedback).sort()).to.deep.equal(DETAIL_KEYS);
      expect(feedback).to.include({
        id: created.body.feedback.id,
        title: 'Detailed',
        description: 'Full text',
        type: 'question',
        status: 'new',
        voteCount: 1,
        commentCount: 0,
        createdAt: created.body.feedback.createdAt,
        userHasVoted: false,
      });
      expect(feedback.createdAt).to.match(ISO_MS);
      expect(feedback.endUser).to.deep.equal({ name: 'Dee', avatarUrl: 'https://example.com/d.png' });
      expect(feedback.comments).to.deep.equal([]);
    });

    it('2.2 fields: when the item is anonymous, then endUser is null in the detail', async () => {
      const id = await create({ title: 'Anonymous detail' });
      const res = await detail(id);
      expect(res.status).to.equal(200);
      expect(res.body.feedback.endUser).to.equal(null);
      expect(res.body.feedback.description).to.equal(null);
    });

    it('2.2 status: when the item’s status was changed, then the detail shows the new status', async () => {
      const id = await create({ title: 'Moved along' });
      await server.sql('update feedback set status = ? where id = ?', ['in-progress', id]);
      const res = await detail(id);
      expect(res.body.feedback.status).to.equal('in-progress');
    });

    it('2.4 comments: when an item has comments, then each has exactly id, content, createdAt and author, in that order, followed only by the documented extensions (parentId, editedAt, isPinned)', async () => {
      const id = await create({ title: 'Commented' });
      const commentId = await comment(id, 'Thanks, we are on it', { kind: 'team', name: 'Support' });
      const res = await detail(id);
      expect(res.body.feedback.comments).to.have.length(1);
      const [only] = res.body.feedback.comments;
      expect(Object.keys(only)).to.deep.equal(['id', 'content', 'createdAt', 'author', 'parentId', 'editedAt', 'isPinned']);
      expect(only).to.include({ parentId: null, editedAt: null, isPinned: false });
      expect(only).to.include({ id: commentId, content: 'Thanks, we are on it' });
      expect(only.createdAt).to.match(ISO_MS);
    });

    it('2.3 comments: when comments were written at different times, then they come oldest first', async () => {
      const id = await create({ title: 'Conversation' });
      const second = await comment(id, 'second', { kind: 'team', name: 'Support' });
      const third = await comment(id, 'third', { kind: 'user', externalId: 'talker' });
      const first = await comment(id, 'first', { kind: 'team', name: 'Support' });
      // Written in another order than their times, so the order must come from the times.
      const times: Array<[string, string]> = [
        [first, '2025-03-01T10:00:00.000Z'],
        [second, '2025-03-01T10:00:00.001Z'],
        [third, '2025-03-02T09:00:00.000Z'],
      ];
      for (const [commentId, at] of times) await server.sql('update comments set created_at = cast(? as timestamptz) where id = ?', [at, commentId]);
      const res = await detail(id);
      expect(res.body.feedback.comments.map((c: { content: string }) => c.content)).to.deep.equal(['first', 'second', 'third']);
      expect(res.body.feedback.comments.map((c: { createdAt: string }) => c.createdAt)).to.deep.equal(times.map(([, at]) => at));
    });

    it('2.3 comments: when comments are added one after another, then they come in the order written', async () => {
      const id = await create({ title: 'Sequential conversation' });
      for (const content of ['one', 'two', 'three', 'four']) {
        await comment(id, content, { kind: 'team', name: 'Support' });
        // Distinct milliseconds, so the order does not rest on a tie-break.
        await nextMillisecond();
      }
      const res = await detail(id);
      expect(res.body.feedback.comments.map((c: { content: string }) => c.content)).to.deep.equal(['one', 'two', 'three', 'four']);
    });

    it('2.4 author: when the team wrote a comment, then author is {name, isTeam: true} with no avatarUrl', async () => {
      const id = await create({ title: 'Team answered' });
      await comment(id, 'From the team', { kind: 'team', name: 'Product team' });
      const res = await detail(id);
      const { author } = res.body.feedback.comments[0];
      expect(author).to.deep.equal({ name: 'Product team', isTeam: true });
      expect(author).not.to.have.property('avatarUrl');
    });

    it('2.4 author: when an end user wrote a comment, then author is {name, avatarUrl} with no isTeam, and the extension id (their externalId)', async () => {
      const id = await create({ title: 'User answered' });
      await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'commenter', name: 'Cora', avatarUrl: 'https://example.com/c.png' } });
      await comment(id, 'From a user', { kind: 'user', externalId: 'commenter' });
      await comment(id, 'From a user without profile', { kind: 'user', externalId: 'faceless' });
      const res = await detail(id);
      const [withProfile, withoutProfile] = res.body.feedback.comments.map((c: { author: unknown }) => c.author);
      expect(withProfile).to.deep.equal({ name: 'Cora', avatarUrl: 'https://example.com/c.png', id: 'commenter' });
      expect(withProfile).not.to.have.property('isTeam');
      expect(withoutProfile).to.deep.equal({ name: null, avatarUrl: null, id: 'faceless' });
    });

    it('2.4 author: when an end user changes their profile, then their comments show the current name and avatar', async () => {
      const id = await create({ title: 'Profile change' });
      await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'renamer', name: 'Before' } });
      await comment(id, 'hello', { kind: 'user', externalId: 'renamer' });
      await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'renamer', name: 'After', avatarUrl: 'https://example.com/after.png' } });
      const res = await detail(id);
      expect(res.body.feedback.comments[0].author).to.deep.equal({ name: 'After', avatarUrl: 'https://example.com/after.png', id: 'renamer' });
    });

    it('2.4 author: when the end-user author no longer exists, then author is null', async () => {
      const id = await create({ title: 'Author gone' });
      await comment(id, 'ghost words', { kind: 'user', externalId: 'ghost' });
      await server.sql(`delete from end_users where external_id = 'ghost' and project_id = ?`, [defaultProjectId]);
      const res = await detail(id);
      expect(res.status).to.equal(200);
      expect(res.body.feedback.comments).to.have.length(1);
      expect(res.body.feedback.comments[0].author).to.equal(null);
    });

    it('2.2 commentCount: when an item has comments, then commentCount equals the number of comments in the detail and the list', async () => {
      const id = await create({ title: 'Counted comments' });
      await comment(id, 'c1', { kind: 'team', name: 'Support' });
      await comment(id, 'c2', { kind: 'user', externalId: 'counter' });
      await comment(id, 'c3', { kind: 'team', name: 'Support' });
      const res = await detail(id);
      expect(res.body.feedback.commentCount).to.equal(3);
      expect(res.body.feedback.comments).to.have.length(3);
      const listed = await request(server, 'GET', `/api/v1/feedback?search=${encodeURIComponent('Counted comments')}`);
      expect(listed.body.items.find((item: { id: string }) => item.id === id).commentCount).to.equal(3);
    });

    it("2.3 comments: when two items have comments, then each detail shows only its own item's comments", async () => {
      const a = await create({ title: 'Item A' });
      const b = await create({ title: 'Item B' });
      await comment(a, 'about A', { kind: 'team', name: 'Support' });
      await comment(b, 'about B', { kind: 'team', name: 'Support' });
      const res = await detail(a);
      expect(res.body.feedback.comments.map((c: { content: string }) => c.content)).to.deep.equal(['about A']);
    });

    it('2.2 voteCount: when other users vote, then the detail shows the current vote count', async () => {
      const id = await create({ title: 'Popular', endUser: { externalId: 'pop-owner' } });
      for (const externalId of ['pop-1', 'pop-2']) {
        await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId } } });
      }
      const res = await detail(id);
      expect(res.body.feedback.voteCount).to.equal(3);
    });

    it('2.3 userHasVoted: when endUserId names the identified submitter, then userHasVoted is true', async () => {
      const id = await create({ title: 'Submitter voted', endUser: { externalId: 'uhv-submitter' } });
      const res = await detail(id, '?endUserId=uhv-submitter');
      expect(res.status).to.equal(200);
      expect(res.body.feedback.userHasVoted).to.equal(true);
    });

    it('2.3 userHasVoted: when endUserId names a user who voted, then it is true; after they toggle again, false', async () => {
      const id = await create({ title: 'Voter check' });
      const voted = await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId: 'uhv-voter' } } });
      expect(voted.body.voted).to.equal(true);
      expect((await detail(id, '?endUserId=uhv-voter')).body.feedback.userHasVoted).to.equal(true);
      await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId: 'uhv-voter' } } });
      expect((await detail(id, '?endUserId=uhv-voter')).body.feedback.userHasVoted).to.equal(false);
    });

    it('2.3 userHasVoted: when endUserId names a known user who did not vote on this item, then it is false', async () => {
      const id = await create({ title: 'Not voted here', endUser: { externalId: 'uhv-owner' } });
      const other = await create({ title: 'Voted there' });
      await request(server, 'POST', `/api/v1/feedback/${other}/vote`, { body: { endUser: { externalId: 'uhv-elsewhere' } } });
      const res = await detail(id, '?endUserId=uhv-elsewhere');
      expect(res.status).to.equal(200);
      expect(res.body.feedback.userHasVoted).to.equal(false);
    });

    it('2.3 userHasVoted: when endUserId names an unknown user, then it is false and no user is created', async () => {
      const id = await create({ title: 'Unknown asker', endUser: { externalId: 'uhv-real' } });
      const res = await detail(id, '?endUserId=never-seen');
      expect(res.status).to.equal(200);
      expect(res.body.feedback.userHasVoted).to.equal(false);
      const users = await server.sql<{ n: number }>(`select count(*)::int as n from end_users where external_id = 'never-seen'`);
      expect(users[0]!.n).to.equal(0);
    });

    it('2.3 userHasVoted: when no endUserId is given, then it is false even though the caller’s IP voted', async () => {
      const id = await create({ title: 'IP voted' });
      const byIp = await request(server, 'GET', `/api/v1/feedback/${id}/vote`);
      expect(byIp.body.voted).to.equal(true);
      const res = await detail(id);
      expect(res.body.feedback.userHasVoted).to.equal(false);
    });

    it('4.4 not found: when the id is a well-formed uuid of no item, then it is a 404 {"error":"Feedback not found"}', async () => {
      const res = await detail('3f1c2a7e-8b4d-4c6f-9a1e-2d3b4c5d6e7f');
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_FOUND);
    });

    const malformed = ['abc', '123', 'not-a-uuid-at-all', encodeURIComponent("' or '1'='1")];
    for (const id of malformed) {
      it(`4.4 not found: when the id is malformed (${decodeURIComponent(id)}), then it is the same 404, never a 400 or 500`, async () => {
        const res = await detail(id);
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal(NOT_FOUND);
      });
    }

    it('4.4 not found: when the id is an existing uuid with trailing junk, then it is a 404', async () => {
      const id = await create({ title: 'Real one' });
      for (const suffix of ['x', '0', '-1', '%20']) {
        const res = await detail(`${id}${suffix}`);
        expect(res.status, suffix).to.equal(404);
        expect(res.body, suffix).to.deep.equal(NOT_FOUND);
      }
      expect((await detail(id)).status).to.equal(200);
    });

    it('4.4 not found: when the id is a truncated existing uuid, then it is a 404', async () => {
      const id = await create({ title: 'Cut short' });
      const res = await detail(id.slice(0, -1));
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_FOUND);
    });

    it('4.4 projects: when the id belongs to another project, then it is a 404 {"error":"Feedback not found"}', async () => {
      const slug = `detail-${randomBytes(4).toString('hex')}`;
      const rows = await server.sql<{ id: string }>('insert into projects (slug, name, voter_salt) values (?, ?, ?) returning id', [
        slug,
        'Other project',
        randomBytes(32).toString('base64url'),
      ]);
      const otherKey = await server.newKey(slug);
      const other = { url: server.url, apiKey: otherKey };
      const foreignId = await create({ title: 'Theirs' }, other);
      await comment(foreignId, 'secret', { kind: 'team', name: 'Them' }, rows[0]!.id);

      const res = await detail(foreignId);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_FOUND);
      // The owner sees it.
      const own = await request(other, 'GET', `/api/v1/feedback/${foreignId}`);
      expect(own.status).to.equal(200);
      expect(own.body.feedback.comments).to.have.length(1);
    });
  });
}
