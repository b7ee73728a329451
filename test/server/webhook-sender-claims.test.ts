import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { openDatabase, openSqlPool, type Database, type SqlPool } from '@feedbackd/server';
import { FAN_OUT_AND_CLAIM, RECORD_OUTCOMES, submitBatches, webhookSender } from '@feedbackd/server/testing';
import { newWebhookSecret } from '@feedbackd/sdk/webhooks';
import { backends, type FreshDatabase } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';
import { outboxSettled, startReceiver, until, type Received } from '../helpers/webhook-receiver.js';

/*
 * Issue 49, finding 1, "the webhook sender sends successful deliveries twice": when a run's
 * fan-out claimed more deliveries than it had free slots (one event to several endpoints) while a
 * grouped row (a batch of anonymous submissions) also waited, its next claim was given a negative
 * LIMIT; the statement failed, the run threw with attempts under way, and those attempts reached
 * their receivers, were never recorded, and were sent again when their claims lapsed.
 *
 * These tests drive the sender itself (webhookSender) on a database of their own, where nothing
 * else sends, so that the order of its statements is the test's: a statement can be held until the
 * outbox is as the test wants it, or made to fail. The events are written by the server's own
 * submission statements (submitBatches): alone, one event row each; together, one grouped row.
 */

/** A claim lapses this long after it was made (twice the attempts' time limit, and 5 s): what a lost record used to cost. */
const TIMEOUT_MS = 5_000;

/** Runs a statement of the sender's (`run`), or holds it first, or fails it: what a test does to one. */
type Around = (text: string, run: () => Promise<unknown[]>) => Promise<unknown[]>;

