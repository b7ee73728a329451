import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { FeedbackClient } from '@feedbackd/sdk';
import { isKnownWebhookEvent, verifyWebhook, type WebhookEvent } from '@feedbackd/sdk/webhooks';
import { nextDelayMs, pace, PRUNE_LOG, RETRY_DELAYS_MS, WEBHOOK_LOG_DAYS } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { request, startTestServer, withServer } from '../helpers/test-server.js';
import { outboxSettled as settled, signatureHeaders, startHangingReceiver, startReceiver, until, type Received } from '../helpers/webhook-receiver.js';
import { settlesBefore } from '../helpers/until.js';

for (const backend of backends()) {
  describe(`webhooks (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });
    let client: FeedbackClient;
    let publicClient: FeedbackClient;
    before(async () => {
      client = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(undefined, 'secret'), maxRetries: 0 });
      publicClient = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
    });
    afterEach(async () => {
      // Each test subscribes its own receivers: none outlives it.
      for (const webhook of await client.webhooks.list()) await client.webhooks.delete(webhook.id);
    });
    after(async () => {
      await client?.close();
      await publicClient?.close();
    });

    const eventsOf = (receiver: { received: Received[] }) => receiver.received.map((r) => JSON.parse(r.body) as WebhookEvent);

    const outboxSettled = () => settled(server, 10_000);

    it('when no endpoint subscribes, then a submit, a vote and a comment write no event at all', async () => {
      const before = await server.sql<{ n: number }>('select count(*)::int as n from webhook_events');
      const item = await publicClient.feedback.create({ title: 'Nobody listens', endUser: { externalId: 'quiet' } });
      await publicClient.votes.toggle(item.id);
      await client.admin.addComment(item.id, { content: 'Seen', team: { name: 'Support' } });
      const after = await server.sql<{ n: number }>('select count(*)::int as n from webhook_events');
      expect(after[0]!.n).to.equal(before[0]!.n);
    });

    it('when a receiver built on standardwebhooks subscribes to every event, then it verifies a delivery of each type the API makes, with the bodies the contract describes', async () => {
      const receiver = await startReceiver();
      try {
        const { webhook, secret } = await client.webhooks.create({ url: receiver.url, description: 'all of them' });
        expect(secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
        expect(webhook).to.include({ url: receiver.url, events: null, enabled: true, format: 'standard', mode: 'push' });

        const item = await publicClient.feedback.create({ title: 'Dark mode', type: 'idea', endUser: { externalId: 'ada' } });
        const other = await publicClient.feedback.create({ title: 'Night theme' });
        await publicClient.votes.toggle(item.id, { endUser: { externalId: 'grace' } });
        await publicClient.votes.toggle(item.id, { endUser: { externalId: 'grace' } });
        await publicClient.votes.toggle(item.id);
        await client.admin.update(item.id, { status: 'planned', actor: 'Ada' });
        await client.admin.addComment(item.id, { content: 'On the roadmap', team: { name: 'Support' } });
        await client.admin.merge(other.id, item.id);
        await client.admin.delete(item.id);

        await until(() => receiver.received.length >= 9, 15_000, 'nine deliveries');
        // Nine are the API's own; the subscriptions' notification.created events come too, and may
        // arrive before the last vote's: the checks below read every delivery, so all of them first.
        await outboxSettled();
        const wh = new Webhook(secret);
        for (const delivery of receiver.received) wh.verify(delivery.body, signatureHeaders(delivery.headers));
        const events = receiver.received.map((delivery) => verifyWebhook({ body: delivery.body, headers: delivery.headers as Record<string, string>, secrets: secret }));
        expect(events.every(isKnownWebhookEvent)).to.equal(true);
        const byType = (type: string) => (events as WebhookEvent[]).filter((event) => event.type === type);

        const created = byType('feedback.created');
        expect(created.map((event) => event.type === 'feedback.created' && event.data.feedback.title).sort()).to.deep.equal(['Dark mode', 'Night theme']);
        const ada = created.find((event) => event.type === 'feedback.created' && event.data.feedback.id === item.id)!;
        expect(ada.data).to.deep.include({ feedback: { ...(ada.data as { feedback: object }).feedback, voteCount: 1, commentCount: 0, endUser: { externalId: 'ada' }, type: 'idea', status: 'new' } });

        const votes = [...byType('vote.added'), ...byType('vote.removed')].map((event) => ({ type: event.type, data: event.data }));
        expect(votes).to.deep.include({ type: 'vote.added', data: { feedback: { id: item.id, voteCount: 2 }, endUser: { externalId: 'grace' } } });
        expect(votes).to.deep.include({ type: 'vote.removed', data: { feedback: { id: item.id, voteCount: 1 }, endUser: { externalId: 'grace' } } });
        // An anonymous voter is null, never its hashed key.
        expect(votes).to.deep.include({ type: 'vote.added', data: { feedback: { id: item.id, voteCount: 2 }, endUser: null } });

        const [status] = byType('feedback.status_changed');
        expect(status!.data).to.deep.include({ from: 'new', to: 'planned', actor: 'Ada' });
        const [comment] = byType('comment.created');
        expect(comment!.data).to.deep.include({ feedback: { id: item.id, commentCount: 1 } });
        expect((comment!.data as { comment: { author: object } }).comment.author).to.deep.equal({ isTeam: true, name: 'Support', externalId: null });
        const [merged] = byType('feedback.merged');
        expect(merged!.data).to.deep.include({ source: { id: other.id, title: 'Night theme' } });
        expect((merged!.data as { target: { id: string; voteCount: number } }).target).to.include({ id: item.id, voteCount: 2 });
        const [deleted] = byType('feedback.deleted');
        expect(deleted!.data).to.deep.equal({ feedback: { id: item.id, title: 'Dark mode', type: 'idea', status: 'planned' } });

        // One event, one delivery: every webhook-id differs, and each is what the log keeps.
        const ids = receiver.received.map((delivery) => String(delivery.headers['webhook-id']));
        expect(new Set(ids).size).to.equal(ids.length);
        // The sender records each success once the answer is in, a moment after the receiver saw the request.
        const states = async () => (await server.sql<{ state: string }>('select d.state from webhook_deliveries d where d.endpoint_id = ?', [webhook.id])).map((row) => row.state);
        await until(async () => (await states()).every((state) => state === 'succeeded'), 5_000, 'every delivery recorded as succeeded');
        expect(await states()).to.have.length(ids.length);
      } finally {
        await receiver.close();
      }
    });

    it('when many votes arrive at once (batched toggles), then each writes its event, with the count after it and its voter', async () => {
      const receiver = await startReceiver();
      try {
        await client.webhooks.create({ url: receiver.url, events: ['vote.added'] });
        const item = await publicClient.feedback.create({ title: 'Popular' });
        const voters = Array.from({ length: 24 }, (_, i) => `crowd-${i}`);
        for (const externalId of voters) await publicClient.users.identify({ externalId });
        await Promise.all(voters.map((externalId) => publicClient.votes.toggle(item.id, { endUser: { externalId } })));
        await until(() => receiver.received.length >= voters.length, 10_000, 'an event per vote');
        const events = eventsOf(receiver).filter((event) => event.type === 'vote.added') as Extract<WebhookEvent, { type: 'vote.added' }>[];
        expect(events.map((event) => event.data.endUser?.externalId).sort()).to.deep.equal([...voters].sort());
        // The submitter's own vote is 1: the crowd's counts are 2 to 25, each once.
        expect(events.map((event) => event.data.feedback.voteCount).sort((a, b) => a - b)).to.deep.equal(voters.map((_, i) => i + 2));
      } finally {
        await receiver.close();
      }
    });

    it('when many submissions arrive at once (a batch, whose events are written as one grouped row), then each item gets its feedback.created, and no grouped row is ever delivered', async () => {
      const receiver = await startReceiver();
      try {
        await client.webhooks.create({ url: receiver.url });
        const titles = Array.from({ length: 24 }, (_, i) => `Crowded idea ${i}`);
        const created = await Promise.all(titles.map((title) => publicClient.feedback.create({ title })));
        await until(() => receiver.received.length >= titles.length, 10_000, 'an event per submission');
        await outboxSettled();
        const events = eventsOf(receiver);
        expect(events.map((event) => event.type)).to.deep.equal(titles.map(() => 'feedback.created'));
        const items = events.map((event) => (event.data as { feedback: { id: string; title: string } }).feedback);
        expect(items.map((item) => item.id).sort()).to.deep.equal(created.map((item) => item.id).sort());
        expect(new Set(events.map((event) => event.id)).size, 'each event its own id').to.equal(titles.length);
        const [{ grouped }] = (await server.sql<{ grouped: number }>(`select count(*)::int as grouped from webhook_events where type = 'batch'`)) as [{ grouped: number }];
        expect(grouped, 'grouped rows are expanded, not kept').to.equal(0);
      } finally {
        await receiver.close();
      }
    });

    it('when an endpoint subscribes to some types, then only those are written and delivered', async () => {
      const receiver = await startReceiver();
      try {
        await client.webhooks.create({ url: receiver.url, events: ['feedback.status_changed'] });
        const item = await publicClient.feedback.create({ title: 'Only status' });
        await publicClient.votes.toggle(item.id, { endUser: { externalId: 'someone' } });
        await client.admin.update(item.id, { status: 'in-progress' });
        await until(() => receiver.received.length >= 1);
        await outboxSettled();
        expect(eventsOf(receiver).map((event) => event.type)).to.deep.equal(['feedback.status_changed']);
      } finally {
        await receiver.close();
      }
    });

    it('when a change rolls back, then its event is gone with it', async () => {
      const receiver = await startReceiver();
      try {
        await client.webhooks.create({ url: receiver.url });
        const item = await publicClient.feedback.create({ title: 'Rolled back' });
        await until(() => receiver.received.length >= 1);
        const [{ n: before }] = (await server.sql<{ n: number }>('select count(*)::int as n from webhook_events')) as [{ n: number }];
        const [{ project_id: project }] = (await server.sql<{ project_id: string }>('select project_id from feedback where id = ?', [item.id])) as [{ project_id: string }];
        // The vote function writes its event inside the statement; the transaction then rolls back.
        await server.sql(`do $$ begin perform * from toggle_vote('${item.id}', '${project}', 'ip:rolled-back', null); raise exception 'roll back'; exception when raise_exception then null; end $$`);
        const [{ n: after }] = (await server.sql<{ n: number }>('select count(*)::int as n from webhook_events')) as [{ n: number }];
        expect(after).to.equal(before);
        await outboxSettled();
        expect(eventsOf(receiver).map((event) => event.type)).to.deep.equal(['feedback.created']);
      } finally {
        await receiver.close();
      }
    });

    it('when a receiver fails and then recovers, then the event is sent again with the same webhook-id, and every attempt is in the log', async () => {
      const receiver = await startReceiver([500, 200]);
      try {
        const { webhook } = await client.webhooks.create({ url: receiver.url, events: ['feedback.created'] });
        await publicClient.feedback.create({ title: 'Second time lucky' });
        // The failure is recorded with the first retry due 4.5 to 5.5 s later (nextDelayMs, tested
        // below); the test brings that time forward rather than wait it out: what it is about is
        // that a retry which is due goes out, and how.
        const failed = async () =>
          (
            await server.sql<{ after_ms: number }>(
              `select (extract(epoch from d.next_attempt_at - a.attempted_at) * 1000)::int as after_ms from webhook_deliveries d join webhook_attempts a on a.delivery_id = d.id
               where d.endpoint_id = ? and d.state = 'pending' and d.last_status = 500`,
              [webhook.id],
            )
          )[0];
        await until(async () => (await failed()) !== undefined, 10_000, 'the failed attempt recorded');
        expect((await failed())!.after_ms, 'the retry is due 4.5 s or more after the failed attempt (ms rounded), well within 15 s').to.be.within(4_490, 15_000);
        await server.sql(`update webhook_deliveries set next_attempt_at = now() where endpoint_id = ? and state = 'pending'`, [webhook.id]);
        await until(() => receiver.received.length >= 2, 15_000, 'the retry');
        expect(receiver.received[1]!.headers['webhook-id']).to.equal(receiver.received[0]!.headers['webhook-id']);
        expect(receiver.received[1]!.body).to.equal(receiver.received[0]!.body);
        await until(async () => (await server.sql<{ state: string }>('select state from webhook_deliveries where endpoint_id = ?', [webhook.id]))[0]?.state === 'succeeded');
        const attempts = await server.sql<{ status_code: number; response: string }>(
          'select a.status_code, a.response from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ? order by a.id',
          [webhook.id],
        );
        expect(attempts).to.deep.equal([
          { status_code: 500, response: 'not now' },
          { status_code: 200, response: 'thanks' },
        ]);
      } finally {
        await receiver.close();
      }
    });

    it('when a receiver answers 410 Gone, then the endpoint is disabled with that reason and gets nothing more', async () => {
      const receiver = await startReceiver([410]);
      try {
        const { webhook } = await client.webhooks.create({ url: receiver.url });
        await publicClient.feedback.create({ title: 'Gone' });
        await until(async () => !(await client.webhooks.get(webhook.id)).enabled, 10_000, 'the endpoint disabled');
        expect((await client.webhooks.get(webhook.id)).disabledReason).to.equal('the endpoint answered 410 Gone');
        await publicClient.feedback.create({ title: 'After gone' });
        await outboxSettled();
        expect(receiver.received).to.have.length(1);
      } finally {
        await receiver.close();
      }
    });

    it('when a secret is rotated, then deliveries carry two signatures for the grace period, and each secret alone verifies them', async () => {
      const receiver = await startReceiver();
      try {
        const { webhook, secret: old } = await client.webhooks.create({ url: receiver.url, events: ['feedback.created'] });
        const { secret: fresh, webhook: rotated } = await client.webhooks.rotateSecret(webhook.id, { graceSeconds: 3_600 });
        expect(fresh).not.to.equal(old);
        expect(rotated.previousSecretExpiresAt).to.be.a('string');
        await publicClient.feedback.create({ title: 'Rotating' });
        await until(() => receiver.received.length >= 1);
        const [delivery] = receiver.received;
        expect(String(delivery!.headers['webhook-signature']).split(' ')).to.have.length(2);
        for (const secret of [old, fresh]) new Webhook(secret).verify(delivery!.body, signatureHeaders(delivery!.headers));
        // With no grace the old secret stops signing at once.
        await client.webhooks.rotateSecret(webhook.id, { graceSeconds: 0 });
        expect((await client.webhooks.get(webhook.id)).previousSecretExpiresAt).to.equal(null);
      } finally {
        await receiver.close();
      }
    });

    it('when an endpoint asks for the slack or discord format, then it gets one line of text in that tool\'s body, signed as ever', async () => {
      const slack = await startReceiver();
      const discord = await startReceiver();
      try {
        const { secret } = await client.webhooks.create({ url: slack.url, events: ['feedback.created'], format: 'slack' });
        await client.webhooks.create({ url: discord.url, events: ['feedback.created'], format: 'discord' });
        await publicClient.feedback.create({ title: 'Crash on start', type: 'bug', endUser: { externalId: 'lin' } });
        await until(() => slack.received.length >= 1 && discord.received.length >= 1);
        expect(JSON.parse(slack.received[0]!.body)).to.deep.equal({ text: 'New bug: "Crash on start" from lin' });
        expect(JSON.parse(discord.received[0]!.body)).to.deep.equal({ content: 'New bug: "Crash on start" from lin', allowed_mentions: { parse: [] } });
        new Webhook(secret).verify(slack.received[0]!.body, signatureHeaders(slack.received[0]!.headers));
      } finally {
        await slack.close();
        await discord.close();
      }
    });

    it('when an endpoint is tested, then a signed webhook.test goes to it alone, and the answer is the delivery with its attempt', async () => {
      const receiver = await startReceiver();
      const bystander = await startReceiver();
      try {
        const { webhook, secret } = await client.webhooks.create({ url: receiver.url });
        await client.webhooks.create({ url: bystander.url });
        const delivery = await client.webhooks.test(webhook.id);
        expect(delivery).to.include({ type: 'webhook.test', state: 'succeeded', lastStatus: 200 });
        expect(delivery.attemptLog).to.have.length(1);
        expect(delivery.attemptLog[0]).to.include({ statusCode: 200, error: null, response: 'thanks' });
        expect(receiver.received).to.have.length(1);
        const event = verifyWebhook({ body: receiver.received[0]!.body, headers: receiver.received[0]!.headers as Record<string, string>, secrets: secret });
        expect(event).to.deep.include({ type: 'webhook.test', data: { webhook: { id: webhook.id }, message: 'A test of this endpoint, sent on request' } });
        await outboxSettled();
        expect(bystander.received).to.have.length(0);
      } finally {
        await receiver.close();
        await bystander.close();
      }
    });

    it('when a test is asked for with an Idempotency-Key (the CLI sends one), then it answers at once instead of waiting on its own key (a 503 on the embedded database)', async () => {
      const receiver = await startReceiver();
      try {
        const { webhook } = await client.webhooks.create({ url: receiver.url });
        const answer = await request({ url: server.url, apiKey: await server.newKey(undefined, 'secret') }, 'POST', `/api/v1/webhooks/${webhook.id}/test`, {
          headers: { 'idempotency-key': 'test-with-a-key' },
        });
        expect(answer.status).to.equal(200);
        expect(answer.body.delivery).to.include({ type: 'webhook.test', state: 'succeeded', lastStatus: 200 });
        expect(receiver.received).to.have.length(1);
      } finally {
        await receiver.close();
      }
    });

    it('when deliveries are listed, redelivered and recovered, then the log shows every attempt and a delivery sent again keeps its webhook-id', async () => {
      const receiver = await startReceiver([500, 200]);
      try {
        const { webhook } = await client.webhooks.create({ url: receiver.url, events: ['feedback.deleted'] });
        const since = new Date(Date.now() - 1_000);
        // A test is never retried: its failure (500) is final, until it is recovered.
        const failed = await client.webhooks.test(webhook.id);
        expect(failed).to.include({ state: 'failed', lastStatus: 500 });
        expect(await client.webhooks.deliveries(webhook.id, { state: 'failed' })).to.have.length(1);
        expect(await client.webhooks.recover(webhook.id, since)).to.equal(1);
        await until(async () => (await client.webhooks.deliveries(webhook.id))[0]?.state === 'succeeded', 10_000, 'the recovered delivery');
        const [recovered] = await client.webhooks.deliveries(webhook.id);
        expect(recovered!.attemptLog.map((attempt) => attempt.statusCode)).to.deep.equal([500, 200]);

        const again = await client.webhooks.redeliver(recovered!.id);
        expect(again.state).to.equal('pending');
        await until(() => receiver.received.length >= 3, 10_000, 'the redelivery');
        const ids = receiver.received.map((delivery) => delivery.headers['webhook-id']);
        expect(new Set(ids)).to.deep.equal(new Set([`msg_${recovered!.id}`]));
        const unknown = await request({ url: server.url, apiKey: await server.newKey(undefined, 'secret') }, 'POST', '/api/v1/webhooks/deliveries/00000000-0000-4000-8000-000000000000/redeliver');
        expect(unknown).to.deep.include({ status: 404, body: { error: 'Webhook delivery not found' } });
      } finally {
        await receiver.close();
      }
    });

    it(`when the log is pruned, then events older than ${WEBHOOK_LOG_DAYS} days go with their deliveries and attempts, unless one is still pending`, async () => {
      const { webhook } = await client.webhooks.create({ url: 'http://127.0.0.1:9/never' });
      const [project] = await server.sql<{ id: string }>('select project_id as id from webhook_endpoints where id = ?', [webhook.id]);
      const event = async (days: number, state: string) => {
        // A test event, born fanned out: its one delivery is made here. Its id is time-ordered at
        // its creation, as every event's is (the pruning reads the age from it).
        const [row] = await server.sql<{ id: string }>(
          `insert into webhook_events (id, project_id, type, fanned_out, data, created_at)
           select encode(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from at.t) * 1000)::bigint) from 3) from 1 for 6), 'hex')::uuid,
             ?, 'webhook.test', true, '{}', at.t
           from (select now() - ? * interval '1 day' as t) at returning id`,
          [project!.id, days],
        );
        await server.sql(`insert into webhook_deliveries (event_id, endpoint_id, state, next_attempt_at) values (?, ?, ?, now() + interval '1 day')`, [row!.id, webhook.id, state]);
        return row!.id;
      };
      const old = await event(WEBHOOK_LOG_DAYS + 1, 'succeeded');
      const oldPending = await event(WEBHOOK_LOG_DAYS + 1, 'pending');
      const recent = await event(1, 'failed');
      await server.sql(PRUNE_LOG);
      const left = (await server.sql<{ id: string }>('select id from webhook_events where id in (?, ?, ?)', [old, oldPending, recent])).map((row) => row.id);
      expect(left.sort()).to.deep.equal([oldPending, recent].sort());
      expect(await server.sql('select 1 from webhook_deliveries where event_id = ?', [old])).to.deep.equal([]);
    });

    it('when the retries are scheduled, then they back off over about three days, with jitter, and a Retry-After longer than the schedule wins', () => {
      const total = RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
      expect(total / 86_400_000).to.be.within(2.9, 3.3);
      expect(nextDelayMs(1, undefined, () => 0)).to.equal(4_500);
      expect(nextDelayMs(1, undefined, () => 1)).to.equal(5_500);
      expect(nextDelayMs(1, 120, () => 0.5)).to.equal(120_000);
      expect(nextDelayMs(3, 1, () => 0.5)).to.equal(30 * 60_000);
      expect(nextDelayMs(99, undefined, () => 0.5)).to.equal(24 * 3_600_000);
    });

    it('when the sender keeps its pace, then a second of attempts can be spent at once, and then one more each 1/perSecond of a second', () => {
      let now = 0;
      const paced = pace(100, () => now);
      expect(paced.available()).to.equal(100);
      paced.take(100);
      expect(paced.available()).to.equal(0);
      expect(paced.msUntil(16)).to.equal(160);
      now += 50;
      expect(paced.available()).to.equal(5);
      // An event fanned out to more endpoints than were free overdraws it: the debt is paid first.
      paced.take(25);
      expect(paced.msUntil(1)).to.equal(210);
      now += 10_000;
      expect(paced.available(), 'never more than a second saved up').to.equal(100);
      expect(pace(0.5, () => now).available(), 'a pace under one a second still sends one').to.equal(1);
    });

    it('when an endpoint is managed, then list, update, disable, enable and delete answer as the contract says, and a public key is refused', async () => {
      const { webhook } = await client.webhooks.create({ url: 'http://127.0.0.1:9/never', events: ['vote.added'], description: 'to be changed' });
      expect(await client.webhooks.list()).to.have.length(1);
      const updated = await client.webhooks.update(webhook.id, { events: null, description: null });
      expect(updated).to.include({ events: null, description: null });
      expect(await client.webhooks.update(webhook.id, { enabled: false })).to.include({ enabled: false, disabledReason: 'disabled by an operator' });
      expect(await client.webhooks.update(webhook.id, { enabled: true })).to.include({ enabled: true, disabledReason: null });
      const refused = await request({ url: server.url, apiKey: server.apiKey }, 'GET', '/api/v1/webhooks');
      expect(refused.status).to.equal(403);
      expect(await client.webhooks.delete(webhook.id)).to.deep.equal({ id: webhook.id, deleted: true });
      const gone = await request({ url: server.url, apiKey: await server.newKey(undefined, 'secret') }, 'GET', `/api/v1/webhooks/${webhook.id}`);
      expect(gone).to.deep.include({ status: 404, body: { error: 'Webhook not found' } });
      const invalid = await request({ url: server.url, apiKey: await server.newKey(undefined, 'secret') }, 'POST', '/api/v1/webhooks', { body: { url: 'ftp://example.com', events: ['nothing.happened'] } });
      expect(invalid.status).to.equal(400);
      expect(Object.keys(invalid.body.details.fieldErrors)).to.include('events');
    });
  });
}

describe('webhooks: a server that stops while an attempt hangs', () => {
  it('when the server is closed while a receiver holds an attempt open, then it stops at once instead of waiting out the attempt (15 s)', async () => {
    const [backend] = backends();
    const hanging = await startHangingReceiver();
    const server = await startTestServer(backend!, { webhooksAllowPrivate: true });
    try {
      const key = await server.newKey(undefined, 'secret');
      expect((await request({ url: server.url, apiKey: key }, 'POST', '/api/v1/webhooks', { body: { url: hanging.url, events: ['feedback.created'] } })).status).to.equal(201);
      expect((await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Held' } })).status).to.equal(201);
      await until(() => hanging.held() >= 1, 10_000, 'the attempt to reach the receiver');
      expect(await settlesBefore(8_000, server.close()), 'the stop did not wait out the attempt').to.equal(true);
    } finally {
      await hanging.close();
    }
  });
});

describe('webhooks: no door into the private network', () => {
  const [backend] = backends();
  const server = withServer(backend!);

  it('when the server does not allow private targets, then a webhook URL on loopback or a private address is a 400 that says so', async () => {
    const key = await server.newKey(undefined, 'secret');
    for (const url of ['http://127.0.0.1:8080/hooks', 'http://[::1]/hooks', 'http://10.1.2.3/hooks', 'http://169.254.169.254/latest']) {
      const res = await request({ url: server.url, apiKey: key }, 'POST', '/api/v1/webhooks', { body: { url } });
      expect(res.status, url).to.equal(400);
      expect(res.body.details.fieldErrors.url[0], url).to.match(/private address/);
    }
    const scheme = await request({ url: server.url, apiKey: key }, 'POST', '/api/v1/webhooks', { body: { url: 'ftp://example.com/hooks' } });
    expect(scheme.body.details.fieldErrors.url).to.deep.equal(['url must use http or https']);
  });
});

for (const backend of backends()) {
  describe(`webhooks: the sender's pace (${backend.name})`, () => {
    const perSecond = 4;
    const server = withServer(backend, { webhooksAllowPrivate: true, webhooksPerSecond: perSecond });

    it('when a burst of events is written, then they leave as a steady stream at the pace, every one of them', async () => {
      const client = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(undefined, 'secret'), maxRetries: 0 });
      const receiver = await startReceiver();
      try {
        const { webhook } = await client.webhooks.create({ url: receiver.url, events: ['feedback.created'] });
        const burst = 12;
        await Promise.all(Array.from({ length: burst }, (_, i) => client.feedback.create({ title: `Burst ${i}` })));
        await until(() => receiver.received.length >= burst, 15_000, 'every event of the burst');
        await until(async () => (await server.sql('select 1 from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ?', [webhook.id])).length >= burst);
        const times = (
          await server.sql<{ ms: number }>(
            'select (extract(epoch from a.attempted_at) * 1000)::float8 as ms from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.endpoint_id = ? order by a.attempted_at',
            [webhook.id],
          )
        ).map((row) => Number(row.ms));
        // A second's worth may leave at once; the other eight wait their turn, a quarter of a second each.
        const spread = times[times.length - 1]! - times[0]!;
        expect(spread, 'the burst was spread out, not sent at once').to.be.at.least(((burst - perSecond) / perSecond) * 1000 * 0.9);
        expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).to.equal(burst);
      } finally {
        await receiver.close();
        await client.close();
      }
    });
  });
}
