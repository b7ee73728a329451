import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { FeedbackClient } from '@feedbackd/sdk';
import type { PulledWebhookDelivery } from '@feedbackd/sdk/contract';
import { CLAIM_PULLED, PULL_POLL_MS, PULL_PROBE } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { statementsDuring } from '../helpers/statement-count.js';
import { request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/webhook-receiver.js';

/*
 * Issue 37, "waiting pulls poll the database": each waiting pull looked for itself with three
 * statements every 250 ms, and 60 of them cut the embedded database's API rate about 4x. The
 * pulls that wait now share one look (pull-waiters.ts), and a pull runs its own statements only
 * when the look finds something for it.
 */

const WAITERS = 60;
/** How long the waiting pulls are watched: a measure, so a span of time, not a wait for a condition. */
const WINDOW_MS = 2_000;

for (const backend of backends()) {
  describe(`webhooks: waiting pulls poll together (${backend.name})`, () => {
    const server = withServer(backend);
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

    const pull = (webhookId: string, waitSeconds: number) =>
      request({ url: server.url, apiKey: secretKey }, 'POST', `/api/v1/webhooks/${webhookId}/pull`, { body: { waitSeconds } }).then((answer) => {
        expect(answer.status).to.equal(200);
        return { at: performance.now(), items: (answer.body as { items: PulledWebhookDelivery[] }).items };
      });

    it(`when ${WAITERS} pulls wait (waiting pulls poll the database), then between them they cost one shared statement every ${PULL_POLL_MS} ms, and a new event still wakes every one of them at once`, async () => {
      const endpoints: string[] = [];
      for (let i = 0; i < WAITERS; i++) endpoints.push((await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks', events: ['feedback.created'] })).webhook.id);

      const { result } = await statementsDuring(async (statements) => {
        // One after another, as listeners come (60 at once could wait past the embedded
        // database's wait for a connection: a 503); each has looked for itself once, found nothing, and waits.
        const pulls: ReturnType<typeof pull>[] = [];
        for (const id of endpoints) {
          pulls.push(pull(id, 20));
          await until(() => statements.filter((text) => text === CLAIM_PULLED).length >= pulls.length, 10_000, `pull ${pulls.length} waiting`);
        }
        const from = statements.length;
        const started = performance.now();
        await sleep(WINDOW_MS);
        const watched = { statements: statements.slice(from), ms: performance.now() - started };

        const written = performance.now();
        const item = await publicClient.feedback.create({ title: 'Wakes every listener' });
        const answers = await Promise.all(pulls);
        const after = statements.length;
        // Nobody waits any more: no look is left running.
        await sleep(3 * PULL_POLL_MS);
        return { watched, written, item, answers, afterAll: statements.slice(after) };
      });

      const { watched } = result;
      expect(watched.statements.filter((text) => text !== PULL_PROBE), 'no pull looks for itself while nothing is due').to.deep.equal([]);
      const looks = watched.statements.length;
      expect(looks, `looks in ${Math.round(watched.ms)} ms`).to.be.within(1, Math.ceil(watched.ms / PULL_POLL_MS) + 1);
      // What it was: three statements of each pull every PULL_POLL_MS.
      expect(looks).to.be.below((WAITERS * 3 * watched.ms) / PULL_POLL_MS / 100);

      for (const answer of result.answers) {
        expect(answer.items.map((delivery) => JSON.parse(delivery.body).data.feedback.id)).to.deep.equal([result.item.id]);
        expect(answer.at - result.written, 'woken by the event, long before the 20 s wait ends').to.be.below(5_000);
      }
      expect(result.afterAll.filter((text) => text === PULL_PROBE)).to.deep.equal([]);
    });

    it('when a pulled delivery comes due again while a pull waits (waiting pulls poll the database), then the shared look wakes that pull, and only that one, within its wait', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks', events: ['feedback.created'] });
      const { webhook: bystander } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/other', events: ['vote.added'] });
      await publicClient.feedback.create({ title: 'Comes back' });
      const [first] = (await pull(webhook.id, 5)).items;
      expect(first).to.include({ attempt: 1 });
      await client.webhooks.reportOutcome(webhook.id, first!.deliveryId, { statusCode: 500, latencyMs: 3 });
      // Its retry, 5 s away by the schedule, is made due in a second, as if by another process.
      await server.sql(`update webhook_deliveries set next_attempt_at = now() + interval '1 second' where id = ?`, [first!.deliveryId]);

      const started = performance.now();
      const [again, nothing] = await Promise.all([pull(webhook.id, 10), pull(bystander.id, 3)]);
      expect(again.items.map((delivery) => [delivery.deliveryId, delivery.attempt])).to.deep.equal([[first!.deliveryId, 2]]);
      expect(again.at - started).to.be.within(500, 4_000);
      expect(nothing.items).to.deep.equal([]);
      expect(nothing.at - started, 'the bystander waited out its wait').to.be.at.least(2_900);
    });

    it('when the caller of a waiting pull goes away (waiting pulls poll the database), then its wait ends and the shared look stops with the last one', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks' });
      const { result: later } = await statementsDuring(async (statements) => {
        const gone = new AbortController();
        const waiting = fetch(`${server.url}/api/v1/webhooks/${webhook.id}/pull`, {
          method: 'POST',
          headers: { 'x-api-key': secretKey, 'content-type': 'application/json' },
          body: JSON.stringify({ waitSeconds: 25 }),
          signal: gone.signal,
        }).catch(() => 'gone');
        await until(() => statements.includes(PULL_PROBE), 10_000, 'the first shared look');
        gone.abort();
        expect(await waiting).to.equal('gone');
        // The server sees the connection close, and the look that may be under way ends.
        await sleep(3 * PULL_POLL_MS);
        const from = statements.length;
        await sleep(3 * PULL_POLL_MS);
        return statements.slice(from);
      });
      expect(later).not.to.include(PULL_PROBE);
    });
  });
}
