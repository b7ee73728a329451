import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { browse, sessionCookie } from '../helpers/team-forms.js';
import { request, withServer } from '../helpers/test-server.js';

/** The team's conversation posts over HTTP (docs/triage.md): replies to a comment, internal notes, pins, and their refusals. */
for (const backend of backends()) {
  describe(`team pages: the conversation (${backend.name})`, () => {
    const server = withServer(backend);
    let secretKey: string;
    let cookie: string;

    before(async () => {
      secretKey = await server.newKey(undefined, 'secret');
      const link = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: secretKey });
      cookie = sessionCookie(await browse(server, link.body.path));
    });

    async function itemWithQuestion(): Promise<{ id: string; question: string }> {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Team thread', endUser: { externalId: 'tc-user', name: 'Tia' } } });
      const id = created.body.feedback.id as string;
      const asked = await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'Any news?', endUser: { externalId: 'tc-user' } } });
      return { id, question: asked.body.comment.id as string };
    }

    const comments = async (id: string) => (await request(server, 'GET', `/api/v1/feedback/${id}/comments`, { apiKey: secretKey })).body.comments as { id: string; content: string; parentId: string | null; internal?: boolean; isPinned: boolean }[];

    it('when a member replies to a comment and writes an internal note, then the reply is in the thread, the note is internal, and the public API sees only the reply', async () => {
      const { id, question } = await itemWithQuestion();
      const replied = await browse(server, `/team/items/${id}/comments`, { method: 'POST', form: { reply: 'Next week.', parentId: question }, cookie });
      expect(replied.status, replied.text).to.equal(303);
      expect(replied.headers.get('location')).to.equal(`/team/items/${id}?done=reply`);
      const noted = await browse(server, `/team/items/${id}/comments`, { method: 'POST', form: { reply: 'Ask sales first.', internal: 'on' }, cookie });
      expect(noted.headers.get('location')).to.equal(`/team/items/${id}?done=noted`);
      const all = await comments(id);
      expect(all.find((c) => c.content === 'Next week.')).to.include({ parentId: question });
      expect(all.find((c) => c.content === 'Ask sales first.')).to.include({ internal: true });
      const publicView = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments as { content: string }[];
      expect(publicView.map((c) => c.content)).to.deep.equal(['Any news?', 'Next week.']);
      const page = await browse(server, `/team/items/${id}?done=noted`, { cookie });
      expect(page.text).to.include('Your internal note is saved. Only the team sees it.');
      expect(page.text).to.include('<span class="internal-badge">Private note: only the team sees it</span>');
    });

    it('when a member pins the team\'s reply and then unpins it, then the API says so each time; pinning an end user\'s comment or an unknown one is a 4xx page', async () => {
      const { id, question } = await itemWithQuestion();
      await browse(server, `/team/items/${id}/comments`, { method: 'POST', form: { reply: 'Shipped in 4.2.' }, cookie });
      const answer = (await comments(id)).find((c) => c.content === 'Shipped in 4.2.')!;
      const pinned = await browse(server, `/team/items/${id}/comments/${answer.id}/pin`, { method: 'POST', form: { pinned: 'true' }, cookie });
      expect(pinned.status).to.equal(303);
      expect(pinned.headers.get('location')).to.equal(`/team/items/${id}?done=pinned#comment-${answer.id}`);
      expect((await comments(id))[0]).to.include({ id: answer.id, isPinned: true });
      await browse(server, `/team/items/${id}/comments/${answer.id}/pin`, { method: 'POST', form: { pinned: 'false' }, cookie });
      expect((await comments(id)).every((c) => !c.isPinned)).to.equal(true);
      const users = await browse(server, `/team/items/${id}/comments/${question}/pin`, { method: 'POST', form: { pinned: 'true' }, cookie });
      expect(users.status).to.equal(400);
      const unknown = await browse(server, `/team/items/${id}/comments/not-a-comment/pin`, { method: 'POST', form: { pinned: 'true' }, cookie });
      expect(unknown.status).to.equal(404);
      const forged = await browse(server, `/team/items/${id}/comments/${answer.id}/pin`, { method: 'POST', form: { pinned: 'maybe' }, cookie });
      expect(forged.status).to.equal(400);
    });

    it('when a thread reply is empty or names a comment that is gone, then the page comes back (400) with what was typed', async () => {
      const { id, question } = await itemWithQuestion();
      const empty = await browse(server, `/team/items/${id}/comments`, { method: 'POST', form: { reply: '  ', parentId: question }, cookie });
      expect(empty.status).to.equal(400);
      expect(empty.text).to.match(/<details class="comment-reply" open>/);
      const gone = await browse(server, `/team/items/${id}/comments`, { method: 'POST', form: { reply: 'Kept text', parentId: '00000000-0000-4000-8000-000000000000' }, cookie });
      expect(gone.status).to.equal(400);
      expect(gone.text).to.include('The comment you replied to is no longer there');
      expect(gone.text).to.include('Kept text</textarea>');
    });
  });
}
