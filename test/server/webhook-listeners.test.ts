import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { FeedbackClient, NotFoundError } from '@feedbackd/sdk';
import type { PulledWebhookDelivery } from '@feedbackd/sdk/contract';
import { LISTENER_IDLE_HOURS, PRUNE_LISTENERS } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { request, startTestServer, withServer, type TestServer } from '../helpers/test-server.js';
import { startReceiver, until } from '../helpers/webhook-receiver.js';
import { settlesBefore } from '../helpers/until.js';

/** Pull endpoints (`feedback webhooks listen`): the server hands their deliveries out and never sends them. */
for (const backend of backends()) {
  describe(`webhook listeners (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });
    let client: FeedbackClient;
    let publicClient: FeedbackClient;
    let secretKey: string;
    before(async () => {
      secretKey = await server.newKey(undefined, 'secret');
      client = new FeedbackClient({ baseUrl: server.url, apiKey: secretKey, maxRetries: 0 });
      publicClient = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
    });
    afterEach(async () => {
      for (const webhook of await client.webhooks.list()) await client.webhooks.delete(webhook.id);
    });
    after(async () => {
      await client?.close();
      await publicClient?.close();
    });

    const secretCall = (method: string, path: string, body?: unknown) => request({ url: server.url, apiKey: secretKey }, method, path, { body });
    const deliveryStates = async (webhookId: string) =>
      server.sql<{ state: string; attempts: number }>('select state, attempts from webhook_deliveries where endpoint_id = ? order by created_at', [webhookId]);

    it('when a submission and a vote are made for a listener, then a pull hands them out signed as the sender signs, and standardwebhooks verifies them with the secret listen gave', async () => {
      const { webhook, secret } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks' });
      expect(webhook).to.include({ url: 'http://localhost:4000/hooks', mode: 'pull', enabled: true, description: 'feedback webhooks listen', events: null });
      const item = await publicClient.feedback.create({ title: 'Pulled', endUser: { externalId: 'ada' } });
      await publicClient.votes.toggle(item.id, { endUser: { externalId: 'grace' } });

      const pulled = await client.webhooks.pull(webhook.id);
      expect(pulled.map((delivery) => delivery.eventType)).to.deep.equal(['feedback.created', 'vote.added']);
      const verifier = new Webhook(secret);
      for (const delivery of pulled) {
        expect(delivery.attempt).to.equal(1);
        expect(delivery.headers['webhook-id']).to.equal(`msg_${delivery.deliveryId}`);
        expect(delivery.headers['content-type']).to.equal('application/json');
        expect(verifier.verify(delivery.body, delivery.headers)).to.include({ type: delivery.eventType });
      }
      expect(JSON.parse(pulled[1]!.body).data).to.deep.equal({ feedback: { id: item.id, voteCount: 2 }, endUser: { externalId: 'grace' } });
      // Claimed: a second pull gets nothing until they are reported or their claim expires.
      expect(await client.webhooks.pull(webhook.id)).to.deep.equal([]);
      const [row] = await server.sql<{ recent: boolean }>(`select last_pulled_at > now() - interval '1 minute' as recent from webhook_endpoints where id = ?`, [webhook.id]);
      expect(row!.recent).to.equal(true);
    });

    it('when a push and a pull endpoint subscribe side by side, then the push receiver gets its events and the pull endpoint\'s wait, unsent, until pulled', async () => {
      const receiver = await startReceiver();
      try {
        await client.webhooks.create({ url: receiver.url, events: ['feedback.created'] });
        const { webhook: listener } = await client.webhooks.listen({ forwardTo: receiver.url, events: ['feedback.created'] });
        await publicClient.feedback.create({ title: 'Side by side' });
        await until(() => receiver.received.length >= 1, 10_000, 'the push delivery');
        // Several rounds of the sender (twice a second): none of them takes the pull endpoint's delivery.
        // The window is the subject: a round with nothing to send shows nothing to wait for.
        await sleep(1_500);
        expect(receiver.received).to.have.length(1);
        expect(await deliveryStates(listener.id)).to.deep.equal([{ state: 'pending', attempts: 0 }]);
        expect(await client.webhooks.pull(listener.id)).to.have.length(1);
        expect(await deliveryStates(listener.id)).to.deep.equal([{ state: 'pending', attempts: 1 }]);
      } finally {
        await receiver.close();
      }
    });

    it('when a listener reports a 500, then a retry is scheduled as the sender schedules one; a 2xx then marks it succeeded, and a report of no live claim is a 404', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://127.0.0.1:4000/hooks', events: ['feedback.created'] });
      await publicClient.feedback.create({ title: 'Try again' });
      const [first] = await client.webhooks.pull(webhook.id);
      const failed = await client.webhooks.reportOutcome(webhook.id, first!.deliveryId, { statusCode: 500, latencyMs: 12, error: null, response: 'not now' });
      expect(failed).to.include({ state: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500' });
      expect(failed.attemptLog).to.have.length(1);
      expect(failed.attemptLog[0]).to.include({ statusCode: 500, latencyMs: 12, error: null, response: 'not now' });
      const wait = Date.parse(failed.nextAttemptAt!) - Date.now();
      expect(wait, 'the first retry of the schedule: 5 s, with jitter').to.be.within(3_000, 5_600);
      await expectNotFound(client.webhooks.reportOutcome(webhook.id, first!.deliveryId, { statusCode: 200, latencyMs: 1 }), 'Webhook delivery not found');

      // Not due yet; once due, the same delivery comes again as attempt 2.
      expect(await client.webhooks.pull(webhook.id)).to.deep.equal([]);
      await server.sql('update webhook_deliveries set next_attempt_at = now() where id = ?', [first!.deliveryId]);
      const [second] = await client.webhooks.pull(webhook.id);
      expect(second).to.include({ deliveryId: first!.deliveryId, attempt: 2 });
      expect(second!.body).to.equal(first!.body);
      const long = 'x'.repeat(5_000);
      const succeeded = await client.webhooks.reportOutcome(webhook.id, second!.deliveryId, { statusCode: 204, latencyMs: 3, error: null, response: long });
      expect(succeeded).to.include({ state: 'succeeded', attempts: 2, lastStatus: 204, nextAttemptAt: null });
      expect(succeeded.attemptLog.map((attempt) => attempt.statusCode)).to.deep.equal([500, 204]);
      expect(succeeded.attemptLog[1]!.response, 'the log keeps the first 2 KB').to.have.length(2_048);
    });

    it('when a listener reports a 410 or a forward that failed before an answer, then the first disables the endpoint, and its pulls are empty', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://127.0.0.1:4000/hooks', events: ['feedback.created'] });
      await publicClient.feedback.create({ title: 'One' });
      await publicClient.feedback.create({ title: 'Two' });
      const [refused, gone] = await client.webhooks.pull(webhook.id);
      const unanswered = await client.webhooks.reportOutcome(webhook.id, refused!.deliveryId, { statusCode: null, latencyMs: 2, error: 'connect ECONNREFUSED 127.0.0.1:4000' });
      expect(unanswered).to.include({ state: 'pending', lastStatus: null, lastError: 'connect ECONNREFUSED 127.0.0.1:4000' });
      expect(await client.webhooks.reportOutcome(webhook.id, gone!.deliveryId, { statusCode: 410, latencyMs: 2 })).to.include({ state: 'failed', lastStatus: 410 });
      expect(await client.webhooks.get(webhook.id)).to.include({ enabled: false, disabledReason: 'the endpoint answered 410 Gone' });
      await server.sql('update webhook_deliveries set next_attempt_at = now() where endpoint_id = ?', [webhook.id]);
      expect(await client.webhooks.pull(webhook.id)).to.deep.equal([]);
    });

    it('when a pull waits (waitSeconds 5), then it answers soon after an event is written, and with nothing due it answers empty when the wait is over', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://127.0.0.1:4000/hooks', events: ['feedback.created'] });
      // A wait of 5 s, and a timer of 4 s started with it: the answer comes first, woken by the write.
      const waiting = client.webhooks.pull(webhook.id, { waitSeconds: 5 });
      const early = settlesBefore(4_000, waiting);
      // No condition shows the pull waiting; one that still looks finds the event itself, and the test holds as well.
      await sleep(800);
      await publicClient.feedback.create({ title: 'While waiting' });
      expect(await early, 'answered before its wait was over').to.equal(true);
      expect((await waiting).map((delivery) => delivery.eventType)).to.deep.equal(['feedback.created']);

      // With nothing due, it waits its second out. A lower bound of the wait under test, which a busy
      // machine only lengthens (no upper one: that is what a busy machine breaks).
      const idle = performance.now();
      expect(await client.webhooks.pull(webhook.id, { waitSeconds: 1 })).to.deep.equal([]);
      expect(performance.now() - idle, 'waited its second out').to.be.at.least(900);
    });

    it('when the caller of a waiting pull goes away, then the pull ends at once instead of waiting out its 25 s', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://127.0.0.1:4000/hooks' });
      const path = `/api/v1/webhooks/${webhook.id}/pull`;
      const gone = new AbortController();
      const pulling = fetch(server.url + path, { method: 'POST', headers: { 'x-api-key': secretKey, 'content-type': 'application/json' }, body: '{"waitSeconds":25}', signal: gone.signal });
      // No condition shows the pull waiting: a moment for it to, before its caller goes.
      await sleep(300);
      gone.abort();
      await pulling.catch(() => {});
      const ended = () => server.logs.map((line) => /^INFO request (.*)$/.exec(line)?.[1]).filter((fields) => fields !== undefined && fields.includes(path));
      await until(() => ended().length > 0, 5_000, 'the request line of the abandoned pull');
      expect(JSON.parse(ended()[0]!).ms, 'ended before its 25 s wait was over (the server\'s own count)').to.be.below(25_000);
    });

    it('when a pull that waits is sent with an Idempotency-Key, then the key is ignored: other requests are answered meanwhile and each pull claims afresh', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://127.0.0.1:4000/hooks' });
      const pull = () => request({ url: server.url, apiKey: secretKey }, 'POST', `/api/v1/webhooks/${webhook.id}/pull`, { body: { waitSeconds: 2 }, headers: { 'idempotency-key': 'same-key' } });
      const waiting = pull();
      let pullAnswered = false;
      void waiting.then(() => (pullAnswered = true));
      // No condition shows the pull waiting; a pull that still looks finds the item itself, and the test holds as well.
      await sleep(300);
      const item = await publicClient.feedback.create({ title: 'Not held up' });
      expect(pullAnswered, 'the write waited for the pull: a transaction of the waiting pull holds the database').to.equal(false);
      const answer = await waiting;
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('idempotent-replayed')).to.equal(null);
      expect((answer.body as { items: PulledWebhookDelivery[] }).items.map((delivery) => JSON.parse(delivery.body).data.feedback.id)).to.deep.equal([item.id]);
      expect((await pull()).body).to.deep.equal({ items: [] });
    });

    it('when the id is a push endpoint, another project\'s listener or unknown, then pull and report answer 404 Webhook not found', async () => {
      const { webhook: push } = await client.webhooks.create({ url: 'http://127.0.0.1:9/never' });
      const other = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey('listener-other', 'secret'), maxRetries: 0 });
      try {
        const { webhook: theirs } = await other.webhooks.listen({ forwardTo: 'http://127.0.0.1:4000/hooks' });
        for (const id of [push.id, theirs.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
          await expectNotFound(client.webhooks.pull(id), 'Webhook not found');
          await expectNotFound(client.webhooks.reportOutcome(id, '00000000-0000-4000-8000-000000000000', { statusCode: 200, latencyMs: 1 }), 'Webhook not found');
        }
        await other.webhooks.delete(theirs.id);
      } finally {
        await other.close();
      }
      const mine = await client.webhooks.listen({ forwardTo: 'http://127.0.0.1:4000/hooks' });
      await expectNotFound(client.webhooks.reportOutcome(mine.webhook.id, '00000000-0000-4000-8000-000000000000', { statusCode: 200, latencyMs: 1 }), 'Webhook delivery not found');
      const tested = await secretCall('POST', `/api/v1/webhooks/${mine.webhook.id}/test`);
      expect(tested.status, 'the server never connects to a listener, not even for a test').to.equal(400);
    });

    it('when the bodies are wrong, then each route answers 400 with the details per field, never a 5xx', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://127.0.0.1:4000/hooks' });
      const cases: [string, string, unknown, string][] = [
        ['POST', '/api/v1/webhooks/listen', {}, 'forwardTo'],
        ['POST', '/api/v1/webhooks/listen', { forwardTo: 'ftp://example.com/hooks' }, 'forwardTo'],
        ['POST', '/api/v1/webhooks/listen', { forwardTo: 'not a url' }, 'forwardTo'],
        ['POST', '/api/v1/webhooks/listen', { forwardTo: 'http://127.0.0.1/x', events: ['nothing.happened'] }, 'events'],
        ['POST', `/api/v1/webhooks/${webhook.id}/pull`, { waitSeconds: 26 }, 'waitSeconds'],
        ['POST', `/api/v1/webhooks/${webhook.id}/pull`, { waitSeconds: 1.5 }, 'waitSeconds'],
        ['POST', `/api/v1/webhooks/${webhook.id}/pull`, { limit: 0 }, 'limit'],
        ['POST', `/api/v1/webhooks/${webhook.id}/pull`, { limit: '20' }, 'limit'],
        ['POST', `/api/v1/webhooks/${webhook.id}/deliveries/00000000-0000-4000-8000-000000000000/outcome`, { statusCode: 42, latencyMs: 1 }, 'statusCode'],
        ['POST', `/api/v1/webhooks/${webhook.id}/deliveries/00000000-0000-4000-8000-000000000000/outcome`, { statusCode: 200, latencyMs: -1 }, 'latencyMs'],
        ['POST', `/api/v1/webhooks/${webhook.id}/deliveries/00000000-0000-4000-8000-000000000000/outcome`, { statusCode: 200, latencyMs: 99_999_999_999 }, 'latencyMs'],
        ['POST', `/api/v1/webhooks/${webhook.id}/deliveries/00000000-0000-4000-8000-000000000000/outcome`, { statusCode: null, latencyMs: 1 }, 'error'],
        ['POST', `/api/v1/webhooks/${webhook.id}/deliveries/00000000-0000-4000-8000-000000000000/outcome`, { latencyMs: 1, error: 'refused' }, 'statusCode'],
      ];
      for (const [method, path, body, field] of cases) {
        const answer = await secretCall(method, path, body);
        expect(answer.status, `${JSON.stringify(body)} to ${path}`).to.equal(400);
        expect(answer.body.error).to.equal('Invalid input');
        expect(Object.keys(answer.body.details.fieldErrors), JSON.stringify(body)).to.include(field);
      }
      const publicKey = await request({ url: server.url, apiKey: server.apiKey }, 'POST', `/api/v1/webhooks/${webhook.id}/pull`, { body: {} });
      expect(publicKey.status).to.equal(403);
    });

    it(`when a listener has not pulled for ${LISTENER_IDLE_HOURS} hour, then the pruning deletes it with its deliveries; one that pulls stays`, async () => {
      const { webhook: gone } = await client.webhooks.listen({ forwardTo: 'http://127.0.0.1:4000/hooks' });
      const { webhook: alive } = await client.webhooks.listen({ forwardTo: 'http://127.0.0.1:4001/hooks' });
      const { webhook: push } = await client.webhooks.create({ url: 'http://127.0.0.1:9/never' });
      await publicClient.feedback.create({ title: 'Left behind' });
      await server.sql(`update webhook_endpoints set last_pulled_at = now() - interval '61 minutes', created_at = now() - interval '2 hours' where id in (?, ?)`, [gone.id, push.id]);
      await client.webhooks.pull(alive.id);
      await server.sql(PRUNE_LISTENERS);
      expect((await client.webhooks.list()).map((webhook) => webhook.id).sort()).to.deep.equal([alive.id, push.id].sort());
      expect(await deliveryStates(gone.id)).to.deep.equal([]);
    });
  });
}

describe('webhook listeners: a server that stops or allows no private targets', () => {
  const [backend] = backends();
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('when the server stops while a pull waits, then the pull answers at once and the stop is not held up', async () => {
    server = await startTestServer(backend!);
    const key = await server.newKey(undefined, 'secret');
    // A server that allows no private targets still takes a listener's localhost: it never connects to it.
    const listen = await request({ url: server.url, apiKey: key }, 'POST', '/api/v1/webhooks/listen', { body: { forwardTo: 'http://localhost:4000/hooks' } });
    expect(listen.status).to.equal(201);
    const waiting = request({ url: server.url, apiKey: key }, 'POST', `/api/v1/webhooks/${listen.body.webhook.id}/pull`, { body: { waitSeconds: 25 } });
    // No condition shows the pull waiting; one stopped before it waits is answered at once too.
    await sleep(500);
    const stopping = server.close();
    server = undefined;
    expect(await settlesBefore(15_000, Promise.all([waiting, stopping])), 'neither the pull nor the stop waited out the 25 s').to.equal(true);
    expect(await waiting).to.deep.include({ status: 200, body: { items: [] } });
  });
});

/** Fails unless `call` rejects with the SDK's NotFoundError carrying `message`. */
async function expectNotFound(call: Promise<unknown>, message: string): Promise<void> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).to.be.instanceOf(NotFoundError);
  expect((error as NotFoundError).message).to.equal(message);
}
