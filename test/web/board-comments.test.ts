import { expect } from 'chai';
import { boardSignInLink } from '@feedbackd/sdk/board';
import { changeIdentitySecret, setAnonymousComments } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { browse, sessionCookie, type Page } from '../helpers/team-forms.js';
import { sampleSum, scrape } from '../helpers/metrics-text.js';
import { guardFields } from '../helpers/form-guard.js';
import { request, withServer, type TestServer, SHORT_BOARD_PROJECT_CACHE_TTL_MS } from '../helpers/test-server.js';

/** The board's conversation posts (docs/board.md, "Conversation" and "Spam"), as a browser without script sends them. */

const guardOf = (page: Page, form?: string) => guardFields(page.text, form);

const itemPath = (id: string) => `/b/default/items/${id}`;

/** The visitor's session cookie, from a sign-in link of the host app. */
async function signIn(server: TestServer, secret: string, user: { externalId: string; name?: string }): Promise<string> {
  const link = new URL(boardSignInLink({ serverUrl: server.url, project: 'default', secret, user }));
  const answer = await browse(server, link.pathname + link.search);
  expect(answer.status, answer.text).to.equal(303);
  return answer.headers.get('set-cookie')!.split(';')[0]!;
}

for (const backend of backends()) {
  describe(`board: comments (${backend.name})`, () => {
    const server = withServer(backend, { metricsPort: 0, boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });
    let secretKey: string;
    let identity: string;

    before(async () => {
      secretKey = await server.newKey(undefined, 'secret');
      identity = ((await changeIdentitySecret(server.server.orm.em.fork(), 'default', 'rotate')) as { secret: string }).secret;
      await server.boardSettingsSeen();
    });

    async function newItem(title: string): Promise<string> {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId: 'comments-submitter' } } });
      expect(created.status).to.equal(201);
      return created.body.feedback.id as string;
    }

    async function anonymousComments(on: boolean): Promise<void> {
      await setAnonymousComments(server.server.orm.em.fork(), 'default', on);
      await server.boardSettingsSeen();
    }

    /** Posts a comment (or a reply) as a form does, with the guard's fields of the page first read. */
    async function comment(id: string, content: string, extra: { cookie?: string; parentId?: string; accept?: string } = {}): Promise<Page> {
      const page = await browse(server, itemPath(id), { cookie: extra.cookie });
      const guard = guardOf(page, extra.parentId ? `reply-${extra.parentId}` : 'comment');
      const form = { ...guard, content, ...(extra.parentId ? { parentId: extra.parentId } : {}) };
      return browse(server, `${itemPath(id)}/comments`, { method: 'POST', form, cookie: extra.cookie, headers: extra.accept ? { accept: extra.accept } : {} });
    }

    it('when anonymous comments are off, then an anonymous visitor is asked to sign in through the app, and a post is refused with the text kept', async () => {
      const id = await newItem('Comments off for strangers');
      // The form as a page showed it while anonymous comments were on (a stamp is bound to its form: kit/form-guard.ts).
      await anonymousComments(true);
      const guard = guardOf(await browse(server, itemPath(id)));
      await anonymousComments(false);
      const page = await browse(server, itemPath(id));
      expect(page.text).to.include('data-sign-in-to-comment');
      expect(page.text).not.to.include('id="comment-content"');
      const refused = await browse(server, `${itemPath(id)}/comments`, { method: 'POST', form: { ...guard, content: 'Let me in' } });
      expect(refused.status).to.equal(403);
      expect(refused.text).to.include('open this board from the app you use');
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments).to.deep.equal([]);
    });

    it('when anonymous comments are on and a visitor comments without script, then the answer is a redirect to the item at the new comment, which the page shows as Anonymous', async () => {
      await anonymousComments(true);
      const id = await newItem('Anonymous comments welcome');
      const posted = await comment(id, 'Me too, <b>please</b>');
      expect(posted.status, posted.text).to.equal(303);
      const [comment0] = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments as { id: string; content: string }[];
      expect(comment0!.content).to.equal('Me too, <b>please</b>');
      expect(posted.headers.get('location')).to.equal(`${itemPath(id)}#comment-${comment0!.id}`);
      const page = await browse(server, itemPath(id));
      expect(page.text).to.include(`id="comment-${comment0!.id}"`);
      expect(page.text, 'plain text, never markup').to.include('Me too, &lt;b&gt;please&lt;/b&gt;');
      expect(page.text).to.include('<strong>Anonymous</strong>');
    });

    it('when a script posts a comment asking for JSON, then it gets 201 with the comment as the page writes it and the new count', async () => {
      await anonymousComments(true);
      const id = await newItem('Comments in place');
      const posted = await comment(id, 'Added in place', { accept: 'application/json' });
      expect(posted.status, posted.text).to.equal(201);
      const body = JSON.parse(posted.text) as { id: string; parentId: string | null; html: string; count: string };
      expect(body.parentId).to.equal(null);
      expect(body.count).to.equal('1 comment');
      expect(body.html).to.match(new RegExp(`^<li class="comment" id="comment-${body.id}">`));
      expect(body.html).to.include('Added in place');
    });

    it('when an identified visitor comments, replies, edits and deletes their own words, then each is theirs, threaded one level, and each answer comes back to the item', async () => {
      const cookie = await signIn(server, identity, { externalId: 'thread-ann', name: 'Ann Lee' });
      const id = await newItem('A thread of replies');
      expect((await comment(id, 'First question', { cookie })).status).to.equal(303);
      const [top] = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments as { id: string }[];
      const replied = await comment(id, 'And a detail', { cookie, parentId: top!.id });
      expect(replied.status, replied.text).to.equal(303);
      let comments = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments as { id: string; content: string; parentId: string | null; author: { id: string; name: string } }[];
      const reply = comments.find((c) => c.parentId === top!.id)!;
      expect(reply.author).to.include({ id: 'thread-ann', name: 'Ann Lee' });
      let page = await browse(server, itemPath(id), { cookie });
      expect(page.text).to.match(new RegExp(`data-replies="${top!.id}"><li class="comment" id="comment-${reply.id}"`));
      expect(page.text).to.include('<span class="avatar avatar-');
      expect(page.text).to.include('>AL</span>');
      expect(page.text.match(/class="comment-edit"/g)?.length, 'both are hers to edit').to.equal(2);

      const edited = await browse(server, `${itemPath(id)}/comments/${reply.id}/edit`, { method: 'POST', form: { content: 'And one more detail' }, cookie });
      expect(edited.status, edited.text).to.equal(303);
      expect(edited.headers.get('location')).to.equal(`${itemPath(id)}#comment-${reply.id}`);
      comments = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments;
      expect(comments.find((c) => c.id === reply.id)!.content).to.equal('And one more detail');
      page = await browse(server, itemPath(id), { cookie });
      expect(page.text).to.include('· edited');

      const someoneElse = await signIn(server, identity, { externalId: 'thread-bob' });
      const notHers = await browse(server, `${itemPath(id)}/comments/${reply.id}/delete`, { method: 'POST', cookie: someoneElse });
      expect(notHers.status).to.equal(403);
      expect(notHers.text).to.include('Only the author of this comment can change it.');
      const anonymous = await browse(server, `${itemPath(id)}/comments/${reply.id}/delete`, { method: 'POST' });
      expect(anonymous.status).to.equal(403);

      const deleted = await browse(server, `${itemPath(id)}/comments/${top!.id}/delete`, { method: 'POST', cookie });
      expect(deleted.status, deleted.text).to.equal(303);
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments, 'the thread goes with it').to.deep.equal([]);
    });

    it('when the team has replied to a visitor\'s comment, then the board offers no edit and a posted edit is refused with the text kept', async () => {
      const cookie = await signIn(server, identity, { externalId: 'answered-cy', name: 'Cy' });
      const id = await newItem('Answered by the team');
      await comment(id, 'Is this planned?', { cookie });
      const [top] = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments as { id: string }[];
      const team = await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { apiKey: secretKey, body: { content: 'Yes, for March.', team: { name: 'Acme team' }, parentId: top!.id } });
      expect(team.status).to.equal(201);
      const page = await browse(server, itemPath(id), { cookie });
      expect(page.text).not.to.include('class="comment-edit"');
      const refused = await browse(server, `${itemPath(id)}/comments/${top!.id}/edit`, { method: 'POST', form: { content: 'Is this planned for May?' }, cookie });
      expect(refused.status).to.equal(403);
      expect(refused.text).to.include('The team has replied to this comment');
      expect(refused.text, 'the edit comes back open, as typed').to.match(/<details class="comment-edit" open>/);
      expect(refused.text).to.include('Is this planned for May?</textarea>');
    });

    it('when a visitor deletes their comment with the team\'s internal note under it (issue 49, finding 3: the note was destroyed), then the board never shows the note and the team\'s page still does', async () => {
      const cookie = await signIn(server, identity, { externalId: 'noted-dee', name: 'Dee' });
      const id = await newItem('Noted by the team');
      await comment(id, 'Call me back', { cookie });
      const [top] = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments as { id: string }[];
      const note = await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { apiKey: secretKey, body: { content: 'TEAM-NOTE-49c3', team: { name: 'Acme team' }, internal: true, parentId: top!.id } });
      expect(note.status).to.equal(201);
      expect((await browse(server, itemPath(id), { cookie })).text, 'an internal note is not an answer: still hers to delete').to.include('class="comment-edit"');

      const deleted = await browse(server, `${itemPath(id)}/comments/${top!.id}/delete`, { method: 'POST', cookie });
      expect(deleted.status, deleted.text).to.equal(303);
      const board = await browse(server, itemPath(id), { cookie });
      expect(board.text).not.to.include('TEAM-NOTE-49c3');
      expect(board.text).not.to.include('Call me back');
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback).to.deep.include({ commentCount: 0, comments: [] });

      const link = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: secretKey });
      const teamPage = await browse(server, `/team/items/${id}`, { cookie: sessionCookie(await browse(server, link.body.path)) });
      expect(teamPage.status).to.equal(200);
      expect(teamPage.text).to.include('TEAM-NOTE-49c3');
      expect(teamPage.text).to.include('<span class="internal-badge">Private note: only the team sees it</span>');
      expect(teamPage.text).not.to.include('Call me back');
    });

    it('when the team pins an answer and writes an internal note, then the board shows the pinned answer first and marked, and never the note', async () => {
      const id = await newItem('Pinned and private');
      await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'First from a user', endUser: { externalId: 'pin-user' } } });
      const pinned = await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { apiKey: secretKey, body: { content: 'The official word', team: { name: 'Acme team' }, pin: true } });
      expect(pinned.status).to.equal(201);
      const note = await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { apiKey: secretKey, body: { content: 'PRIVATE-NOTE-6a1f', team: { name: 'Acme team' }, internal: true } });
      expect(note.status).to.equal(201);
      const page = await browse(server, itemPath(id));
      expect(page.text).not.to.include('PRIVATE-NOTE-6a1f');
      expect(page.text).to.include('2 comments');
      const first = page.text.indexOf('<li class="comment');
      expect(page.text.slice(first, first + 200)).to.include('comment team pinned');
      expect(page.text).to.include('<p class="pinned-badge">Official answer</p>');
    });

    it('when the honeypot is filled, or the stamp is missing or forged, then the comment is refused (400) with the text kept and the reason in an alert, nothing is posted, and each refusal is counted', async () => {
      await anonymousComments(true);
      const id = await newItem('Spam bait');
      const metrics = server.server.metricsUrl!;
      const before = await scrape(metrics);
      const page = await browse(server, itemPath(id));
      const guard = guardOf(page);
      const cases: [Record<string, string>, string, string][] = [
        [{ ...guard, website: 'https://spam.example' }, 'a field that must stay empty was filled in', 'honeypot'],
        [{ content: 'x' }, 'open too long', 'bad_stamp'],
        [{ ...guard, shown: `${guard.shown!.split('.')[0]}.forged` }, 'open too long', 'bad_stamp'],
      ];
      for (const [fields, said] of cases) {
        const refused = await browse(server, `${itemPath(id)}/comments`, { method: 'POST', form: { ...fields, content: 'Buy cheap things' } });
        expect(refused.status).to.equal(400);
        expect(refused.text).to.match(/<div class="form-problem" role="alert"[^>]*>[^<]*/);
        expect(refused.text).to.include(said);
        expect(refused.text).to.include('Buy cheap things</textarea>');
      }
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments).to.deep.equal([]);
      const after = await scrape(metrics);
      const grew = (reason: string) => sampleSum(after, 'feedback_board_form_refusals_total', { form: 'comment', reason }) - sampleSum(before, 'feedback_board_form_refusals_total', { form: 'comment', reason });
      expect(grew('honeypot')).to.equal(1);
      expect(grew('bad_stamp')).to.equal(2);
    });

    it('when a comment is empty or longer than 4,000 characters, then it is refused (400) with the reason and the text kept', async () => {
      await anonymousComments(true);
      const id = await newItem('Too long to read');
      const empty = await comment(id, '   ');
      expect(empty.status).to.equal(400);
      expect(empty.text).to.include('Write a comment first.');
      const long = await comment(id, 'y'.repeat(4_001));
      expect(long.status).to.equal(400);
      expect(long.text).to.include('A comment can be at most 4,000 characters.');
      expect(long.text).to.include(`${'y'.repeat(4_001)}</textarea>`);
    });
  });

  describe(`board: comments' fill time (${backend.name})`, () => {
    const server = withServer(backend, { boardMinFillMs: 60_000, boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });

    before(async () => {
      await setAnonymousComments(server.server.orm.em.fork(), 'default', true);
      await server.boardSettingsSeen();
    });

    it('when a comment or an item is sent sooner than a person fills the form, then it is refused (400) with what was typed and the reason', async () => {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Too quick', endUser: { externalId: 'quick' } } });
      const id = created.body.feedback.id as string;
      const guard = guardOf(await browse(server, itemPath(id)));
      const refused = await browse(server, `${itemPath(id)}/comments`, { method: 'POST', form: { ...guard, content: 'Typed in no time' } });
      expect(refused.status).to.equal(400);
      expect(refused.text).to.include('faster than a person types');
      expect(refused.text).to.include('Typed in no time</textarea>');
      const submitGuard = guardOf(await browse(server, '/b/default/new'), 'submit');
      const submitted = await browse(server, '/b/default/new', { method: 'POST', form: { ...submitGuard, title: 'A bot title', description: 'A bot description' } });
      expect(submitted.status).to.equal(400);
      expect(submitted.text).to.match(/role="alert"[\s\S]*faster than a person types/);
      expect(submitted.text).to.include('value="A bot title"');
      expect(submitted.text).to.include('A bot description</textarea>');
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments).to.deep.equal([]);
    });
  });

  describe(`board: comments' budget per address (${backend.name})`, () => {
    // Two posts a minute: the API key's budget too, so this suite makes one API request before its comments.
    const server = withServer(backend, { rateLimit: 2, boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });

    before(async () => {
      await setAnonymousComments(server.server.orm.em.fork(), 'default', true);
      await server.boardSettingsSeen();
    });

    it('when an address spends its budget of comments, then the next is refused with 429 and Retry-After, its text kept in the form', async () => {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Flooded', endUser: { externalId: 'flood' } } });
      const id = created.body.feedback.id as string;
      // Each post from the page as it is shown again: a stamp is spent by the post it lets through.
      const post = async (content: string) => browse(server, `${itemPath(id)}/comments`, { method: 'POST', form: { ...guardOf(await browse(server, itemPath(id))), content } });
      expect((await post('Flood 1')).status).to.equal(303);
      expect((await post('Flood 2')).status).to.equal(303);
      const refused = await post('Flood 3, kept');
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      expect(refused.text).to.include('Too many comments from your address');
      expect(refused.text).to.include('Flood 3, kept</textarea>');
      // Votes and new items spend the board's budget, apart from the comments'.
      const vote = await browse(server, `${itemPath(id)}/vote`, { method: 'POST' });
      expect(vote.status).to.equal(303);
    });
  });
}
