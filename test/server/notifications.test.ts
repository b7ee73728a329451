import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { FeedbackClient } from '@feedbackd/sdk';
import type { WebhookEventOf } from '@feedbackd/sdk/webhooks';
import { PRUNE_NOTIFICATIONS } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { notificationsOf, subscribe, subscribeMany } from '../helpers/subscriptions.js';
import { request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';
import { signatureHeaders, startReceiver } from '../helpers/webhook-receiver.js';

type Created = WebhookEventOf<'notification.created'>;

/** What subscribers are told (issue 40 items 2 and 3, docs/notifications.md): the outbox and the `notification.created` route. */
for (const backend of backends()) {
  describe(`notifications (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });
    let client: FeedbackClient;
    let ops: { url: string; apiKey: string };
    before(async () => {
      ops = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
      client = new FeedbackClient({ baseUrl: server.url, apiKey: ops.apiKey, maxRetries: 0 });
    });
    after(async () => client?.close());
    afterEach(function () {
      if (this.currentTest?.state === 'failed') console.log(server.logs.filter((line) => line.startsWith('ERROR')).join('\n'));
    });

    async function submit(title: string): Promise<string> {
      const res = await request(server, 'POST', '/api/v1/feedback', { body: { title } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.feedback.id;
    }

    /** Runs `change` with a receiver subscribed to notification.created; returns the verified events about `about`. */
    async function eventsOf(change: () => Promise<void>, count: number, about: (event: Created) => boolean): Promise<Created[]> {
      const receiver = await startReceiver();
      const { webhook, secret } = await client.webhooks.create({ url: receiver.url, events: ['notification.created'] });
      try {
        await change();
        const mine = () => receiver.received.map((r) => new Webhook(secret).verify(r.body, signatureHeaders(r.headers)) as Created).filter(about);
        await until(() => mine().length >= count, 15_000, () => `${count} notification.created events, got ${mine().length}`);
        return mine();
      } finally {
        await client.webhooks.delete(webhook.id);
        await receiver.close();
      }
    }

    it('when an item moves, then every subscriber but the unsubscribed is told once, by a row and by a notification.created event verified by standardwebhooks', async () => {
      const item = await submit('Dark mode');
      await subscribe(server, item, [
        { externalId: 'ann', email: 'ann@example.com', name: 'Ann' },
        { externalId: 'bob', email: null, name: 'Bob' },
        { externalId: 'cid', email: 'cid@example.com' },
        { externalId: 'dee', email: 'dee@example.com' },
      ]);
      // Cid left this item, Dee the whole project (the subscriptions API, as an app would).
      expect((await request(server, 'POST', `/api/v1/feedback/${item}/unsubscribe`, { body: { endUserId: 'cid' } })).status).to.equal(200);
      expect((await request(server, 'POST', '/api/v1/unsubscribe', { body: { endUserId: 'dee' } })).status).to.equal(200);

      const events = await eventsOf(async () => void (await client.admin.update(item, { status: 'planned', actor: 'Ada' })), 1, (e) => e.data.notification.kind === 'status_changed' && e.data.notification.feedback.id === item);
      expect(events).to.have.length(1);
      const { notification, recipients } = events[0]!.data;
      expect(notification).to.deep.include({ kind: 'status_changed', from: 'new', to: 'planned', actor: 'Ada' });
      expect(notification.kind === 'status_changed' && notification.feedback).to.deep.equal({ id: item, title: 'Dark mode', type: 'idea', status: 'planned' });
      expect(recipients).to.deep.equal([
        { externalId: 'ann', email: 'ann@example.com', name: 'Ann' },
        { externalId: 'bob', email: null, name: 'Bob' },
      ]);
      // Bob has no address: the mail skips him, the webhook serves him.
      expect(await notificationsOf(server, item)).to.deep.equal([
        { externalId: 'ann', kind: 'status_changed', mailState: 'pending' },
        { externalId: 'bob', kind: 'status_changed', mailState: 'skipped' },
      ]);
    });

    it('when the team replies in public, then subscribers are told with the text (an end user who commented is one); an internal note and an end user comment tell no one', async () => {
      const item = await submit('Export');
      await subscribe(server, item, [{ externalId: 'eve', email: 'eve@example.com' }]);
      const events = await eventsOf(
        async () => {
          for (const body of [{ content: 'Only us', team: { name: 'Ada' }, internal: true }, { content: 'Me too', endUser: { externalId: 'fay' } }, { content: 'On it', team: { name: 'Ada' } }]) {
            expect((await request(ops, 'POST', `/api/v1/feedback/${item}/comments`, { body })).status).to.equal(201);
          }
        },
        1,
        (e) => e.data.notification.kind === 'team_reply' && e.data.notification.feedback.id === item,
      );
      expect(events).to.have.length(1);
      const change = events[0]!.data.notification;
      expect(change.kind === 'team_reply' && change.reply).to.deep.include({ content: 'On it', authorName: 'Ada' });
      // Fay's comment subscribed her (issue 40: commenters are told), and told no one itself.
      expect(events[0]!.data.recipients.map((r) => r.externalId)).to.deep.equal(['eve', 'fay']);
      expect(await notificationsOf(server, item)).to.deep.equal([
        { externalId: 'eve', kind: 'team_reply', mailState: 'pending' },
        { externalId: 'fay', kind: 'team_reply', mailState: 'skipped' },
      ]);
    });

    it('when a duplicate is merged, then its subscribers are told of the item it went into', async () => {
      const target = await submit('Offline mode');
      const duplicate = await submit('Work offline');
      await subscribe(server, duplicate, [{ externalId: 'gus', email: 'gus@example.com' }]);
      const events = await eventsOf(async () => void (await client.admin.merge(duplicate, target)), 1, (e) => e.data.notification.kind === 'merged' && e.data.notification.feedback.id === target);
      const change = events[0]!.data.notification;
      expect(change.kind === 'merged' && change.source).to.deep.equal({ id: duplicate, title: 'Work offline' });
      expect(events[0]!.data.recipients.map((r) => r.externalId)).to.deep.equal(['gus']);
      expect(await notificationsOf(server, target)).to.deep.equal([{ externalId: 'gus', kind: 'merged', mailState: 'pending' }]);
    });

    it('when a changelog entry ships two items, then a person subscribed to both is told once', async () => {
      const a = await submit('Tags');
      const b = await submit('Labels');
      await subscribe(server, a, [{ externalId: 'hal', email: 'hal@example.com' }, { externalId: 'ivy', email: 'ivy@example.com' }]);
      await subscribe(server, b, [{ externalId: 'hal', email: 'hal@example.com' }]);
      let entryId = '';
      const events = await eventsOf(
        async () => void ({ id: entryId } = await client.changelog.create({ title: 'Tags are here', body: 'Tag *anything*.', links: [a, b], publish: true })),
        1,
        (e) => e.data.notification.kind === 'shipped' && e.data.notification.entry.id === entryId,
      );
      const change = events[0]!.data.notification;
      expect(change.kind === 'shipped' && change.entry.items.map((i) => i.id)).to.deep.equal([a, b]);
      expect(events[0]!.data.recipients.map((r) => r.externalId)).to.deep.equal(['hal', 'ivy']);
      const rows = await server.sql<{ n: number }>(`select count(*)::int as n from notifications where kind = 'shipped' and data->'entry'->>'id' = ?`, [entryId]);
      expect(rows[0]!.n).to.equal(2);
    });

    it('when 1,201 people follow an item, then its change is three events of 500, 500 and 201 recipients under one id, each person once', async () => {
      const item = await submit('Big one');
      await subscribeMany(server, item, 'many', 1201);
      const events = await eventsOf(async () => void (await client.admin.update(item, { status: 'in-progress' })), 3, (e) => e.data.notification.kind === 'status_changed' && e.data.notification.feedback.id === item);
      expect(events.map((e) => e.data.recipients.length).sort((x, y) => y - x)).to.deep.equal([500, 500, 201]);
      expect(new Set(events.map((e) => e.data.notification.id)).size).to.equal(1);
      const everyone = events.flatMap((e) => e.data.recipients.map((r) => r.externalId));
      expect(new Set(everyone).size).to.equal(1201);
      expect((await notificationsOf(server, item)).length).to.equal(1201);
    });

    it('when no endpoint wants notification.created, then the rows are written and no event is', async () => {
      const item = await submit('Quiet');
      await subscribe(server, item, [{ externalId: 'jon', email: 'jon@example.com' }]);
      await client.admin.update(item, { status: 'closed' });
      expect(await notificationsOf(server, item)).to.deep.equal([{ externalId: 'jon', kind: 'status_changed', mailState: 'pending' }]);
      const rows = await server.sql<{ n: number }>(`select count(*)::int as n from webhook_events where type = 'notification.created' and data->'notification'->'feedback'->>'id' = ?`, [item]);
      expect(rows[0]!.n).to.equal(0);
    });

    it('when the log is asked with bad input, then each answer is a 400 in the contract shape, and a public key gets a 403', async () => {
      const state = await request(ops, 'GET', '/api/v1/notifications?state=lost');
      expect(state.status).to.equal(400);
      expect(state.body.error).to.be.a('string');
      const ids = await request(ops, 'POST', '/api/v1/notifications/retry', { body: { ids: ['nope'] } });
      expect(ids.status).to.equal(400);
      expect(ids.body.details.fieldErrors.ids[0]).to.include('not a notification id');
      expect((await request(ops, 'PATCH', '/api/v1/notifications/settings', { body: { digest: 'yes' } })).status).to.equal(400);
      expect((await request(server, 'GET', '/api/v1/notifications')).status).to.equal(403);
      expect(await client.notifications.settings({ digest: false })).to.deep.equal({ digest: false });
      expect(await client.notifications.retry()).to.have.property('retried').that.is.a('number');
    });

    it('when settled notifications are older than the log keeps, then pruning deletes them and keeps pending and recent ones', async () => {
      const item = await submit('Old news');
      await subscribe(server, item, [{ externalId: 'old-a', email: 'a@example.com' }, { externalId: 'old-b', email: 'b@example.com' }]);
      await client.admin.update(item, { status: 'planned' });
      // Made 40 days old (the age is in the time-ordered id): one sent, one still pending.
      const rows = await server.sql<{ id: string }>(`select n.id::text as id from notifications n where n.feedback_id = ? order by n.id`, [item]);
      await server.sql(`update notifications set id = time_ordered_uuid_floor(now() - interval '40 days'), mail_state = 'sent' where id = ?`, [rows[0]!.id]);
      await server.sql(`update notifications set id = overlay(time_ordered_uuid_floor(now() - interval '40 days')::text placing '1' from 36)::uuid where id = ?`, [rows[1]!.id]);
      await server.sql(PRUNE_NOTIFICATIONS);
      expect((await notificationsOf(server, item)).map((row) => row.mailState)).to.deep.equal(['pending']);
    });
  });
}
