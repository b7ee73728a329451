import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { asEndUser, identitySecretOf } from '../helpers/end-user-token.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { request, withServer } from '../helpers/test-server.js';

type Caller = { url: string; apiKey: string };
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The conversation (issue 39): end users comment and reply, authors edit and delete, the team pins and writes notes. */
for (const backend of backends()) {
  describe(`comments (${backend.name})`, () => {
    const server = withServer(backend);
    let team: Caller;
    let otherPublic: Caller;
    let otherTeam: Caller;
    // The projects' identity secrets: a public key changes an end user's comment only with their signed token (docs/api.md, "Comments").
    let identity: string;
    let otherIdentity: string;
    before(async () => {
      team = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
      otherPublic = { url: server.url, apiKey: await server.newKey('comments-other', 'public') };
      otherTeam = { url: server.url, apiKey: await server.newKey('comments-other', 'secret') };
      identity = await identitySecretOf(server);
      otherIdentity = await identitySecretOf(server, 'comments-other');
    });
    /** The header that proves end user `externalId` of the default project, for one request. */
    const as = (externalId: string) => ({ headers: asEndUser(identity, externalId) });
    afterEach(async () => expectCountersExact(server));

    async function submit(caller: Caller = server): Promise<string> {
      const res = await request(caller, 'POST', '/api/v1/feedback', { body: { title: `Conversation ${Math.random()}` } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.feedback.id;
    }
    const comment = (id: string, body: Record<string, unknown>, caller: Caller = server) => request(caller, 'POST', `/api/v1/feedback/${id}/comments`, { body });
    const detail = async (id: string, caller: Caller = server) => (await request(caller, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
    const byUser = (externalId: string, content: string, extra: Record<string, unknown> = {}) => ({ content, endUser: { externalId }, ...extra });

    it('when an end user comments through a public key, then 201 with the comment (spec fields first, then the additions), the user is upserted and the detail shows it', async () => {
      const id = await submit();
      const res = await comment(id, { content: '  Same here  ', endUser: { externalId: 'ann', name: 'Ann', avatarUrl: 'https://example.com/a.png' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.commentCount).to.equal(1);
      const created = res.body.comment;
      expect(Object.keys(created)).to.deep.equal(['id', 'content', 'createdAt', 'author', 'parentId', 'editedAt', 'isPinned']);
      expect(created).to.deep.include({ content: 'Same here', parentId: null, editedAt: null, isPinned: false });
      expect(created.author).to.deep.equal({ name: 'Ann', avatarUrl: 'https://example.com/a.png', id: 'ann' });
      const item = await detail(id);
      expect(item.commentCount).to.equal(1);
      expect(item.comments).to.deep.equal([created]);
      const [user] = await server.sql<{ name: string }>(`select name from end_users where external_id = 'ann'`);
      expect(user!.name).to.equal('Ann');
    });

    it('when a public key asks for a team comment, an internal note or a pin, then 403 and nothing is written', async () => {
      const id = await submit();
      for (const body of [{ content: 'x', team: { name: 'Support' } }, { content: 'x', internal: true }, { content: 'x', pin: true }]) {
        const res = await comment(id, body);
        expect(res.status, JSON.stringify(body)).to.equal(403);
        expect(res.body).to.deep.equal({ error: 'Team comments, internal notes and pins require a secret key' });
      }
      expect((await detail(id)).comments).to.deep.equal([]);
    });

    it('when anonymous comments are off (the default), then an anonymous comment is 403; when turned on through PATCH /api/v1/board, then it is accepted with a null author', async () => {
      const id = await submit();
      const refused = await comment(id, { content: 'Anonymous thought' });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({ error: 'Anonymous comments are off for this project: give endUser' });
      expect((await request(team, 'GET', '/api/v1/board')).body.anonymousComments).to.equal(false);
      const on = await request(team, 'PATCH', '/api/v1/board', { body: { anonymousComments: true } });
      expect(on.status, JSON.stringify(on.body)).to.equal(200);
      expect(on.body.anonymousComments).to.equal(true);
      try {
        const accepted = await comment(id, { content: 'Anonymous thought' });
        expect(accepted.status).to.equal(201);
        expect(accepted.body.comment.author).to.equal(null);
        expect((await detail(id)).commentCount).to.equal(1);
      } finally {
        await request(team, 'PATCH', '/api/v1/board', { body: { anonymousComments: false } });
      }
      expect((await comment(id, { content: 'Again' })).status).to.equal(403);
    });

    it('when the content is empty, blank, over 4,000 characters or not a string, then 400 with the spec error shape under fieldErrors.content; 4,000 is accepted', async () => {
      const id = await submit();
      for (const content of ['', '   ', 'x'.repeat(4001), 42]) {
        const res = await comment(id, { content, endUser: { externalId: 'ann' } });
        expect(res.status, String(content).slice(0, 10)).to.equal(400);
        expect(res.body.error).to.equal('Invalid input');
        expect(res.body.details.formErrors).to.be.an('array');
        expect(res.body.details.fieldErrors.content).to.have.length.greaterThan(0);
      }
      expect((await comment(id, { content: 'x'.repeat(4000), endUser: { externalId: 'ann' } })).status).to.equal(201);
      expect((await comment(id, { content: `  ${'x'.repeat(4000)}  `, endUser: { externalId: 'ann' } })).status, 'trimmed first').to.equal(201);
    });

    it('when the item is unknown, malformed or of another project, then 404 "Feedback not found"', async () => {
      const theirs = await submit(otherPublic);
      for (const id of [UNKNOWN_ID, 'nope', theirs]) {
        const res = await comment(id, byUser('ann', 'Hello'));
        expect(res.status, id).to.equal(404);
        expect(res.body).to.deep.equal({ error: 'Feedback not found' });
      }
    });

    it('when a reply names a top-level comment, then it carries parentId; a reply to a reply is attached to the top-level comment', async () => {
      const id = await submit();
      const top = (await comment(id, byUser('ann', 'Top'))).body.comment;
      const reply = await comment(id, byUser('bob', 'Reply', { parentId: top.id }));
      expect(reply.status).to.equal(201);
      expect(reply.body.comment.parentId).to.equal(top.id);
      const nested = await comment(id, byUser('ann', 'Reply to reply', { parentId: reply.body.comment.id }));
      expect(nested.body.comment.parentId).to.equal(top.id);
      expect(nested.body.commentCount).to.equal(3);
      expect((await detail(id)).comments.map((c: { content: string }) => c.content)).to.deep.equal(['Top', 'Reply', 'Reply to reply']);
    });

    it('when parentId is unknown, malformed or a comment of another item, then 400 under fieldErrors.parentId and nothing is written', async () => {
      const id = await submit();
      const elsewhere = await submit();
      const foreign = (await comment(elsewhere, byUser('ann', 'Elsewhere'))).body.comment.id;
      for (const parentId of [UNKNOWN_ID, 'not-a-uuid', foreign]) {
        const res = await comment(id, byUser('ann', 'Reply', { parentId }));
        expect(res.status, parentId).to.equal(400);
        expect(res.body.error).to.equal('Invalid input');
        expect(res.body.details.fieldErrors.parentId).to.have.length(1);
      }
      expect((await detail(id)).commentCount).to.equal(0);
    });

    it('when an author edits their comment, then the content and editedAt change and the team reads the previous content in its history', async () => {
      const id = await submit();
      const created = (await comment(id, byUser('ann', 'First words'))).body.comment;
      const path = `/api/v1/feedback/${id}/comments/${created.id}`;
      const edited = await request(server, 'PATCH', path, { body: { content: 'Second words', endUserId: 'ann' }, ...as('ann') });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      expect(edited.body.comment).to.include({ id: created.id, content: 'Second words' });
      expect(edited.body.comment.editedAt).to.be.a('string');
      expect(edited.body.comment).to.not.have.property('internal');
      await request(server, 'PATCH', path, { body: { content: 'Third words', endUserId: 'ann' }, ...as('ann') });
      const history = await request(team, 'GET', `${path}/history`);
      expect(history.status).to.equal(200);
      expect(history.body.comment.content).to.equal('Third words');
      expect(history.body.revisions.map((r: { content: string }) => r.content)).to.deep.equal(['First words', 'Second words']);
      expect(history.body.revisions[0].writtenAt).to.equal(created.createdAt);
      expect((await request(server, 'GET', `${path}/history`)).status, 'the history is the team\'s').to.equal(403);
      expect((await detail(id)).comments[0].content).to.equal('Third words');
    });

    it('when someone else edits or deletes a comment, or a public key gives no endUserId, then 403 and nothing changes', async () => {
      const id = await submit();
      const created = (await comment(id, byUser('ann', 'Mine'))).body.comment;
      const path = `/api/v1/feedback/${id}/comments/${created.id}`;
      const edit = await request(server, 'PATCH', path, { body: { content: 'Hijacked', endUserId: 'bob' }, ...as('bob') });
      expect(edit.status).to.equal(403);
      expect(edit.body).to.deep.equal({ error: 'Only the author of this comment can change it' });
      expect((await request(server, 'DELETE', `${path}?endUserId=bob`, as('bob'))).status).to.equal(403);
      const anonymous = await request(server, 'PATCH', path, { body: { content: 'Hijacked' } });
      expect(anonymous.status).to.equal(403);
      expect(anonymous.body).to.deep.equal({ error: 'This operation requires a secret key' });
      expect((await request(server, 'DELETE', path)).status).to.equal(403);
      expect((await detail(id)).comments[0].content).to.equal('Mine');
    });

    it('when the team has replied to a comment or below it in its thread, then its author gets 403 on edit and delete; before that the author may delete it', async () => {
      const id = await submit();
      const top = (await comment(id, byUser('ann', 'Question'))).body.comment;
      const early = (await comment(id, byUser('bob', 'Me too', { parentId: top.id }))).body.comment;
      const note = await comment(id, { content: 'Internal: check logs', team: { name: 'Support' }, internal: true, parentId: top.id }, team);
      expect(note.status).to.equal(201);
      // An internal note is not an answer the author can see: they may still edit.
      expect((await request(server, 'PATCH', `/api/v1/feedback/${id}/comments/${top.id}`, { body: { content: 'Question, edited', endUserId: 'ann' }, ...as('ann') })).status).to.equal(200);
      expect((await comment(id, { content: 'Fixed in 2.1', team: { name: 'Support' }, parentId: top.id }, team)).status).to.equal(201);
      const late = (await comment(id, byUser('bob', 'Thanks', { parentId: top.id }))).body.comment;
      for (const [who, target] of [['ann', top.id], ['bob', early.id]] as const) {
        const path = `/api/v1/feedback/${id}/comments/${target}`;
        const edit = await request(server, 'PATCH', path, { body: { content: 'Changed', endUserId: who }, ...as(who) });
        expect(edit.status, who).to.equal(403);
        expect(edit.body).to.deep.equal({ error: 'The team has replied to this comment: it can no longer be edited or deleted' });
        expect((await request(server, 'DELETE', `${path}?endUserId=${who}`, as(who))).status, who).to.equal(403);
      }
      // A reply after the team's answer is still its author's.
      const removed = await request(server, 'DELETE', `/api/v1/feedback/${id}/comments/${late.id}?endUserId=bob`, as('bob'));
      expect(removed.status).to.equal(200);
      expect(removed.body).to.include({ id: late.id, deleted: true, repliesDeleted: 0, commentCount: 3 });
    });

    it('when a top-level comment is deleted, then its replies go with it and commentCount counts only the visible ones left', async () => {
      const id = await submit();
      const top = (await comment(id, byUser('ann', 'Top'))).body.comment;
      await comment(id, byUser('bob', 'Reply', { parentId: top.id }));
      const note = (await comment(id, { content: 'Note', team: { name: 'Support' }, internal: true, parentId: top.id }, team)).body.comment;
      const kept = (await comment(id, byUser('cy', 'Other'))).body.comment;
      const res = await request(server, 'DELETE', `/api/v1/feedback/${id}/comments/${top.id}?endUserId=ann`, as('ann'));
      expect(res.status).to.equal(200);
      // The author's delete takes the visible reply, never the team's note (issue 49): it stays, at the top level.
      expect(res.body).to.deep.equal({ id: top.id, deleted: true, repliesDeleted: 1, commentCount: 1 });
      expect((await detail(id)).comments.map((c: { id: string }) => c.id)).to.deep.equal([kept.id]);
      expect((await detail(id, team)).comments.map((c: { id: string }) => c.id)).to.deep.equal([note.id, kept.id]);
      expect((await request(server, 'DELETE', `/api/v1/feedback/${id}/comments/${top.id}?endUserId=ann`, as('ann'))).status).to.equal(404);
    });

    it('when an end user deletes their comment with the team\'s internal notes under it (issue 49, finding 3: an end user\'s delete destroyed the team\'s notes and revealed them), then the answer counts no note and the notes stay for the team alone, as a thread of their own', async () => {
      for (const caller of [server, team]) {
        const id = await submit();
        const top = (await comment(id, byUser('ann', 'Please call me'))).body.comment;
        const first = (await comment(id, { content: 'Big customer: ask sales', team: { name: 'Support' }, internal: true, parentId: top.id }, team)).body.comment;
        const second = (await comment(id, { content: 'Sales says yes', team: { name: 'Sales' }, parentId: first.id }, team)).body.comment;
        expect(second).to.include({ parentId: top.id, internal: true });

        // Either key, as the author: a public key (the finding; with the end user's token) or a secret key acting for the end user.
        const res = await request(caller, 'DELETE', `/api/v1/feedback/${id}/comments/${top.id}?endUserId=ann`, caller === server ? as('ann') : {});
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.deep.equal({ id: top.id, deleted: true, repliesDeleted: 0, commentCount: 0 });

        const seen = await detail(id);
        expect(seen.commentCount).to.equal(0);
        expect(seen.comments).to.deep.equal([]);
        expect((await request(server, 'GET', `/api/v1/feedback/${id}/comments`)).body.comments).to.deep.equal([]);
        // The team's view: both notes, word for word, the oldest now at the top level and the other its reply.
        const notes = (await detail(id, team)).comments as { id: string; content: string; parentId: string | null; internal?: boolean }[];
        expect(notes.map(({ id: noteId, content, parentId, internal }) => ({ id: noteId, content, parentId, internal }))).to.deep.equal([
          { id: first.id, content: 'Big customer: ask sales', parentId: null, internal: true },
          { id: second.id, content: 'Sales says yes', parentId: first.id, internal: true },
        ]);
        expect((await detail(id, team)).commentCount, 'notes are never counted').to.equal(0);
        const history = await request(team, 'GET', `/api/v1/feedback/${id}/comments/${first.id}/history`);
        expect(history.status).to.equal(200);
        // The notes are still unreachable to a public key.
        expect((await request(server, 'DELETE', `/api/v1/feedback/${id}/comments/${first.id}?endUserId=ann`, as('ann'))).status).to.equal(404);
      }
    });

    it('when the team deletes a comment with an internal note under it, then the note goes with it and the team\'s answer counts it', async () => {
      const id = await submit();
      const top = (await comment(id, byUser('ann', 'Spam'))).body.comment;
      await comment(id, byUser('bob', 'Reply', { parentId: top.id }));
      await comment(id, { content: 'Blocked this one', team: { name: 'Support' }, internal: true, parentId: top.id }, team);
      const res = await request(team, 'DELETE', `/api/v1/feedback/${id}/comments/${top.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ id: top.id, deleted: true, repliesDeleted: 2, commentCount: 0 });
      expect((await detail(id, team)).comments).to.deep.equal([]);
    });

    it('when the team pins a comment, then it is listed first with isPinned; pinning another unpins the first; an end user comment cannot be pinned', async () => {
      const id = await submit();
      const first = (await comment(id, byUser('ann', 'Question'))).body.comment;
      const answer = await comment(id, { content: 'The answer', team: { name: 'Support' }, pin: true }, team);
      expect(answer.status).to.equal(201);
      expect(answer.body.comment).to.include({ isPinned: true }).and.not.have.property('internal');
      let comments = (await detail(id)).comments;
      expect(comments.map((c: { content: string; isPinned: boolean }) => [c.content, c.isPinned])).to.deep.equal([['The answer', true], ['Question', false]]);
      const better = (await comment(id, { content: 'A better answer', team: { name: 'Support' } }, team)).body.comment;
      const pinned = await request(team, 'PATCH', `/api/v1/feedback/${id}/comments/${better.id}`, { body: { pinned: true } });
      expect(pinned.status, JSON.stringify(pinned.body)).to.equal(200);
      expect(pinned.body.comment.isPinned).to.equal(true);
      comments = (await detail(id)).comments;
      expect(comments.filter((c: { isPinned: boolean }) => c.isPinned).map((c: { id: string }) => c.id)).to.deep.equal([better.id]);
      expect(comments[0].id).to.equal(better.id);
      const refused = await request(team, 'PATCH', `/api/v1/feedback/${id}/comments/${first.id}`, { body: { pinned: true } });
      expect(refused.status).to.equal(400);
      expect(refused.body.details.fieldErrors.pinned).to.have.length(1);
      expect((await request(server, 'PATCH', `/api/v1/feedback/${id}/comments/${better.id}`, { body: { pinned: false, endUserId: 'ann' } })).status).to.equal(403);
    });

    it('when the team writes an internal note, then the public detail, list, commentCount and the comments route never show it; a secret key sees it marked internal', async () => {
      const id = await submit();
      await comment(id, byUser('ann', 'Visible'));
      const note = await comment(id, { content: 'Secret note', team: { name: 'Support' }, internal: true }, team);
      expect(note.status).to.equal(201);
      expect(note.body.commentCount).to.equal(1);
      const item = await detail(id);
      expect(item.commentCount).to.equal(1);
      expect(JSON.stringify(item)).to.not.include('Secret note');
      const list = (await request(server, 'GET', '/api/v1/feedback?limit=100')).body.items.find((i: { id: string }) => i.id === id);
      expect(list.commentCount).to.equal(1);
      expect(JSON.stringify((await request(server, 'GET', `/api/v1/feedback/${id}/comments`)).body)).to.not.include('Secret note');
      const secret = await detail(id, team);
      expect(secret.comments.map((c: { content: string; internal?: boolean }) => [c.content, c.internal])).to.deep.equal([['Visible', undefined], ['Secret note', true]]);
      // A public key cannot reach it by id either.
      const path = `/api/v1/feedback/${id}/comments/${note.body.comment.id}`;
      expect((await request(server, 'DELETE', `${path}?endUserId=ann`, as('ann'))).status).to.equal(404);
      expect((await comment(id, byUser('ann', 'Reply', { parentId: note.body.comment.id }))).status).to.equal(400);
    });

    it("when a key of another project names this project's item or comment, then 404 and nothing changes", async () => {
      const id = await submit();
      const created = (await comment(id, byUser('ann', 'Ours'))).body.comment;
      const path = `/api/v1/feedback/${id}/comments/${created.id}`;
      expect((await request(otherPublic, 'GET', `/api/v1/feedback/${id}/comments`)).status).to.equal(404);
      expect((await comment(id, byUser('ann', 'Theirs'), otherPublic)).status).to.equal(404);
      expect((await request(otherPublic, 'PATCH', path, { body: { content: 'x', endUserId: 'ann' }, headers: asEndUser(otherIdentity, 'ann', 'comments-other') })).status).to.equal(404);
      expect((await request(otherTeam, 'DELETE', path)).status).to.equal(404);
      expect((await request(otherTeam, 'GET', `${path}/history`)).status).to.equal(404);
      expect((await detail(id)).comments.map((c: { content: string }) => c.content)).to.deep.equal(['Ours']);
    });

    it('when 40 end users comment and reply at once while the team deletes a thread and writes notes, then commentCount equals the visible comments left', async () => {
      const id = await submit();
      const top = (await comment(id, byUser('ann', 'Thread'))).body.comment;
      const writes = Array.from({ length: 40 }, (_, i) => comment(id, byUser(`crowd-${i}`, `Voice ${i}`, i % 2 === 0 ? { parentId: top.id } : {})));
      const notes = Array.from({ length: 5 }, (_, i) => comment(id, { content: `Note ${i}`, team: { name: 'Ops' }, internal: true }, team));
      const removal = request(team, 'DELETE', `/api/v1/feedback/${id}/comments/${top.id}`);
      const answers = await Promise.all([...writes, ...notes, removal]);
      // A reply may arrive after its thread is gone: a 400 (no such parent), never a 500 or a lost count.
      for (const answer of answers) expect([200, 201, 400], JSON.stringify(answer.body)).to.include(answer.status);
      const [row] = await server.sql<{ visible: number }>('select count(*)::int as visible from comments where feedback_id = ? and not is_internal', [id]);
      expect((await detail(id)).commentCount).to.equal(row!.visible);
      expect((await detail(id)).comments).to.have.length(row!.visible);
    });

    it('when a secret key comments without an author, then 400 as before; with one, the team comment keeps its spec shape', async () => {
      const id = await submit();
      const none = await comment(id, { content: 'Who?' }, team);
      expect(none.status).to.equal(400);
      expect(none.body.details.fieldErrors.team).to.have.length(1);
      const res = await comment(id, { content: 'From us', team: { name: 'Support' } }, team);
      expect(res.status).to.equal(201);
      expect(res.body.comment.author).to.deep.equal({ name: 'Support', isTeam: true });
    });
  });
}
