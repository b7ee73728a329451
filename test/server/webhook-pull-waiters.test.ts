import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { FeedbackClient } from '@feedbackd/sdk';
import type { PulledWebhookDelivery } from '@feedbackd/sdk/contract';
import { PULL_POLL_MS, PULL_PROBE, WAKEUP_CHANNEL } from '@feedbackd/server/testing';
import { backendAt, backends } from '../helpers/backends.js';
import { statementsDuring } from '../helpers/statement-count.js';
import { request, startTestServer, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/webhook-receiver.js';

/*
 * Issue 37, "waiting pulls poll the database": each waiting pull looked for itself with three
 * statements every 250 ms, and 60 of them cut the embedded database's API rate about 4x. Then the
 * pulls that waited shared one look every 250 ms, and 60 of them still cut it to about half
 * (issue 49, "waiting pulls cost a statement while nothing happens"). Now they look only when
 * woken (delivery/webhooks/wake-ups.ts): by a write that ended on the server, by its jobs' thread, by
 * another server on the same PostgreSQL, or at the time a delivery of theirs comes due; and a
 * pull runs its own statements only when the look finds something for it.
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

    /** The server's own count of a request's milliseconds: its request line, found by the request's id. */
    const serverMs = (id: string | null): number | undefined => {
      for (const line of server.logs) {
        if (!line.startsWith('INFO request ')) continue;
        const fields = JSON.parse(line.slice('INFO request '.length)) as { id: string; ms: number };
        if (fields.id === id) return fields.ms;
      }
      return undefined;
    };

    const pull = (webhookId: string, waitSeconds: number) =>
      request({ url: server.url, apiKey: secretKey }, 'POST', `/api/v1/webhooks/${webhookId}/pull`, { body: { waitSeconds } }).then(async (answer) => {
        expect(answer.status).to.equal(200);
        const at = performance.now();
        const id = answer.headers.get('x-request-id');
        await until(() => serverMs(id) !== undefined, 10_000, `the request line of pull ${id}`);
        // Woken rather than timed out is the server's own count (its request line's ms) below the
        // wait: not the test's clock, which a busy machine stretches while 60 answers are read.
        return { at, woken: serverMs(id)! < waitSeconds * 1000, items: (answer.body as { items: PulledWebhookDelivery[] }).items };
      });

    it(`when ${WAITERS} pulls wait (waiting pulls cost a statement while nothing happens), then they cost no statement at all until something happens, and a new event still wakes every one of them at once`, async () => {
      const endpoints: string[] = [];
      for (let i = 0; i < WAITERS; i++) endpoints.push((await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks', events: ['feedback.created'] })).webhook.id);

      const { result } = await statementsDuring(async (statements) => {
        // One after another, as listeners come (60 at once could wait past the embedded
        // database's wait for a connection: a 503); each has looked for itself once (its probe),
        // found nothing, and waits.
        const pulls: ReturnType<typeof pull>[] = [];
        for (const id of endpoints) {
          pulls.push(pull(id, 25));
          await until(() => statements.filter((text) => text === PULL_PROBE).length >= pulls.length, 10_000, `pull ${pulls.length} waiting`);
        }
        // The last probe's answer reaches its pull, which then waits: nothing shows that step, so a
        // poll's time for it (the window below is what is tested).
        await sleep(PULL_POLL_MS);
        const from = statements.length;
        const started = performance.now();
        // The window is the subject: what is tested is that no statement runs while they wait.
        await sleep(WINDOW_MS);
        const watched = { statements: statements.slice(from), ms: performance.now() - started };

        const item = await publicClient.feedback.create({ title: 'Wakes every listener' });
        const answers = await Promise.all(pulls);
        const after = statements.length;
        // Nobody waits any more: no look is left running. A window of three polls is the subject:
        // what is tested is that nothing runs in it.
        await sleep(3 * PULL_POLL_MS);
        return { watched, item, answers, afterAll: statements.slice(after) };
      });

      // What it was: one shared look every PULL_POLL_MS; before that, three statements of each pull as often.
      expect(result.watched.statements, `statements in ${Math.round(result.watched.ms)} ms of waiting`).to.deep.equal([]);

      for (const answer of result.answers) {
        expect(answer.items.map((delivery) => JSON.parse(delivery.body).data.feedback.id)).to.deep.equal([result.item.id]);
        // Woken by the event, not by the end of its wait (the longest the contract allows), however
        // long a busy machine takes to answer 60 of them.
        expect(answer.woken, 'woken by the event, before its wait ended').to.equal(true);
      }
      expect(result.afterAll.filter((text) => text === PULL_PROBE)).to.deep.equal([]);
    });

    it('when a pulled delivery comes due again while a pull waits (waiting pulls poll the database), then a look at the time it comes due wakes that pull, and only that one, within its wait', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks', events: ['feedback.created'] });
      const { webhook: bystander } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/other', events: ['vote.added'] });
      await publicClient.feedback.create({ title: 'Comes back' });
      const [first] = (await pull(webhook.id, 5)).items;
      expect(first).to.include({ attempt: 1 });
      await client.webhooks.reportOutcome(webhook.id, first!.deliveryId, { statusCode: 500, latencyMs: 3 });
      // Its retry, 5 s away by the schedule, is made due in a second, behind the server's back: no
      // change is told, and the pull's own look finds when it comes due.
      await server.sql(`update webhook_deliveries set next_attempt_at = now() + interval '1 second' where id = ?`, [first!.deliveryId]);

      const started = performance.now();
      const [again, nothing] = await Promise.all([pull(webhook.id, 10), pull(bystander.id, 3)]);
      expect(again.items.map((delivery) => [delivery.deliveryId, delivery.attempt])).to.deep.equal([[first!.deliveryId, 2]]);
      // Not before it came due (a second), and woken then rather than at the end of its 10 s wait.
      expect(again.at - started).to.be.at.least(500);
      expect(again.woken, 'woken by the look, before its wait ended').to.equal(true);
      expect(nothing.items).to.deep.equal([]);
      expect(nothing.at - started, 'the bystander waited out its wait').to.be.at.least(2_900);
    });

    it('when the caller of a waiting pull goes away (waiting pulls poll the database), then its wait ends, and a change after it brings no look', async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks' });
      const { result: later } = await statementsDuring(async (statements) => {
        const gone = new AbortController();
        const waiting = fetch(`${server.url}/api/v1/webhooks/${webhook.id}/pull`, {
          method: 'POST',
          headers: { 'x-api-key': secretKey, 'content-type': 'application/json' },
          body: JSON.stringify({ waitSeconds: 25 }),
          signal: gone.signal,
        }).catch(() => 'gone');
        await until(() => statements.includes(PULL_PROBE), 10_000, 'the pull looking for itself');
        gone.abort();
        expect(await waiting).to.equal('gone');
        // The server sees the connection close, and the look that may be under way ends (nothing
        // shows that it has: three polls' time).
        await sleep(3 * PULL_POLL_MS);
        const from = statements.length;
        // A write that would have woken it.
        await publicClient.feedback.create({ title: 'Nobody waits for this' });
        // The window is the subject: no probe may run in it.
        await sleep(3 * PULL_POLL_MS);
        return statements.slice(from);
      });
      expect(later).not.to.include(PULL_PROBE);
    });

    it("when a scheduled changelog entry comes out while a pull waits (waiting pulls cost a statement while nothing happens), then the jobs' announcement wakes it within its wait", async () => {
      const { webhook } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks', events: ['changelog.published'] });
      const waiting = pull(webhook.id, 25);
      // Written by the jobs' thread at its time, not by a request: only the jobs can wake the pull for it.
      const entry = await client.changelog.create({ title: 'Out soon', body: '', publishAt: new Date(Date.now() + 3_000).toISOString() });
      const answer = await waiting;
      expect(answer.items.map((delivery) => JSON.parse(delivery.body).data.entry.id)).to.deep.equal([entry.id]);
      expect(answer.woken, 'woken by the announcement, before its wait ended').to.equal(true);
    });

    if (backend.name === 'postgres') {
      it('when an event is written through another server on the same PostgreSQL while a pull waits (waiting pulls cost a statement while nothing happens), then it wakes the pull within its wait', async () => {
        const other = await startTestServer(backendAt(backend.name, server.database.location), { existingKey: server.apiKey });
        try {
          const { webhook } = await client.webhooks.listen({ forwardTo: 'http://localhost:4000/hooks', events: ['feedback.created'] });
          const waiting = pull(webhook.id, 25);
          // The pull waits once this server listens for the others' changes.
          await until(
            async () =>
              (await server.sql<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and query = ?`, [`listen ${WAKEUP_CHANNEL}`]))[0]!.n > 0,
            10_000,
            'the server listening',
          );
          const made = await request(other, 'POST', '/api/v1/feedback', { body: { title: 'From the other machine' } });
          expect(made.status).to.equal(201);
          const answer = await waiting;
          expect(answer.items.map((delivery) => JSON.parse(delivery.body).data.feedback.id)).to.deep.equal([made.body.feedback.id]);
          expect(answer.woken, 'woken by the other server, before its wait ended').to.equal(true);
        } finally {
          await other.server.close();
        }
      });
    }
  });
}
