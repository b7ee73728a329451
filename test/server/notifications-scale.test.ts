import { expect } from 'chai';
import { FeedbackClient } from '@feedbackd/sdk';
import { backends } from '../helpers/backends.js';
import { subscribeMany } from '../helpers/subscriptions.js';
import { request, withServer } from '../helpers/test-server.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const postgres = backends().find((backend) => backend.name === 'postgres');
const SUBSCRIBERS = 20_000;

/**
 * Issue 40 item 6 (docs/notifications.md, "Scale"): a status change on an item with many
 * subscribers records every notification (and a `notification.created` event per 500 of them) in
 * one statement, while votes on other items keep being answered. PostgreSQL only: it is the
 * production backend. How long 100,000 take, and the vote rate meanwhile, is measured by
 * `npm run bench:fan-out` (test/bench/fan-out.ts), not asserted here: a test must pass on a busy
 * machine.
 */
describe('notifications at scale (postgres)', function () {
  this.timeout(180_000);
  before(function () {
    if (!postgres) this.skip();
  });
  const server = withServer(postgres ?? backends()[0]!, { webhooksAllowPrivate: true });

  it('when an item with 20,000 subscribers moves, then every notification is recorded, 500 recipients an event, and votes on another item keep being answered meanwhile', async () => {
    const client = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(undefined, 'secret'), maxRetries: 0, timeoutMs: 120_000 });
    const receiver = await startReceiver();
    const { webhook } = await client.webhooks.create({ url: receiver.url, events: ['notification.created'] });
    try {
      const item = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Everyone wants this' } })).body.feedback.id as string;
      const other = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Something else' } })).body.feedback.id as string;
      await subscribeMany(server, item, 'scale', SUBSCRIBERS);

      let changing = true;
      let votes = 0;
      const slowest: number[] = [];
      const voting = (async () => {
        for (let n = 0; changing; n += 1) {
          const started = performance.now();
          const res = await request(server, 'POST', `/api/v1/feedback/${other}/vote`, { body: { endUserId: `voter-${n}` } });
          expect(res.status).to.be.oneOf([200, 201]);
          slowest.push(performance.now() - started);
          votes += 1;
        }
      })();
      const started = performance.now();
      await client.admin.update(item, { status: 'planned' });
      const seconds = (performance.now() - started) / 1000;
      changing = false;
      await voting;
      const [{ n }] = (await server.sql<{ n: number }>(`select count(*)::int as n from notifications where feedback_id = ? and kind = 'status_changed'`, [item])) as [{ n: number }];
      const [{ e }] = (await server.sql<{ e: number }>(`select count(*)::int as e from webhook_events where type = 'notification.created' and data->'notification'->'feedback'->>'id' = ?`, [item])) as [{ e: number }];
      console.log(`      fan-out of ${SUBSCRIBERS} subscribers: ${seconds.toFixed(1)} s, ${e} events; ${votes} votes answered meanwhile, slowest ${Math.max(...slowest).toFixed(0)} ms`);
      expect(n).to.equal(SUBSCRIBERS);
      expect(e).to.equal(SUBSCRIBERS / 500);
      expect(votes).to.be.greaterThan(0);
    } finally {
      await client.webhooks.delete(webhook.id);
      await receiver.close();
      await client.close();
    }
  });
});