for (const backend of backends()) {
  describe(`webhooks: the sender's claims and records (${backend.name})`, () => {
    let fresh: FreshDatabase;
    let database: Database;
    let pool: SqlPool;
    before(async () => {
      fresh = await backend.createMigrated();
      database = await openDatabase(fresh.location, 'server');
      pool = openSqlPool(database, 2);
    });
    after(async () => {
      await pool?.close();
      await database?.close();
      await fresh?.drop();
    });

    const rows = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => pool.query<T>('', text, values);

    /** A project of the test's own, with `count` endpoints subscribed to every event, each at a receiver of its own. */
    async function project(count: number) {
      const [made] = await rows<{ id: string }>('insert into projects (slug, name, voter_salt) values ($1, $1, $2) returning id', [
        `sender-${randomBytes(4).toString('hex')}`,
        randomBytes(32).toString('base64url'),
      ]);
      const id = made!.id;
      const receivers = await Promise.all(Array.from({ length: count }, () => startReceiver()));
      for (const receiver of receivers) await rows('insert into webhook_endpoints (project_id, url, secret) values ($1, $2, $3)', [id, receiver.url, newWebhookSecret()]);
      const writes = submitBatches(pool, 1);
      let n = 0;
      const submission = () => ({ project: id, title: `Item ${++n}`, description: null, type: 'idea', metadata: null, voterKey: `visitor-${n}` });
      return {
        id,
        receivers,
        /** Anonymous submissions one after another: one event row each. */
        alone: async (items: number) => {
          for (let i = 0; i < items; i++) await writes.submit(submission());
        },
        /** Anonymous submissions at once: they leave as one batch statement, whose events are one grouped row. */
        together: async (items: number) => {
          await Promise.all(Array.from({ length: items }, () => writes.submit(submission())));
        },
        received: (): Received[] => receivers.flatMap((receiver) => receiver.received),
        close: () => Promise.all(receivers.map((receiver) => receiver.close())),
      };
    }

    /** What waits in project `id`'s outbox: events alone and grouped rows. */
    const outbox = async (id: string) => {
      const [row] = await rows<{ alone: number; grouped: number }>(
        `select count(*) filter (where type <> 'batch')::int as alone, count(*) filter (where type = 'batch')::int as grouped
         from webhook_events where project_id = $1 and not fanned_out`,
        [id],
      );
      return row!;
    };

    /** The sender on the test's pool, each of whose statements goes through `around`; what it logs is kept, and its runs that fail. */
    function sender(perSecond: number, around: Around = (_text, run) => run()) {
      const logged: string[] = [];
      const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
      const sql = {
        query: <Row extends Record<string, unknown>>(name: string, text: string, values: readonly unknown[]) =>
          around(text, () => pool.query<Row>(name, text, values)) as Promise<Row[]>,
      };
      const running = webhookSender({ sql, logger: { debug: () => {}, info: keep('info'), warn: keep('warn'), error: keep('error') }, allowPrivate: true, timeoutMs: TIMEOUT_MS, perSecond });
      const failures: string[] = [];
      const run = () => running.sendDue().catch((error: unknown) => void failures.push(String(error)));
      return {
        logged,
        failures,
        /** One run; a run that fails is counted. */
        run,
        /** Runs until project `id` has nothing waiting: every event fanned out and every delivery ended (its attempt recorded). */
        settle: (id: string) =>
          until(
            async () => {
              await run();
              const [row] = await rows<{ waiting: number }>(
                `select (select count(*) from webhook_events where project_id = $1 and not fanned_out)::int
                   + (select count(*) from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id where w.project_id = $1 and d.state = 'pending')::int as waiting`,
                [id],
              );
              return row!.waiting === 0;
            },
            // Long enough for a claim to lapse and its delivery to go again: that is what these tests look for.
            60_000,
            'every delivery of the project sent and recorded',
          ),
      };
    }

    /** How many attempts of project `id` are logged. */
    const logged = async (id: string) => {
      const [row] = await rows<{ logged: number }>(
        'select count(*)::int as logged from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id join webhook_endpoints w on w.id = d.endpoint_id where w.project_id = $1',
        [id],
      );
      return row!.logged;
    };

    /** Each delivery of project `id`: how often its webhook-id reached a receiver, its attempts counted and logged, and its state. */
    async function deliveries(id: string, received: Received[]) {
      const arrived = new Map<string, number>();
      for (const { headers } of received) arrived.set(String(headers['webhook-id']), (arrived.get(String(headers['webhook-id'])) ?? 0) + 1);
      const made = await rows<{ id: string; state: string; attempts: number; logged: number }>(
        `select d.id, d.state, d.attempts, (select count(*) from webhook_attempts a where a.delivery_id = d.id)::int as logged
         from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id where w.project_id = $1 order by d.id`,
        [id],
      );
      return {
        made,
        /** Webhook-ids that arrived other than once (twice, or never), with their count. */
        notOnce: made.map((d) => [`msg_${d.id}`, arrived.get(`msg_${d.id}`) ?? 0] as const).filter(([, count]) => count !== 1),
        /** Webhook-ids that arrived and are no delivery of the project. */
        strangers: [...arrived.keys()].filter((webhookId) => !made.some((d) => `msg_${d.id}` === webhookId)),
      };
    }

    /** Every delivery made arrived exactly once, succeeded, with one attempt counted and one logged. */
    function expectEachOnce(result: Awaited<ReturnType<typeof deliveries>>, count: number) {
      expect(result.made, 'deliveries made').to.have.length(count);
      expect(result.notOnce, 'webhook-ids that did not arrive exactly once').to.deep.equal([]);
      expect(result.strangers).to.deep.equal([]);
      expect(result.made.filter((d) => d.state !== 'succeeded' || d.attempts !== 1 || d.logged !== 1), 'deliveries not succeeded at their one attempt, logged once').to.deep.equal([]);
    }

    it('when one event fans out to several endpoints while a grouped row of batched anonymous submissions also waits (the webhook sender sends successful deliveries twice), then each delivery reaches its receiver exactly once with its one attempt recorded, and no run fails', async () => {
      const endpoints = 7;
      const p = await project(endpoints);
      try {
        let fanOuts = 0;
        let outboxReady: () => void = () => {};
        const ready = new Promise<void>((resolve) => (outboxReady = resolve));
        // Ten attempts a second: a run has at most 10 free slots, fewer than one event's deliveries to 7 endpoints, twice.
        const s = sender(10, async (text, run) => {
          // The run's second fan-out (its next turn, after the first event's attempts were sent)
          // waits until the outbox holds the mixed fan-out: events alone that claim more than the
          // free slots, and a grouped row.
          if (text === FAN_OUT_AND_CLAIM && ++fanOuts === 2) await ready;
          return run();
        });
        await p.alone(1);
        const first = s.run();
        // The first turn's attempts have reached their receivers, and the run's next turn waits.
        await until(() => p.received().length === endpoints && fanOuts === 2, 15_000, 'the first event at every receiver, and the next turn');
        await p.alone(2);
        await p.together(6);
        expect(await outbox(p.id), 'the outbox of the next turn').to.deep.equal({ alone: 2, grouped: 1 });
        outboxReady();
        await first;
        await s.settle(p.id);

        expectEachOnce(await deliveries(p.id, p.received()), (1 + 2 + 6) * endpoints);
        expect(s.failures, 'runs of the sender that failed').to.deep.equal([]);
        expect(s.logged).to.deep.equal([]);
      } finally {
        await p.close();
      }
    });

    it('when a claim statement fails while attempts are under way (the webhook sender sends successful deliveries twice), then the run records them before it fails, and none is sent again', async () => {
      const p = await project(3);
      try {
        let fanOuts = 0;
        const s = sender(100, async (text, run) => {
          if (text === FAN_OUT_AND_CLAIM && ++fanOuts === 2) {
            // The next turn, once the first turn's attempts have reached their receivers.
            await until(() => p.received().length === 6, 15_000, 'the first turn at its receivers');
            throw new Error('Connection terminated unexpectedly');
          }
          return run();
        });
        await p.alone(2);
        await s.run();
        expect(s.failures).to.have.length(1);
        expect(s.failures[0]).to.include('Connection terminated unexpectedly');
        expect(await logged(p.id), 'attempts recorded by the run that failed, before it failed').to.equal(6);

        await p.alone(1);
        await s.settle(p.id);
        expectEachOnce(await deliveries(p.id, p.received()), 3 * 3);
        expect(s.failures).to.have.length(1);
      } finally {
        await p.close();
      }
    });

    it('when the record of attempts fails (the webhook sender sends successful deliveries twice), then the next run records them first, once, and none is sent again', async () => {
      const p = await project(3);
      try {
        let recordsFail = true;
        const s = sender(100, async (text, run) => {
          if (text === RECORD_OUTCOMES && recordsFail) throw new Error('Connection terminated unexpectedly');
          return run();
        });
        await p.alone(2);
        await s.run();
        expect(s.failures).to.have.length(1);
        expect(s.failures[0]).to.include('Connection terminated unexpectedly').and.include('6 attempts made wait for their record');
        expect(await logged(p.id)).to.equal(0);
        recordsFail = false;
        await s.settle(p.id);
        expectEachOnce(await deliveries(p.id, p.received()), 2 * 3);
        expect(s.failures).to.have.length(1);
      } finally {
        await p.close();
      }
    });

    it('when the record of attempts commits but its answer is lost (the webhook sender sends successful deliveries twice), then recording them again writes nothing twice', async () => {
      const p = await project(3);
      try {
        let records = 0;
        const s = sender(100, async (text, run) => {
          const answer = await run();
          if (text === RECORD_OUTCOMES && ++records === 1) throw new Error('Connection terminated unexpectedly');
          return answer;
        });
        await p.alone(2);
        await s.run();
        expect(s.failures).to.have.length(1);
        await s.settle(p.id);
        expect(records, 'records sent').to.be.at.least(2);
        expectEachOnce(await deliveries(p.id, p.received()), 2 * 3);
        expect(s.failures).to.have.length(1);
      } finally {
        await p.close();
      }
    });
  });
}

