import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { verifyWebhook, type WebhookEvent } from '@feedbackd/sdk/webhooks';
import { backends } from '../helpers/backends.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { request, withServer } from '../helpers/test-server.js';
import { startReceiver, until } from '../helpers/webhook-receiver.js';

type Caller = { url: string; apiKey: string };
type Project = { site: Caller; team: Caller };

/** Moderation (issue 39, item 5): held posts stay out of every public read until the team approves them. */
for (const backend of backends()) {
  describe(`moderation (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });
    afterEach(async () => expectCountersExact(server));

    /**
     * A project of its own with moderation set before its public key is first used: the key
     * cache (about a second) then holds the setting from the start.
     */
    async function project(settings: Record<string, unknown> | null): Promise<Project> {
      const slug = `mod-${randomUUID().slice(0, 8)}`;
      const team = { url: server.url, apiKey: await server.newKey(slug, 'secret') };
      if (settings) {
        const res = await request(team, 'PATCH', '/api/v1/board', { body: settings });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      return { team, site: { url: server.url, apiKey: await server.newKey(slug, 'public') } };
    }
    const submit = (caller: Caller, body: Record<string, unknown>) => request(caller, 'POST', '/api/v1/feedback', { body });
    const comment = (caller: Caller, id: string, body: Record<string, unknown>) => request(caller, 'POST', `/api/v1/feedback/${id}/comments`, { body });
    const list = async (caller: Caller, query = '') => (await request(caller, 'GET', `/api/v1/feedback${query}`)).body;
    const queue = async (team: Caller) => (await request(team, 'GET', '/api/v1/moderation')).body;
    const decide = (team: Caller, verb: 'approve' | 'reject', body: Record<string, unknown>) => request(team, 'POST', `/api/v1/moderation/${verb}`, { body });

    it('when moderation is all, then a submission answers 202 and stays out of list, totals, detail and similar until approved; then it is public with its id and time', async () => {
      const { site, team } = await project({ moderation: 'all' });
      const shown = await submit(site, { title: 'Unique moderated lighthouse', endUser: { externalId: 'ann', name: 'Ann' } });
      expect(shown.status, JSON.stringify(shown.body)).to.equal(202);
      expect(shown.body.held).to.deep.equal({ reason: 'all' });
      const item = shown.body.feedback;
      expect(item).to.deep.include({ title: 'Unique moderated lighthouse', status: 'new', voteCount: 1, commentCount: 0, endUser: { name: 'Ann', avatarUrl: null } });

      for (const caller of [site, team]) {
        expect(await list(caller)).to.deep.include({ items: [], total: 0, totalPages: 0 });
        expect((await request(caller, 'GET', `/api/v1/feedback/${item.id}`)).status).to.equal(404);
        expect((await request(caller, 'GET', `/api/v1/feedback/similar?title=${encodeURIComponent('moderated lighthouse')}`)).body.items).to.deep.equal([]);
      }
      const waiting = await queue(team);
      expect(waiting.total).to.equal(1);
      expect(waiting.items[0]).to.deep.include({ id: item.id, kind: 'feedback', reason: 'all', title: 'Unique moderated lighthouse', author: { externalId: 'ann', name: 'Ann' } });

      const approved = await decide(team, 'approve', { ids: [item.id] });
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect(approved.body).to.deep.equal({ approved: [{ id: item.id, kind: 'feedback', feedbackId: item.id }], notFound: [] });
      const page = await list(site);
      expect(page.total).to.equal(1);
      expect(page.items[0]).to.deep.equal(item);
      expect((await request(site, 'GET', `/api/v1/feedback/${item.id}`)).body.feedback).to.deep.include({ id: item.id, createdAt: item.createdAt, voteCount: 1 });
      expect((await queue(team)).total).to.equal(0);
    });

    it('when moderation is anonymous, then only posts without an identified end user wait, and a secret key is never held', async () => {
      const { site, team } = await project({ moderation: 'anonymous' });
      expect((await submit(site, { title: 'Identified idea', endUser: { externalId: 'bob' } })).status).to.equal(201);
      const anonymous = await submit(site, { title: 'Anonymous idea' });
      expect(anonymous.status).to.equal(202);
      expect(anonymous.body.held).to.deep.equal({ reason: 'anonymous' });
      expect((await submit(team, { title: 'Team idea' })).status).to.equal(201);
      expect((await list(site)).total).to.equal(2);
      expect((await queue(team)).items.map((post: { id: string }) => post.id)).to.deep.equal([anonymous.body.feedback.id]);
    });

    it('when comments are held, then they are absent from the detail, the comments list and commentCount until approved; then counted once', async () => {
      const { site, team } = await project({ moderation: 'all' });
      const created = await submit(team, { title: 'Talk here' });
      const id = created.body.feedback.id;
      const held = await comment(site, id, { content: 'Me too', endUser: { externalId: 'cy', name: 'Cy' } });
      expect(held.status, JSON.stringify(held.body)).to.equal(202);
      expect(held.body).to.deep.include({ commentCount: 0, held: { reason: 'all' } });
      expect(held.body.comment).to.deep.include({ content: 'Me too', parentId: null, author: { name: 'Cy', avatarUrl: null, id: 'cy' } });
      expect(Object.keys(held.body.comment)).to.deep.equal(['id', 'content', 'createdAt', 'author', 'parentId', 'editedAt', 'isPinned']);
      for (const caller of [site, team]) {
        const detail = (await request(caller, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
        expect(detail).to.deep.include({ commentCount: 0, comments: [] });
        expect((await request(caller, 'GET', `/api/v1/feedback/${id}/comments`)).body.comments).to.deep.equal([]);
      }
      expect((await list(site, '?sortBy=comments')).items[0].commentCount).to.equal(0);
      // The team's own comment is never held, and a reply to it may wait.
      const answer = await comment(team, id, { content: 'Noted', team: { name: 'Support' } });
      expect(answer.status).to.equal(201);
      const reply = await comment(site, id, { content: 'Thanks', endUser: { externalId: 'cy' }, parentId: answer.body.comment.id });
      expect(reply.status).to.equal(202);

      const approved = await decide(team, 'approve', { ids: [held.body.comment.id, reply.body.comment.id] });
      expect(approved.body.approved).to.have.length(2);
      const detail = (await request(site, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
      expect(detail.commentCount).to.equal(3);
      expect(detail.comments.map((c: { id: string }) => c.id)).to.include.members([held.body.comment.id, reply.body.comment.id]);
      expect(detail.comments.find((c: { id: string }) => c.id === held.body.comment.id)).to.deep.equal(held.body.comment);
      expect(detail.comments.find((c: { id: string }) => c.id === reply.body.comment.id).parentId).to.equal(answer.body.comment.id);
      // Approving again finds nothing to approve.
      expect((await decide(team, 'approve', { ids: [held.body.comment.id] })).body).to.deep.equal({ approved: [], notFound: [held.body.comment.id] });
    });

    it('when held posts are approved, then feedback.created and comment.created are sent once each, and nothing before', async () => {
      const { site, team } = await project({ moderation: 'all' });
      const receiver = await startReceiver();
      try {
        const endpoint = (await request(team, 'POST', '/api/v1/webhooks', { body: { url: receiver.url, events: ['feedback.created', 'comment.created'] } })).body;
        const host = await submit(team, { title: 'Host item' });
        const post = await submit(site, { title: 'Held idea', endUser: { externalId: 'dee' } });
        const note = await comment(site, host.body.feedback.id, { content: 'Held words', endUser: { externalId: 'dee' } });
        await until(() => receiver.received.length >= 1, 15_000, "the team's item's event");
        const types = () => receiver.received.map((d) => (verifyWebhook({ body: d.body, headers: d.headers as Record<string, string>, secrets: endpoint.secret }) as WebhookEvent));
        expect((await server.sql<{ n: number }>("select count(*)::int as n from webhook_events where project_id = (select project_id from feedback where id = ?)", [host.body.feedback.id]))[0]!.n).to.equal(1);

        await decide(team, 'approve', { ids: [post.body.feedback.id, note.body.comment.id] });
        await decide(team, 'approve', { ids: [post.body.feedback.id, note.body.comment.id] });
        await until(() => receiver.received.length >= 3, 15_000, 'the approvals\' events');
        const events = types();
        const created = events.filter((e) => e.type === 'feedback.created' && (e.data as { feedback: { id: string } }).feedback.id === post.body.feedback.id);
        expect(created).to.have.length(1);
        expect((created[0]!.data as { feedback: { endUser: unknown; title: string } }).feedback.title).to.equal('Held idea');
        const commented = events.filter((e) => e.type === 'comment.created');
        expect(commented).to.have.length(1);
        expect(commented[0]!.data).to.deep.include({ feedback: { id: host.body.feedback.id, commentCount: 1 } });
        expect((commented[0]!.data as { comment: { id: string; content: string } }).comment).to.deep.include({ id: note.body.comment.id, content: 'Held words' });
        // No more than these three were written.
        const rows = await server.sql<{ n: number }>('select count(*)::int as n from webhook_deliveries where endpoint_id = ?', [endpoint.webhook.id]);
        expect(rows[0]!.n).to.equal(3);
      } finally {
        await receiver.close();
      }
    });

    it('when a held submission is sent again with its Idempotency-Key, then the same 202 answers and one post waits', async () => {
      const { site, team } = await project({ moderation: 'all' });
      const send = () => request(site, 'POST', '/api/v1/feedback', { body: { title: 'Sent twice', endUser: { externalId: 'ida' } }, headers: { 'idempotency-key': `held-${randomUUID()}`.slice(0, 40) } });
      const key = `held-${randomUUID()}`;
      const again = () => request(site, 'POST', '/api/v1/feedback', { body: { title: 'Sent twice', endUser: { externalId: 'ida' } }, headers: { 'idempotency-key': key } });
      const first = await again();
      const second = await again();
      expect(first.status).to.equal(202);
      expect(second.status).to.equal(202);
      expect(second.body).to.deep.equal(first.body);
      expect((await queue(team)).total).to.equal(1);
      expect((await send()).status, 'another key is another post').to.equal(202);
      expect((await queue(team)).total).to.equal(2);
    });

    it('when the project holds links only, then a post with a link (a bare domain too) waits and one without goes out', async () => {
      const { site, team } = await project({ moderationHoldLinks: true });
      expect((await submit(site, { title: 'Dark mode please' })).status).to.equal(201);
      const linked = await submit(site, { title: 'Great deals', description: 'visit cheap-pills.example.com today' });
      expect(linked.status).to.equal(202);
      expect(linked.body.held).to.deep.equal({ reason: 'link' });
      const item = (await list(site)).items[0].id;
      expect((await comment(site, item, { content: 'See https://spam.example/x', endUser: { externalId: 'eve' } })).status).to.equal(202);
      expect((await comment(site, item, { content: 'Agreed', endUser: { externalId: 'eve' } })).status).to.equal(201);
      const settings = (await request(team, 'GET', '/api/v1/board')).body;
      expect(settings).to.deep.include({ moderation: 'none', moderationHoldLinks: true });
    });

    it('when link holding meets bare domains on newer TLDs, host:port, bare IPs, zero-width splits, fullwidth and ideographic dots (issue 49), then each post is held, in a title, a description and a comment, and a post without one goes out', async () => {
      const { site, team } = await project({ moderationHoldLinks: true });
      const hidden = [
        'cheap-pills.app', 'get.dev', 'win.xyz', 'invoice.zip', 'shop.example.co.uk',
        'evil.example:8443', 'go to 203.0.113.7 now', '203.0.113.7:8080/admin', '[2001:db8::1]:443', '2001:db8::42',
        'cheap\u200Bpills.com', 'cheap-pills\u200B.com', 'cheap\u2060pills\u00AD.net', 'ｃｈｅａｐ．ｃｏｍ', 'cheap。com', 'cheap｡com', 'cheap．app',
        'пример.рф', 'cheap[.]com',
      ];
      for (const [i, text] of hidden.entries()) {
        const field = i % 2 === 0 ? { title: `Deal ${i} ${text}` } : { title: `Deal ${i}`, description: `see ${text}` };
        const held = await submit(site, field);
        expect(held.status, text).to.equal(202);
        expect(held.body.held, text).to.deep.equal({ reason: 'link' });
      }
      const item = (await submit(site, { title: 'Plain words, version 1.2.3, node.js, e.g. this' })).body.feedback;
      expect(item, 'no link: out at once').to.be.an('object');
      expect((await list(site)).total).to.equal(1);
      for (const text of ['bonus.dev', 'ping 198.51.100.1', 'spam\u200B.xyz']) {
        const held = await comment(site, item.id, { content: `Try ${text}`, endUser: { externalId: 'eve' } });
        expect(held.status, text).to.equal(202);
        expect(held.body.held, text).to.deep.equal({ reason: 'link' });
      }
      expect((await queue(team)).total).to.equal(hidden.length + 3);
    });

    it('when a held post is rejected with block, then it is gone and its author (an end user, or the anonymous voter key) gets 403 on every post; others still post', async () => {
      const { site, team } = await project({ moderation: 'all' });
      const target = (await submit(team, { title: 'Target' })).body.feedback.id;
      const spam = await submit(site, { title: 'Spam 1', endUser: { externalId: 'spammer' } });
      const anonymous = await comment(site, target, { content: 'anon spam' }).then(async (res) => {
        expect(res.status, 'anonymous comments are off by default').to.equal(403);
        await request(team, 'PATCH', '/api/v1/board', { body: { anonymousComments: true } });
        return submit(site, { title: 'Anonymous spam' });
      });
      expect(anonymous.status).to.equal(202);
      const rejected = await decide(team, 'reject', { ids: [spam.body.feedback.id, anonymous.body.feedback.id], block: true });
      expect(rejected.status).to.equal(200);
      expect(rejected.body).to.deep.include({ blocked: 2, notFound: [] });
      expect(rejected.body.rejected.map((r: { kind: string }) => r.kind)).to.deep.equal(['feedback', 'feedback']);
      expect((await queue(team)).total).to.equal(0);
      expect((await request(site, 'GET', `/api/v1/feedback/${spam.body.feedback.id}`)).status).to.equal(404);

      const blocked = { error: 'You can no longer post to this project: the team blocked this author' };
      for (const res of [
        await submit(site, { title: 'Spam 2', endUser: { externalId: 'spammer' } }),
        await comment(site, target, { content: 'more', endUser: { externalId: 'spammer' } }),
        await submit(site, { title: 'Anonymous again' }),
        await comment(site, target, { content: 'anonymous again' }),
      ]) {
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.equal(blocked);
      }
      // With moderation off, the block still stands, on the hot statements (the batch and the single submit).
      await request(team, 'PATCH', '/api/v1/board', { body: { moderation: 'none' } });
      await until(async () => (await submit(site, { title: 'Fine now', endUser: { externalId: 'someone-else' } })).status === 201, 5_000, 'the setting to reach the key cache');
      const later = await Promise.all([1, 2, 3].map((n) => submit(site, { title: `Spam ${n}`, endUser: { externalId: 'spammer' } })));
      expect(later.map((res) => res.status)).to.deep.equal([403, 403, 403]);
      expect((await comment(site, target, { content: 'blocked too', endUser: { externalId: 'spammer' } })).status).to.equal(403);
      // The team still writes.
      expect((await submit(team, { title: 'Team post' })).status).to.equal(201);
    });

    it('when a held post is rejected without block, then its author may post again', async () => {
      const { site, team } = await project({ moderation: 'all' });
      const post = await submit(site, { title: 'Maybe', endUser: { externalId: 'fay' } });
      const rejected = await decide(team, 'reject', { ids: [post.body.feedback.id] });
      expect(rejected.body).to.deep.equal({ rejected: [{ id: post.body.feedback.id, kind: 'feedback' }], blocked: 0, notFound: [] });
      expect((await submit(site, { title: 'Again', endUser: { externalId: 'fay' } })).status).to.equal(202);
    });

    it('when moderation is none (the default), then posts answer 201 as always and nothing is queued', async () => {
      const { site, team } = await project(null);
      expect((await request(team, 'GET', '/api/v1/board')).body).to.deep.include({ moderation: 'none', moderationHoldLinks: false });
      const res = await submit(site, { title: 'Plain https://example.com', endUser: { externalId: 'gus' } });
      expect(res.status).to.equal(201);
      expect(Object.keys(res.body)).to.deep.equal(['feedback']);
      const answer = await comment(site, res.body.feedback.id, { content: 'Plain www.example.com', endUser: { externalId: 'gus' } });
      expect(answer.status).to.equal(201);
      expect(Object.keys(answer.body)).to.deep.equal(['comment', 'commentCount']);
      expect(await queue(team)).to.deep.equal({ items: [], total: 0 });
    });

    it("when another project's team lists, approves or rejects, then it sees none of this project's held posts and changes nothing", async () => {
      const mine = await project({ moderation: 'all' });
      const other = await project({ moderation: 'all' });
      const post = await submit(mine.site, { title: 'Mine alone' });
      expect((await queue(other.team)).total).to.equal(0);
      expect((await decide(other.team, 'approve', { ids: [post.body.feedback.id] })).body).to.deep.equal({ approved: [], notFound: [post.body.feedback.id] });
      expect((await decide(other.team, 'reject', { ids: [post.body.feedback.id], block: true })).body).to.deep.equal({ rejected: [], blocked: 0, notFound: [post.body.feedback.id] });
      expect((await queue(mine.team)).total).to.equal(1);
      expect((await list(other.site)).total).to.equal(0);
    });

    it('when the queue is asked with a public key or given bad input, then a 4xx in the error shape', async () => {
      const { site, team } = await project({ moderation: 'all' });
      expect((await request(site, 'GET', '/api/v1/moderation')).status).to.equal(403);
      expect((await decide(site, 'approve', { ids: [randomUUID()] })).status).to.equal(403);
      for (const body of [{}, { ids: [] }, { ids: ['nope'] }, { ids: 'x' }, { ids: [randomUUID()], block: 'yes' }]) {
        const res = await decide(team, 'reject', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error).to.equal('Invalid input');
      }
      const patch = await request(team, 'PATCH', '/api/v1/board', { body: { moderation: 'some' } });
      expect(patch.status).to.equal(400);
      expect(patch.body.details.fieldErrors.moderation).to.deep.equal(["moderation must be 'none', 'anonymous' or 'all'"]);
    });
  });
}
