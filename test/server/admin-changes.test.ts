import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { expectCountersExact, expectListTotalsExact } from '../helpers/invariants.js';
import { request, withServer } from '../helpers/test-server.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const NOT_FOUND = { error: 'Feedback not found' };
const COMMENT_NOT_FOUND = { error: 'Comment not found' };

type Caller = { url: string; apiKey: string };

/** The operator's endpoints, one at a time (issue 9 §2): answers, 400s with field errors, 404s, counters. */
for (const backend of backends()) {
  describe(`operator endpoints (${backend.name})`, () => {
    const server = withServer(backend);
    let ops: Caller;
    let otherProject: Caller;
    before(async () => {
      ops = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
      otherProject = { url: server.url, apiKey: await server.newKey('other-project', 'secret') };
    });
    afterEach(async () => expectCountersExact(server));

    async function submit(title: string, body: Record<string, unknown> = {}): Promise<string> {
      const res = await request(server, 'POST', '/api/v1/feedback', { body: { title, ...body } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.feedback.id;
    }
    const detail = async (id: string, caller: Caller = server) => (await request(caller, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
    const vote = (id: string, externalId: string) => request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId } } });

    /** The three ids that name no item of the caller's project. */
    const missingIds = async () => ['not-a-uuid', UNKNOWN_ID, await submit('Of the default project').then(async (id) => id)];

    describe('PATCH /api/v1/feedback/:id', () => {
      it('when the status, title, description and type change, then the answer is the secret detail and each status change is in statusHistory, oldest first', async () => {
        const id = await submit('Export to CSV', { description: 'For reports', type: 'bug' });
        const first = await request(ops, 'PATCH', `/api/v1/feedback/${id}`, { body: { status: 'under-review' } });
        expect(first.status).to.equal(200);
        expect(first.body.feedback).to.include({ id, status: 'under-review', title: 'Export to CSV', type: 'bug', voteCount: 1 });
        const second = await request(ops, 'PATCH', `/api/v1/feedback/${id}`, {
          body: { status: 'planned', title: '  Export to CSV and XLSX ', description: null, type: 'idea', actor: ' Ada ' },
        });
        expect(second.body.feedback).to.include({ status: 'planned', title: 'Export to CSV and XLSX', description: null, type: 'idea' });
        const history = second.body.feedback.statusHistory;
        expect(history.map((h: { from: string; to: string; actor: string | null }) => [h.from, h.to, h.actor])).to.deep.equal([
          ['new', 'under-review', null],
          ['under-review', 'planned', 'Ada'],
        ]);
        const keyId = (await server.server.orm.em.fork().execute<{ id: string }[]>(`select id from api_keys where key_prefix = ?`, [ops.apiKey.slice(0, 9)]))[0]!.id;
        expect(history[1]).to.include({ keyId, keyPrefix: ops.apiKey.slice(0, 9) });
        expect(Date.parse(history[1].changedAt)).to.be.at.least(Date.parse(history[0].changedAt));
        expect(await detail(id)).to.include({ status: 'planned', type: 'idea' }).and.not.have.property('statusHistory');
        await expectListTotalsExact(server);
      });

      it('when the status is set to the one the item has, or only the title changes, then no status change is recorded', async () => {
        const id = await submit('No change of status');
        const same = await request(ops, 'PATCH', `/api/v1/feedback/${id}`, { body: { status: 'new', title: 'Renamed' } });
        expect(same.status).to.equal(200);
        expect(same.body.feedback).to.include({ status: 'new', title: 'Renamed' });
        expect(same.body.feedback.statusHistory).to.deep.equal([]);
      });

      it('when the title or description changes, then search finds the item by its new text and no longer by its old', async () => {
        const stamp = Date.now();
        const [oldWord, newWord, described] = [`Quokkaold${stamp}`, `Quokkanew${stamp}`, `Quokkadesc${stamp}`] as const;
        const id = await submit(`Rename ${oldWord}`);
        const search = async (word: string) => (await request(server, 'GET', `/api/v1/feedback?search=${word.toUpperCase()}`)).body.items.map((item: { id: string }) => item.id);
        expect(await search(oldWord)).to.deep.equal([id]);
        expect((await request(ops, 'PATCH', `/api/v1/feedback/${id}`, { body: { title: `Rename ${newWord}`, description: `Now with ${described}` } })).status).to.equal(200);
        expect(await search(oldWord)).to.deep.equal([]);
        expect(await search(newWord)).to.deep.equal([id]);
        expect(await search(described)).to.deep.equal([id]);
        expect((await request(ops, 'PATCH', `/api/v1/feedback/${id}`, { body: { description: null } })).status).to.equal(200);
        expect(await search(described)).to.deep.equal([]);
        expect(await search(newWord)).to.deep.equal([id]);
      });

      it('when the body is invalid, then 400 with the spec error shape and a message per field, and nothing changes', async () => {
        const id = await submit('Invalid changes');
        const cases: [unknown, Record<string, string[]>, string[]][] = [
          [{ status: 'shipped' }, { status: ['Status must be one of: new, under-review, planned, in-progress, completed, closed'] }, []],
          [{ type: 'feature', title: '' }, { title: ['Title is required'], type: ['Type must be one of: bug, idea, question, other'] }, []],
          [{ title: 'x'.repeat(201) }, { title: ['Title must be at most 200 characters'] }, []],
          [{ status: 'planned', actor: 5 }, { actor: ['actor must be a string'] }, []],
          [{}, {}, ['Give at least one of status, title, description or type']],
          [{ actor: 'Ada', voteCount: 9 }, {}, ['Give at least one of status, title, description or type']],
        ];
        for (const [body, fieldErrors, formErrors] of cases) {
          const res = await request(ops, 'PATCH', `/api/v1/feedback/${id}`, { body });
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body).to.deep.equal({ error: 'Invalid input', details: { formErrors, fieldErrors } });
        }
        expect(await detail(id, ops)).to.include({ status: 'new', title: 'Invalid changes' }).and.have.property('statusHistory').that.deep.equals([]);
      });

      it("when the id is malformed, unknown or another project's, then 404 Feedback not found", async () => {
        for (const id of await missingIds()) {
          const res = await request(otherProject, 'PATCH', `/api/v1/feedback/${id}`, { body: { status: 'closed' } });
          expect(res.status, id).to.equal(404);
          expect(res.body).to.deep.equal(NOT_FOUND);
        }
      });
    });

    describe('DELETE /api/v1/feedback/:id', () => {
      it('when an item with votes, comments and history is deleted, then it answers 404 afterwards, its rows are gone and the totals follow', async () => {
        const id = await submit('To be deleted', { type: 'question' });
        await vote(id, 'deleter-voter');
        await request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'Noted', team: { name: 'Support' } } });
        await request(ops, 'PATCH', `/api/v1/feedback/${id}`, { body: { status: 'closed' } });
        const res = await request(ops, 'DELETE', `/api/v1/feedback/${id}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ id, deleted: true });
        expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body).to.deep.equal(NOT_FOUND);
        expect((await vote(id, 'late-voter')).status).to.equal(404);
        const again = await request(ops, 'DELETE', `/api/v1/feedback/${id}`);
        expect(again.status, 'a second delete').to.equal(404);
        expect(again.body).to.deep.equal(NOT_FOUND);
        const left = await server.server.orm.em.fork().execute<{ n: number }[]>(
          `select (select count(*) from votes where feedback_id = ?) + (select count(*) from comments where feedback_id = ?)
                + (select count(*) from feedback_status_changes where feedback_id = ?) as n`,
          [id, id, id],
        );
        expect(Number(left[0]!.n)).to.equal(0);
        await expectListTotalsExact(server);
      });

      it("when the id is malformed, unknown or another project's, then 404 and the item stays", async () => {
        const ids = await missingIds();
        for (const id of ids) expect((await request(otherProject, 'DELETE', `/api/v1/feedback/${id}`)).body, id).to.deep.equal(NOT_FOUND);
        expect((await request(server, 'GET', `/api/v1/feedback/${ids[2]}`)).status).to.equal(200);
      });
    });

    describe('POST /api/v1/feedback/:id/comments and DELETE /api/v1/feedback/:id/comments/:commentId', () => {
      it('when the team and an end user comment, then 201 with the comment as the detail shows it, and commentCount counts them', async () => {
        const id = await submit('Commented');
        await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'known-commenter', name: 'Kim', avatarUrl: 'https://example.com/k.png' } });
        const team = await request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: '  Planned for March. ', team: { name: 'Support team' } } });
        expect(team.status).to.equal(201);
        expect(team.body.commentCount).to.equal(1);
        expect(team.body.comment).to.include({ content: 'Planned for March.' });
        expect(team.body.comment.author).to.deep.equal({ name: 'Support team', isTeam: true });
        const known = await request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'Thanks!', endUser: { externalId: 'known-commenter' } } });
        expect(known.body.comment.author, 'a known user keeps the profile identify stored').to.deep.equal({ name: 'Kim', avatarUrl: 'https://example.com/k.png', id: 'known-commenter' });
        const created = await request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'Me too', endUser: { externalId: 'new-commenter', name: 'Noa' } } });
        expect(created.body).to.include({ commentCount: 3 });
        expect(created.body.comment.author).to.deep.equal({ name: 'Noa', avatarUrl: null, id: 'new-commenter' });
        const shown = await detail(id);
        expect(shown.commentCount).to.equal(3);
        expect(shown.comments).to.deep.equal([team.body.comment, known.body.comment, created.body.comment]);
      });

      it('when a comment is deleted, then 200 with the new count, it leaves the detail, and deleting it again is 404 Comment not found', async () => {
        const id = await submit('Comment deleted');
        const added = await request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'Oops', team: { name: 'Support' } } });
        const commentId = added.body.comment.id;
        const res = await request(ops, 'DELETE', `/api/v1/feedback/${id}/comments/${commentId}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ id: commentId, deleted: true, repliesDeleted: 0, commentCount: 0 });
        expect(await detail(id)).to.include({ commentCount: 0 }).and.have.property('comments').that.deep.equals([]);
        expect((await request(ops, 'DELETE', `/api/v1/feedback/${id}/comments/${commentId}`)).body).to.deep.equal(COMMENT_NOT_FOUND);
      });

      it("when the item is missing, then 404 Feedback not found; when the comment is malformed, unknown or another item's, then 404 Comment not found", async () => {
        const [a, b] = [await submit('Comments of A'), await submit('Comments of B')];
        const onA = (await request(ops, 'POST', `/api/v1/feedback/${a}/comments`, { body: { content: 'On A', team: { name: 'T' } } })).body.comment.id;
        for (const id of await missingIds()) {
          const res = await request(otherProject, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'Hi', endUser: { externalId: 'ghost' } } });
          expect(res.status, id).to.equal(404);
          expect(res.body).to.deep.equal(NOT_FOUND);
          expect((await request(otherProject, 'DELETE', `/api/v1/feedback/${id}/comments/${onA}`)).body).to.deep.equal(NOT_FOUND);
        }
        const ghosts = await server.server.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from end_users where external_id = 'ghost'`);
        expect(ghosts[0]!.n, 'no end user is created for a missing item').to.equal(0);
        for (const commentId of ['nope', UNKNOWN_ID, onA]) {
          const res = await request(ops, 'DELETE', `/api/v1/feedback/${b}/comments/${commentId}`);
          expect(res.status).to.equal(404);
          expect(res.body).to.deep.equal(COMMENT_NOT_FOUND);
        }
        expect((await detail(a)).commentCount).to.equal(1);
      });

      it('when the comment body is invalid, then 400 with a message per field', async () => {
        const id = await submit('Invalid comments');
        const cases: [unknown, Record<string, string[]>][] = [
          [{ team: { name: 'T' } }, { content: ['Content is required'] }],
          [{ content: '   ', team: { name: 'T' } }, { content: ['Content is required'] }],
          [{ content: 'x'.repeat(10_001), team: { name: 'T' } }, { content: ['Content must be at most 10000 characters'] }],
          [{ content: 'Hi' }, { team: ['A comment needs an author: team or endUser'] }],
          [{ content: 'Hi', team: { name: 'T' }, endUser: { externalId: 'u' } }, { team: ['Give team or endUser, not both'] }],
          [{ content: 'Hi', team: { name: ' ' } }, { team: ['name is required'] }],
          [{ content: 'Hi', team: 'Support' }, { team: ['team must be an object with a name'] }],
          [{ content: 'Hi', endUser: { email: 'x@example.com' } }, { endUser: ['externalId is required'] }],
        ];
        for (const [body, fieldErrors] of cases) {
          const res = await request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body });
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body).to.deep.equal({ error: 'Invalid input', details: { formErrors: [], fieldErrors } });
        }
        expect((await detail(id)).commentCount).to.equal(0);
      });
    });

    describe('POST /api/v1/feedback/:id/merge', () => {
      it('when a duplicate is merged, then its votes move without counting a voter twice, its comments move, and it answers 404', async () => {
        const original = await submit('Dark mode', { endUser: { externalId: 'alice' } });
        const duplicate = await submit('Dark theme please', { endUser: { externalId: 'bob' }, type: 'bug' });
        for (const voter of ['carol', 'dave']) await vote(original, voter);
        for (const voter of ['carol', 'erin', 'alice']) await vote(duplicate, voter);
        await request(ops, 'POST', `/api/v1/feedback/${original}/comments`, { body: { content: 'On the original', team: { name: 'T' } } });
        await request(ops, 'POST', `/api/v1/feedback/${duplicate}/comments`, { body: { content: 'On the duplicate', endUser: { externalId: 'bob' } } });
        await request(ops, 'PATCH', `/api/v1/feedback/${original}`, { body: { status: 'planned' } });

        const res = await request(ops, 'POST', `/api/v1/feedback/${duplicate}/merge`, { body: { intoId: original.toUpperCase() } });
        expect(res.status).to.equal(200);
        // Voters: alice, carol, dave on the original; bob and erin are new to it (carol and alice voted on both).
        expect(res.body.merged).to.deep.equal({ id: duplicate, votesMoved: 2, commentsMoved: 1 });
        expect(res.body.feedback).to.include({ id: original, voteCount: 5, commentCount: 2, status: 'planned' });
        expect(res.body.feedback.comments.map((c: { content: string }) => c.content)).to.deep.equal(['On the original', 'On the duplicate']);
        expect(res.body.feedback.statusHistory).to.have.length(1);
        expect((await request(server, 'GET', `/api/v1/feedback/${duplicate}`)).body).to.deep.equal(NOT_FOUND);
        for (const voter of ['alice', 'bob', 'carol', 'dave', 'erin']) {
          expect((await request(server, 'GET', `/api/v1/feedback/${original}/vote?endUserId=${voter}`)).body, voter).to.deep.equal({ voted: true, voteCount: 5 });
        }
        expect((await vote(original, 'bob')).body, 'a moved vote toggles like any other').to.deep.equal({ voted: false, voteCount: 4 });
        expect((await request(ops, 'POST', `/api/v1/feedback/${duplicate}/merge`, { body: { intoId: original } })).body, 'merging again').to.deep.equal(NOT_FOUND);
        await expectListTotalsExact(server);
      });

      it('when an item is merged into itself, or intoId is missing or malformed, then 400 with fieldErrors.intoId', async () => {
        const id = await submit('Merged into itself');
        const cases: [unknown, string][] = [
          [{ intoId: id }, 'intoId must be another item than the one merged'],
          [{}, 'intoId is required'],
          [{ intoId: 7 }, 'intoId must be a string'],
          [{ intoId: 'dark-mode' }, 'intoId must be the id of a feedback item'],
        ];
        for (const [body, message] of cases) {
          const res = await request(ops, 'POST', `/api/v1/feedback/${id}/merge`, { body });
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body).to.deep.equal({ error: 'Invalid input', details: { formErrors: [], fieldErrors: { intoId: [message] } } });
        }
        expect((await detail(id)).voteCount).to.equal(1);
      });

      it("when either item is unknown or another project's, then 404 Feedback not found and both stay as they were", async () => {
        const [a, mine] = [await submit('Merge source'), (await request(otherProject, 'POST', '/api/v1/feedback', { body: { title: 'Other project' } })).body.feedback.id];
        for (const [from, into] of [[a, UNKNOWN_ID], [UNKNOWN_ID, a], ['nope', a], [mine, a]]) {
          const res = await request(otherProject, 'POST', `/api/v1/feedback/${from}/merge`, { body: { intoId: into } });
          expect(res.status, `${from} into ${into}`).to.equal(404);
          expect(res.body).to.deep.equal(NOT_FOUND);
        }
        expect((await request(ops, 'POST', `/api/v1/feedback/${a}/merge`, { body: { intoId: mine } })).body).to.deep.equal(NOT_FOUND);
        expect((await detail(a)).voteCount).to.equal(1);
        expect((await detail(mine, otherProject)).voteCount).to.equal(1);
      });
    });
  });
}
