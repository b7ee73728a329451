import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { boardSignInLink } from '@feedbackd/sdk/board';
import { verifyWebhook, type WebhookEvent } from '@feedbackd/sdk/webhooks';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { asEndUser, identitySecretOf } from '../helpers/end-user-token.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { browse } from '../helpers/team-forms.js';
import { locationOf, request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

type Caller = { url: string; apiKey: string };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * Issue 49, finding 2, "editing skips moderation": a published or approved comment could be edited
 * into anything, links included (PATCH …/comments/:id through a public key, or the board's Edit
 * form), and was never held again; an author the team blocked still edited old comments; in mode
 * `all` a text was approved and replaced a second later. An end user's edit now passes the checks
 * of a new comment (docs/moderation.md, "Edits"): a blocked author is refused, and an edit the
 * project would hold waits for the team while the comment keeps its published text.
 */
for (const backend of backends()) {
  describe(`editing skips moderation: edits pass the checks of new comments (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });
    afterEach(async () => expectCountersExact(server));

    /**
     * A project of its own, moderated as `settings` say before its public key is first used (the
     * key cache then holds the setting from the start), with an identity secret to prove its end
     * users, and an item to talk about.
     */
    async function project(settings: Record<string, unknown>) {
      const slug = `edit-${randomUUID().slice(0, 8)}`;
      const team: Caller = { url: server.url, apiKey: await server.newKey(slug, 'secret') };
      const set = await request(team, 'PATCH', '/api/v1/board', { body: settings });
      expect(set.status, JSON.stringify(set.body)).to.equal(200);
      const site: Caller = { url: server.url, apiKey: await server.newKey(slug, 'public') };
      const identity = await identitySecretOf(server, slug);
      const item = (await request(team, 'POST', '/api/v1/feedback', { body: { title: 'Talk about edits' } })).body.feedback.id as string;
      const as = (externalId: string) => asEndUser(identity, externalId, slug);
      return { slug, team, site, identity, item, as };
    }
    const edit = (caller: Caller, item: string, comment: string, content: string, headers: Record<string, string> = {}, endUserId?: string) =>
      request(caller, 'PATCH', `/api/v1/feedback/${item}/comments/${comment}`, { body: { content, ...(endUserId ? { endUserId } : {}) }, headers });
    const detail = async (caller: Caller, item: string) => (await request(caller, 'GET', `/api/v1/feedback/${item}`)).body.feedback;
    const queue = async (team: Caller) => (await request(team, 'GET', '/api/v1/moderation')).body;
    const decide = (team: Caller, verb: 'approve' | 'reject', body: Record<string, unknown>) => request(team, 'POST', `/api/v1/moderation/${verb}`, { body });

    it('when links are held and an author edits a published comment into a link, then 202 with the comment as published, every read keeps the old text, the queue holds the edit, and approval replaces the text (history kept, comment.updated sent then)', async () => {
      const { team, site, item, as } = await project({ moderationHoldLinks: true });
      const receiver = await startReceiver();
      try {
        const endpoint = await request(team, 'POST', '/api/v1/webhooks', { body: { url: receiver.url, events: ['comment.updated'] } });
        expect(endpoint.status, JSON.stringify(endpoint.body)).to.equal(201);
        const created = await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Plain words', endUser: { externalId: 'ann', name: 'Ann' } } });
        expect(created.status).to.equal(201);
        const published = created.body.comment;

        for (const link of ['Cheap pills at https://spam.example.com', 'see spam.example.com now']) {
          const held = await edit(site, item, published.id, link, as('ann'));
          expect(held.status, JSON.stringify(held.body)).to.equal(202);
          expect(held.body).to.deep.equal({ comment: published, held: { reason: 'link' } });
        }
        const shown = await detail(site, item);
        expect(shown.comments).to.deep.equal([published]);
        expect(shown.commentCount).to.equal(1);
        expect((await request(site, 'GET', `/api/v1/feedback/${item}/comments`)).body.comments).to.deep.equal([published]);
        expect((await detail(team, item)).comments[0].content).to.equal('Plain words');

        // One edit waits per comment: the author's newer edit replaced the first.
        const waiting = await queue(team);
        expect(waiting.total).to.equal(1);
        const [post] = waiting.items;
        expect(post).to.deep.include({ kind: 'comment', reason: 'link', feedbackId: item, parentId: null, editOf: published.id, content: 'see spam.example.com now', author: { externalId: 'ann', name: 'Ann' } });
        expect(receiver.received, 'no comment.updated while the edit waits').to.have.length(0);

        const approved = await decide(team, 'approve', { ids: [post.id] });
        expect(approved.body).to.deep.equal({ approved: [{ id: post.id, kind: 'comment', feedbackId: item }], notFound: [] });
        const after = (await detail(site, item)).comments[0];
        expect(after).to.deep.include({ id: published.id, content: 'see spam.example.com now', createdAt: published.createdAt });
        expect(after.editedAt).to.be.a('string');
        const history = await request(team, 'GET', `/api/v1/feedback/${item}/comments/${published.id}/history`);
        expect(history.body.revisions.map((r: { content: string }) => r.content)).to.deep.equal(['Plain words']);
        expect((await queue(team)).total).to.equal(0);
        await until(() => receiver.received.length === 1, 10_000, 'the comment.updated of the approval');
        const event = verifyWebhook({ body: receiver.received[0]!.body, headers: receiver.received[0]!.headers as Record<string, string>, secrets: endpoint.body.secret }) as WebhookEvent;
        expect(event.type).to.equal('comment.updated');
        expect((event.data as { comment: { id: string; content: string } }).comment).to.include({ id: published.id, content: 'see spam.example.com now' });
      } finally {
        await receiver.close();
      }
    });

    it('when moderation is all, then a comment approved and edited a second later is held again: the approved text stays until the team approves the edit, and a rejected edit leaves it as it was', async () => {
      const { team, site, item, as } = await project({ moderation: 'all' });
      const posted = await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Approved words', endUser: { externalId: 'bob' } } });
      expect(posted.status).to.equal(202);
      await decide(team, 'approve', { ids: [posted.body.comment.id] });
      const approved = (await detail(site, item)).comments[0];
      expect(approved.content).to.equal('Approved words');

      const replaced = await edit(site, item, approved.id, 'Replaced a second later', as('bob'));
      expect(replaced.status, JSON.stringify(replaced.body)).to.equal(202);
      expect(replaced.body.held).to.deep.equal({ reason: 'all' });
      expect(replaced.body.comment).to.deep.equal(approved);
      expect((await detail(site, item)).comments).to.deep.equal([approved]);
      const [waiting] = (await queue(team)).items;
      expect(waiting).to.deep.include({ editOf: approved.id, content: 'Replaced a second later', reason: 'all' });

      const rejected = await decide(team, 'reject', { ids: [waiting.id] });
      expect(rejected.body).to.deep.include({ rejected: [{ id: waiting.id, kind: 'comment' }], blocked: 0 });
      expect((await detail(site, item)).comments).to.deep.equal([approved]);
      expect((await request(team, 'GET', `/api/v1/feedback/${item}/comments/${approved.id}/history`)).body.revisions).to.deep.equal([]);

      // A secret key acting for the author is the team's own word: never held, as its posts are not.
      const byTeam = await edit(team, item, approved.id, 'Corrected by support', {}, 'bob');
      expect(byTeam.status, JSON.stringify(byTeam.body)).to.equal(200);
      expect(byTeam.body.comment.content).to.equal('Corrected by support');
    });

    it('when an edit waits and the author edits again without a link, deletes the comment, or the team approves an edit the author replaced, then no stale edit is ever applied', async () => {
      const { team, site, item, as } = await project({ moderationHoldLinks: true });
      const first = (await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'First', endUser: { externalId: 'cy' } } })).body.comment;
      const held = await edit(site, item, first.id, 'Visit https://one.example.com', as('cy'));
      expect(held.status).to.equal(202);
      const [stale] = (await queue(team)).items;
      // The author's next edit goes out at once and takes the waiting one with it.
      const plain = await edit(site, item, first.id, 'First, corrected', as('cy'));
      expect(plain.status).to.equal(200);
      expect(plain.body.comment.content).to.equal('First, corrected');
      expect((await queue(team)).total).to.equal(0);
      expect((await decide(team, 'approve', { ids: [stale.id] })).body).to.deep.equal({ approved: [], notFound: [stale.id] });
      expect((await detail(site, item)).comments[0].content).to.equal('First, corrected');

      // A deleted comment takes its waiting edit with it.
      expect((await edit(site, item, first.id, 'Again https://two.example.com', as('cy'))).status).to.equal(202);
      const [orphan] = (await queue(team)).items;
      expect((await request(site, 'DELETE', `/api/v1/feedback/${item}/comments/${first.id}`, { headers: as('cy') })).status).to.equal(200);
      expect((await queue(team)).total).to.equal(0);
      expect((await decide(team, 'approve', { ids: [orphan.id] })).body.notFound).to.deep.equal([orphan.id]);
      expect((await detail(site, item)).comments).to.deep.equal([]);
    });

    it('when the team approves held edits while their author keeps editing, then every request ends (no deadlock, no 500), at most one edit waits, and the comment holds one of the texts sent', async () => {
      const { team, site, item, as } = await project({ moderationHoldLinks: true });
      const target = (await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Start', endUser: { externalId: 'gil' } } })).body.comment;
      const texts = new Set(['Start']);
      for (let round = 0; round < 6; round++) {
        const linked = `Round ${round} at https://r${round}.example.com`;
        expect((await edit(site, item, target.id, linked, as('gil'))).status).to.equal(202);
        texts.add(linked);
        const [waiting] = (await queue(team)).items;
        const plain = `Round ${round}, plain`;
        texts.add(plain);
        const answers = await Promise.all([decide(team, 'approve', { ids: [waiting.id] }), edit(site, item, target.id, plain, as('gil')), edit(site, item, target.id, `${linked}/again`, as('gil'))]);
        texts.add(`${linked}/again`);
        for (const answer of answers) expect([200, 202], JSON.stringify(answer.body)).to.include(answer.status);
        expect((await queue(team)).total).to.be.at.most(1);
        expect(texts.has((await detail(site, item)).comments[0].content)).to.equal(true);
        await decide(team, 'reject', { ids: (await queue(team)).items.map((post: { id: string }) => post.id).concat(UNKNOWN) });
      }
    });

    it('when the team blocked an author (a post rejected with block), then their edit of an old comment is 403 through a public key or a secret key acting for them, and the text stays', async () => {
      const { team, site, item, as } = await project({ moderationHoldLinks: true });
      const old = (await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Old and fine', endUser: { externalId: 'dee' } } })).body.comment;
      const spam = await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Buy at spam.example.com', endUser: { externalId: 'dee' } } });
      expect(spam.status).to.equal(202);
      expect((await decide(team, 'reject', { ids: [spam.body.comment.id], block: true })).body.blocked).to.equal(1);

      const blocked = { error: 'You can no longer post to this project: the team blocked this author' };
      for (const [caller, headers, endUserId] of [[site, as('dee'), undefined], [team, {}, 'dee']] as const) {
        const refused = await edit(caller, item, old.id, 'Rewritten after the block', headers, endUserId);
        expect(refused.status).to.equal(403);
        expect(refused.body).to.deep.equal(blocked);
      }
      expect((await detail(site, item)).comments.map((c: { content: string }) => c.content)).to.deep.equal(['Old and fine']);
      expect((await queue(team)).total).to.equal(0);
      // Another author on the same key and address still edits.
      const other = (await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Mine', endUser: { externalId: 'eve' } } })).body.comment;
      expect((await edit(site, item, other.id, 'Mine, edited', as('eve'))).status).to.equal(200);
    });

    it("when a signed-in visitor uses the board's Edit form where links are held or after a block, then the page says the edit waits (the comment keeps its text) or why it is refused", async () => {
      const { slug, team, site, identity, item } = await project({ moderationHoldLinks: true });
      const on = await inProcess(['board', 'on', '--project', slug, ...locationOf(server)]);
      expect(on.code, on.stderr).to.equal(0);
      const itemPath = `/b/${slug}/items/${item}`;
      await until(async () => (await browse(server, itemPath)).status === 200, 5_000, 'the board to be on');
      const signIn = async (externalId: string) => {
        const link = new URL(boardSignInLink({ serverUrl: server.url, project: slug, secret: identity, user: { externalId } }));
        const answer = await browse(server, link.pathname + link.search);
        expect(answer.status, answer.text).to.equal(303);
        return answer.headers.get('set-cookie')!.split(';')[0]!;
      };
      const cookie = await signIn('fay');
      const mine = (await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Board words', endUser: { externalId: 'fay' } } })).body.comment;

      const sent = await browse(server, `${itemPath}/comments/${mine.id}/edit`, { method: 'POST', form: { content: 'Now at https://spam.example.com' }, cookie });
      expect(sent.status, sent.text).to.equal(303);
      expect(sent.headers.get('location')).to.equal(`${itemPath}?held=edit&comment=${mine.id}#comment-${mine.id}`);
      const shown = await browse(server, sent.headers.get('location')!.replace(/#.*$/, ''), { cookie });
      expect(shown.text).to.include('data-edit-held').and.include('your edit waits for the team');
      expect(shown.text).to.include('Board words').and.not.include('spam.example.com');
      expect((await queue(team)).items[0]).to.deep.include({ editOf: mine.id, content: 'Now at https://spam.example.com', reason: 'link' });

      // Rejected with block: the Edit form comes back filled in, with the reason.
      await decide(team, 'reject', { ids: [(await queue(team)).items[0].id], block: true });
      const refused = await browse(server, `${itemPath}/comments/${mine.id}/edit`, { method: 'POST', form: { content: 'Plain again' }, cookie });
      expect(refused.status).to.equal(403);
      expect(refused.text).to.include('the team blocked this author').and.include('Plain again');
      expect((await detail(site, item)).comments[0].content).to.equal('Board words');
    });
  });
}