for (const backend of backends()) {
  describe(`webhooks: the sender under bursts of mixed fan-out, through a server (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });

    it("when bursts of comments and anonymous submissions go to several endpoints (the webhook sender sends successful deliveries twice: the issue's reproduction), then every webhook-id arrives exactly once and no run of the sender fails", async () => {
      const secretKey = await server.newKey(undefined, 'secret');
      const receivers = await Promise.all(Array.from({ length: 7 }, () => startReceiver()));
      try {
        for (const receiver of receivers) expect((await request(server, 'POST', '/api/v1/webhooks', { body: { url: receiver.url }, apiKey: secretKey })).status).to.equal(201);
        const item = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Talked about' } })).body.feedback as { id: string };
        for (let burst = 0; burst < 3; burst++) {
          const answers = await Promise.all([
            ...Array.from({ length: 12 }, (_, i) =>
              request(server, 'POST', `/api/v1/feedback/${item.id}/comments`, { body: { content: `Burst ${burst}, comment ${i}`, endUser: { externalId: `commenter-${burst}-${i}` } } }),
            ),
            ...Array.from({ length: 16 }, (_, i) => request(server, 'POST', '/api/v1/feedback', { body: { title: `Burst ${burst}, anonymous ${i}` } })),
          ]);
          expect(answers.map((answer) => answer.status).filter((status) => status !== 201)).to.deep.equal([]);
        }
        await outboxSettled(server, 60_000);

        const made = await server.sql<{ id: string; state: string; attempts: number; logged: number }>(
          'select d.id, d.state, d.attempts, (select count(*) from webhook_attempts a where a.delivery_id = d.id)::int as logged from webhook_deliveries d',
        );
        const arrived = new Map<string, number>();
        for (const { headers } of receivers.flatMap((receiver) => receiver.received)) arrived.set(String(headers['webhook-id']), (arrived.get(String(headers['webhook-id'])) ?? 0) + 1);
        expect(made, 'deliveries: the item and 3 bursts of 28 events, to 7 endpoints').to.have.length((1 + 3 * 28) * 7);
        expect(made.map((d) => [d.id, arrived.get(`msg_${d.id}`) ?? 0]).filter(([, count]) => count !== 1), 'webhook-ids that did not arrive exactly once').to.deep.equal([]);
        expect(arrived.size).to.equal(made.length);
        expect(made.filter((d) => d.state !== 'succeeded' || d.attempts !== 1 || d.logged !== 1)).to.deep.equal([]);
        expect(server.logs.filter((line) => line.includes('webhook sender failed'))).to.deep.equal([]);
      } finally {
        await Promise.all(receivers.map((receiver) => receiver.close()));
      }
    });
  });
}
