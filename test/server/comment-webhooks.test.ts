import { expect } from 'chai';
import { FeedbackClient } from '@feedbackd/sdk';
import { verifyWebhook, type WebhookEvent } from '@feedbackd/sdk/webhooks';
import { backends } from '../helpers/backends.js';
import { endUserToken, identitySecretOf } from '../helpers/end-user-token.js';
import { withServer } from '../helpers/test-server.js';
import { startReceiver, until } from '../helpers/webhook-receiver.js';

/** The conversation's events (issue 39): comment.created, .updated and .deleted, and internal notes only where an endpoint opts in. */
for (const backend of backends()) {
  describe(`comment webhooks (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });
    let team: FeedbackClient;
    let site: FeedbackClient;
    before(async () => {
      team = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(undefined, 'secret'), maxRetries: 0 });
      site = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
    });
    afterEach(async () => {
      // Each test subscribes its own receivers: none outlives it.
      for (const webhook of await team.webhooks.list()) await team.webhooks.delete(webhook.id);
    });
    after(async () => {
      await team?.close();
      await site?.close();
    });

    it('when end users and the team converse, then comment.created, comment.updated and comment.deleted are sent; internal notes only to the endpoint with includeInternal', async () => {
      const plain = await startReceiver();
      const inside = await startReceiver();
      try {
        const publicEndpoint = await team.webhooks.create({ url: plain.url, events: ['comment.created', 'comment.updated', 'comment.deleted'] });
        const teamEndpoint = await team.webhooks.create({ url: inside.url, events: ['comment.created', 'comment.updated', 'comment.deleted'], includeInternal: true });
        expect(publicEndpoint.webhook.includeInternal).to.equal(false);
        expect(teamEndpoint.webhook.includeInternal).to.equal(true);

        const item = await site.feedback.create({ title: 'Talk about it' });
        const { comment } = await site.comments.create(item.id, { content: 'Please', endUser: { externalId: 'ann' } });
        const note = await team.comments.create(item.id, { content: 'Customer is big', team: { name: 'Sales' }, internal: true });
        await site.comments.update(item.id, comment.id, { content: 'Please, soon', endUserId: 'ann', userToken: endUserToken(await identitySecretOf(server), 'ann') });
        const answer = await team.comments.create(item.id, { content: 'Planned', team: { name: 'Support' }, parentId: comment.id, pin: true });
        await team.comments.delete(item.id, note.comment.id);

        const decoded = (receiver: typeof plain, secret: string) =>
          receiver.received.map((d) => verifyWebhook({ body: d.body, headers: d.headers as Record<string, string>, secrets: secret }) as WebhookEvent);
        // The plain endpoint: the end user's comment, its edit, the answer (created), and nothing of the note.
        await until(() => inside.received.length >= 5 && plain.received.length >= 3, 15_000, 'the deliveries');
        const seen = decoded(plain, publicEndpoint.secret);
        expect(JSON.stringify(seen)).to.not.include('Customer is big');
        expect(seen.map((e) => e.type).sort()).to.deep.equal(['comment.created', 'comment.created', 'comment.updated']);
        const edited = seen.find((e) => e.type === 'comment.updated')!;
        expect(edited.data).to.deep.include({ feedback: { id: item.id, commentCount: 1 } });
        expect((edited.data as { comment: { content: string; editedAt: string | null; author: object } }).comment).to.include({ content: 'Please, soon' });
        const reply = seen.find((e) => e.type === 'comment.created' && e.data.comment.id === answer.comment.id)!;
        expect((reply.data as { comment: { parentId: string } }).comment.parentId).to.equal(comment.id);

        const all = decoded(inside, teamEndpoint.secret);
        expect(all.map((e) => e.type).sort()).to.deep.equal(['comment.created', 'comment.created', 'comment.created', 'comment.deleted', 'comment.updated']);
        const noted = all.find((e) => e.type === 'comment.created' && e.data.comment.id === note.comment.id)!;
        expect((noted.data as { comment: { internal: boolean } }).comment.internal).to.equal(true);
        const deleted = all.find((e) => e.type === 'comment.deleted')!;
        expect(deleted.data).to.deep.equal({
          feedback: { id: item.id, commentCount: 2 },
          comment: { id: note.comment.id, parentId: null, internal: true, isTeam: true, externalId: null },
          repliesDeleted: 0,
        });
        // Nothing else arrives at the plain endpoint: its deliveries are all in the log, and no more were made.
        const rows = await server.sql<{ n: number }>('select count(*)::int as n from webhook_deliveries where endpoint_id = ?', [publicEndpoint.webhook.id]);
        expect(rows[0]!.n).to.equal(3);
      } finally {
        await plain.close();
        await inside.close();
      }
    });

    /** Both kinds of endpoint for the conversation's events: one without includeInternal, one with it; run `act`, wait for `counts`, and answer what each got. */
    async function bothEndpoints(act: () => Promise<void>, counts: { plain: number; inside: number }): Promise<{ plain: WebhookEvent[]; inside: WebhookEvent[]; plainDeliveries: number }> {
      const plain = await startReceiver();
      const inside = await startReceiver();
      try {
        const events = ['comment.created' as const, 'comment.updated' as const, 'comment.deleted' as const];
        const publicEndpoint = await team.webhooks.create({ url: plain.url, events });
        const teamEndpoint = await team.webhooks.create({ url: inside.url, events, includeInternal: true });
        await act();
        await until(() => plain.received.length >= counts.plain && inside.received.length >= counts.inside, 15_000, 'the deliveries');
        const decoded = (receiver: typeof plain, secret: string) =>
          receiver.received.map((d) => verifyWebhook({ body: d.body, headers: d.headers as Record<string, string>, secrets: secret }) as WebhookEvent);
        const [row] = await server.sql<{ n: number }>('select count(*)::int as n from webhook_deliveries where endpoint_id = ?', [publicEndpoint.webhook.id]);
        return { plain: decoded(plain, publicEndpoint.secret), inside: decoded(inside, teamEndpoint.secret), plainDeliveries: row!.n };
      } finally {
        await plain.close();
        await inside.close();
      }
    }

    it('when an end user deletes their comment with the team\'s note under it (issue 49, finding 3: the note was destroyed and counted in comment.deleted), then comment.deleted counts no note for either endpoint, and only the one with includeInternal learns where the note went', async () => {
      let itemId = '';
      let topId = '';
      let noteId = '';
      const seen = await bothEndpoints(async () => {
        const item = await site.feedback.create({ title: 'Call me' });
        itemId = item.id;
        const { comment } = await site.comments.create(item.id, { content: 'Please call', endUser: { externalId: 'del-ann' } });
        topId = comment.id;
        noteId = (await team.comments.create(item.id, { content: 'Secret pricing talk', team: { name: 'Sales' }, internal: true, parentId: comment.id })).comment.id;
        await site.comments.delete(item.id, comment.id, { endUserId: 'del-ann', userToken: endUserToken(await identitySecretOf(server), 'del-ann') });
      }, { plain: 2, inside: 4 });

      const deleted = {
        feedback: { id: itemId, commentCount: 0 },
        comment: { id: topId, parentId: null, internal: false, isTeam: false, externalId: 'del-ann' },
        repliesDeleted: 0,
      };
      // Without includeInternal: the comment and its delete, no reply counted, nothing of the note.
      expect(seen.plain.map((e) => e.type).sort()).to.deep.equal(['comment.created', 'comment.deleted']);
      expect(seen.plain.find((e) => e.type === 'comment.deleted')!.data).to.deep.equal(deleted);
      expect(JSON.stringify(seen.plain)).to.not.include(noteId).and.not.include('Secret pricing talk');
      expect(seen.plainDeliveries).to.equal(2);
      // With it: the same comment.deleted, and the note's comment.updated, now at the top level.
      const byType = (type: string) => seen.inside.filter((e) => e.type === type);
      expect(seen.inside.map((e) => e.type).sort()).to.deep.equal(['comment.created', 'comment.created', 'comment.deleted', 'comment.updated']);
      expect(byType('comment.deleted')[0]!.data).to.deep.equal(deleted);
      const moved = byType('comment.updated')[0]!.data as { feedback: object; comment: { id: string; parentId: string | null; internal: boolean; content: string } };
      expect(moved.feedback).to.deep.equal({ id: itemId, commentCount: 0 });
      expect(moved.comment).to.include({ id: noteId, parentId: null, internal: true, content: 'Secret pricing talk' });
    });

    it('when the team deletes a comment with an end user\'s reply and a note under it (issue 49, finding 3), then comment.deleted counts the visible reply alone, to both endpoints', async () => {
      let itemId = '';
      let topId = '';
      const seen = await bothEndpoints(async () => {
        const item = await site.feedback.create({ title: 'Spam thread' });
        itemId = item.id;
        const { comment } = await site.comments.create(item.id, { content: 'Buy now', endUser: { externalId: 'del-spam' } });
        topId = comment.id;
        await site.comments.create(item.id, { content: 'Me too', endUser: { externalId: 'del-bob' }, parentId: comment.id });
        await team.comments.create(item.id, { content: 'Blocked the sender', team: { name: 'Support' }, internal: true, parentId: comment.id });
        expect(await team.comments.delete(item.id, comment.id), 'the team sees its note go').to.include({ repliesDeleted: 2, commentCount: 0 });
      }, { plain: 3, inside: 4 });
      const deleted = {
        feedback: { id: itemId, commentCount: 0 },
        comment: { id: topId, parentId: null, internal: false, isTeam: false, externalId: 'del-spam' },
        repliesDeleted: 1,
      };
      expect(seen.plain.filter((e) => e.type === 'comment.deleted').map((e) => e.data)).to.deep.equal([deleted]);
      expect(seen.inside.filter((e) => e.type === 'comment.deleted').map((e) => e.data)).to.deep.equal([deleted]);
      expect(seen.plainDeliveries).to.equal(3);
    });
  });
}
