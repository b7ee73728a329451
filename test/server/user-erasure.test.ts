import { expect } from 'chai';
import { FeedbackClient, NotFoundError, PermissionDeniedError } from '@feedbackd/sdk';
import { verifyWebhook, type WebhookEvent } from '@feedbackd/sdk/webhooks';
import { importDump, ImportConflictError } from '@feedbackd/server';
import { rejection } from '../helpers/assertions.js';
import { backends } from '../helpers/backends.js';
import { expectCountersExact, expectListTotalsExact } from '../helpers/invariants.js';
import { request, withServer, type TestServer } from '../helpers/test-server.js';
import { dumpOf, emptyDatabase, linesOf } from '../helpers/transfer.js';
import { outboxSettled, startReceiver, until } from '../helpers/webhook-receiver.js';

// Issue 37, finding 7: no way to erase or export one person. These tests erase and export end
// users by externalId and then look for what is left of them in every table.

/** A person with everything the API can store about them, and what they did. */
interface Person {
  externalId: string;
  name: string;
  email: string;
  ownItem: string;
  otherItem: string;
}

/**
 * Every place a person may be left in, found by brute force rather than by a list that could
 * forget a table: every column of every table of the schema (information_schema.columns, so a
 * table or column added later is searched too), cast to text (jsonb, arrays and uuids included),
 * searched with strpos for each of the person's strings (externalId, name, email, internal id).
 * Returns `table.column` of each hit, with the event type for webhook_events rows and for the
 * receivers' answers to their deliveries (webhook_attempts).
 */
async function tracesOf(server: Pick<TestServer, 'sql'>, needles: string[]): Promise<string[]> {
  const columns = await server.sql<{ table_name: string; column_name: string }>(
    `select c.table_name, c.column_name from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE' order by 1, 2`,
  );
  expect(columns.length, 'columns searched').to.be.greaterThan(50);
  const hits: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const kind =
      table === 'webhook_events'
        ? `type`
        : table === 'webhook_attempts'
          ? `(select e.type from webhook_deliveries d join webhook_events e on e.id = d.event_id where d.id = delivery_id)`
          : `null::text`;
    const rows = await server.sql<{ kind: string | null }>(
      `select ${kind} as kind from "${table}" where ${needles.map(() => `strpos("${column}"::text, ?) > 0`).join(' or ')}`,
      needles,
    );
    for (const row of rows) hits.push(`${table}.${column}${row.kind ? ` (${row.kind})` : ''}`);
  }
  return hits;
}

/** The copies of a person allowed to stay: the notice of their erasure, and a receiver's echo of it. */
const THE_NOTICE = ['webhook_events.data (user.erased)'];
const withoutEchoOfNotice = (traces: string[]) => traces.filter((trace) => trace !== 'webhook_attempts.response (user.erased)');

for (const backend of backends()) {
  describe(`erasure and export of one end user (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });
    let admin: FeedbackClient;
    let visitor: FeedbackClient;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let secret: string;
    let adminKey: string;
    let people = 0;
    before(async () => {
      adminKey = await server.newKey(undefined, 'secret');
      admin = new FeedbackClient({ baseUrl: server.url, apiKey: adminKey, maxRetries: 0 });
      visitor = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
      // Every event type is written, so the outbox holds copies of each person to be forgotten;
      // the receiver echoes each body, so the log of its answers holds copies too.
      receiver = await startReceiver([200], { echo: true });
      secret = (await admin.webhooks.create({ url: receiver.url })).secret;
    });
    after(async () => {
      await admin?.close();
      await visitor?.close();
      await receiver?.close();
    });

    /** A new person who identified (with an Idempotency-Key), submitted, voted and commented; others voted and commented on their item. */
    async function person(): Promise<Person> {
      people += 1;
      const externalId = `erin-${people}-${backend.name}`;
      const name = `Erin Quill ${people}`;
      const email = `erin.${people}@example.org`;
      const identified = await request(server, 'POST', '/api/v1/identify', {
        body: { externalId, name, email, avatarUrl: `https://img.example.org/erin-${people}.png`, metadata: { plan: 'pro' } },
        headers: { 'idempotency-key': `identify-${externalId}` },
      });
      expect(identified.status).to.equal(200);
      const own = await visitor.feedback.create({ title: `Erin's idea ${people}`, metadata: { contact: email }, endUser: { externalId } });
      const other = await visitor.feedback.create({ title: `Someone else's idea ${people}`, endUser: { externalId: `bob-${people}` } });
      await visitor.votes.toggle(other.id, { endUser: { externalId } });
      await visitor.votes.toggle(own.id, { endUser: { externalId: `bob-${people}` } });
      await visitor.votes.toggle(own.id);
      await admin.admin.addComment(other.id, { content: `I need this too (${people})`, endUser: { externalId } });
      await admin.admin.addComment(own.id, { content: 'Good point', endUser: { externalId: `bob-${people}` } });
      await admin.admin.addComment(own.id, { content: `Thanks! (${people})`, endUser: { externalId } });
      await admin.admin.update(own.id, { status: 'planned', actor: 'Dana' });
      return { externalId, name, email, ownItem: own.id, otherItem: other.id };
    }

    const internalIdOf = async (p: Person) =>
      (await server.sql<{ id: string }>('select id::text as id from end_users where external_id = ?', [p.externalId]))[0]!.id;

    it('when an end user is exported, then the document holds their profile with its metadata, their submission with its history, their votes and their comments', async () => {
      const p = await person();
      const document = await admin.users.export(p.externalId);
      expect(document.endUser).to.include({ externalId: p.externalId, name: p.name, email: p.email });
      expect(document.endUser.metadata).to.deep.equal({ plan: 'pro' });
      expect(document.submissions).to.have.length(1);
      expect(document.submissions[0]).to.include({ id: p.ownItem, status: 'planned', voteCount: 3, commentCount: 2 });
      expect(document.submissions[0]!.metadata).to.deep.equal({ contact: p.email });
      expect(document.submissions[0]!.statusHistory.map((s) => [s.from, s.to])).to.deep.equal([['new', 'planned']]);
      expect(document.votes.map((v) => v.feedbackId)).to.have.members([p.ownItem, p.otherItem]);
      expect(document.comments.map((c) => [c.feedbackId, c.content])).to.have.deep.members([
        [p.otherItem, `I need this too (${people})`],
        [p.ownItem, `Thanks! (${people})`],
      ]);
    });

    it('when an end user is erased (content kept), then their votes are uncounted, their item reads as anonymous, their comments say "Deleted user", and no table holds their externalId, name, email or id', async () => {
      const p = await person();
      const internalId = await internalIdOf(p);
      const before = { own: await visitor.feedback.get(p.ownItem), other: await visitor.feedback.get(p.otherItem) };
      // The receiver has answered every delivery with its body: the log's answers name them.
      await outboxSettled(server);
      expect(await tracesOf(server, [p.email]), 'the echo of what was sent').to.include('webhook_attempts.response (feedback.created)');

      const result = await admin.users.erase(p.externalId);
      expect(result.erased).to.equal(true);
      expect(result.counts).to.include({ endUsers: 1, votes: 2, submissionsAnonymised: 1, commentsAnonymised: 2, submissionsDeleted: 0, commentsDeleted: 0, idempotencyRecords: 1 });
      expect(result.counts.webhookEvents, 'events that named them').to.be.greaterThan(0);
      expect(result.counts.webhookAnswers, "receivers' answers that named them").to.be.greaterThan(0);

      const own = await visitor.feedback.get(p.ownItem);
      const other = await visitor.feedback.get(p.otherItem);
      expect(own.voteCount).to.equal(before.own.voteCount - 1);
      expect(other.voteCount).to.equal(before.other.voteCount - 1);
      expect(own.commentCount).to.equal(before.own.commentCount);
      expect(own.endUser).to.equal(null);
      expect(own.title).to.equal(before.own.title);
      expect(other.comments.map((c) => c.author)).to.deep.equal([{ name: 'Deleted user', avatarUrl: null }]);
      // Bob's comment is untouched (he gave no name); the person's own reply is signed "Deleted user".
      expect(own.comments.map((c) => c.author?.name ?? null)).to.deep.equal([null, 'Deleted user']);
      await expectCountersExact(server);
      await expectListTotalsExact(server);

      // The one row allowed to name them is the notice of their erasure, with the externalId alone.
      const traces = await tracesOf(server, [p.externalId, p.name, p.email, internalId]);
      expect(withoutEchoOfNotice(traces)).to.deep.equal(THE_NOTICE);
      const [notice] = await server.sql<{ data: unknown }>(`select data from webhook_events where type = 'user.erased' and data->'endUser'->>'externalId' = ?`, [p.externalId]);
      expect(notice!.data).to.deep.equal({ endUser: { externalId: p.externalId }, counts: result.counts });
    });

    it('when an end user is erased with content=delete, then their item and comments are gone with exact counters and totals, and no trace of them is left', async () => {
      const p = await person();
      const internalId = await internalIdOf(p);
      const other = await visitor.feedback.get(p.otherItem);
      // A delivery in flight during the erasure would record its answer after it (docs/api.md).
      await outboxSettled(server);

      const result = await admin.users.erase(p.externalId, { content: 'delete' });
      expect(result.counts).to.include({ endUsers: 1, votes: 2, submissionsDeleted: 1, commentsDeleted: 2, submissionsAnonymised: 0, commentsAnonymised: 0 });
      expect(await rejection(visitor.feedback.get(p.ownItem))).to.be.instanceOf(NotFoundError);
      const after = await visitor.feedback.get(p.otherItem);
      expect(after.voteCount).to.equal(other.voteCount - 1);
      expect(after.commentCount).to.equal(other.commentCount - 1);
      expect(after.comments).to.deep.equal([]);
      await expectCountersExact(server);
      await expectListTotalsExact(server);
      expect(withoutEchoOfNotice(await tracesOf(server, [p.externalId, p.name, p.email, internalId]))).to.deep.equal(THE_NOTICE);
      // The creation events of what they wrote (its text) went; their item's deletion was announced.
      const texts = await server.sql<{ n: number }>(
        `select count(*)::int as n from webhook_events where strpos(data::text, ?) > 0 or strpos(data::text, ?) > 0 or (type = 'feedback.created' and data->'feedback'->>'id' = ?)`,
        [`Thanks! (${people})`, `I need this too (${people})`, p.ownItem],
      );
      expect(texts[0]!.n, 'events holding the text they wrote').to.equal(0);
      const deleted = await server.sql<{ n: number }>(`select count(*)::int as n from webhook_events where type = 'feedback.deleted' and data->'feedback'->>'id' = ?`, [p.ownItem]);
      expect(deleted[0]!.n).to.equal(1);
    });

    it("when an end user is erased with content=delete, then their deleted item's title is left in no event, notification, stored answer or receiver's answer (issue 49, finding 6: its status events kept it)", async () => {
      const p = await person();
      // Bob voted on their item, so he was told of its status change; a changelog entry links it with an item that stays.
      const kept = await visitor.feedback.create({ title: `An item that stays ${people}`, endUser: { externalId: `bob-${people}` } });
      // Created with an Idempotency-Key: its stored answer lists the linked items' titles.
      const created = await request({ url: server.url, apiKey: adminKey }, 'POST', '/api/v1/changelog', {
        body: { title: `Release ${people}`, body: 'Shipped.', links: [p.ownItem, kept.id], publish: true },
        headers: { 'idempotency-key': `release-${people}-${backend.name}` },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const entry = (created.body as { entry: { id: string } }).entry;
      await outboxSettled(server);
      // As JSON writes it, so "Erin's idea 1" does not find "Erin's idea 12".
      const title = JSON.stringify(`Erin's idea ${people}`);
      const before = await tracesOf(server, [title]);
      expect(before, 'where the title was').to.include.members([
        'webhook_events.data (feedback.status_changed)',
        'webhook_events.data (notification.created)',
        'webhook_events.data (changelog.published)',
        'webhook_attempts.response (feedback.status_changed)',
        'webhook_attempts.response (changelog.published)',
        'notifications.data',
        'idempotency_keys.body',
      ]);

      const result = await admin.users.erase(p.externalId, { content: 'delete' });
      expect(result.counts).to.include({ submissionsDeleted: 1 });
      expect(await tracesOf(server, [title])).to.deep.equal([]);

      // Its deletion is still announced, by its id; the changelog's announcement keeps the other item.
      const [deleted] = await server.sql<{ data: { feedback: Record<string, unknown> } }>(`select data from webhook_events where type = 'feedback.deleted' and data->'feedback'->>'id' = ?`, [p.ownItem]);
      expect(deleted!.data.feedback).to.deep.include({ id: p.ownItem, title: '' });
      const [published] = await server.sql<{ data: { entry: { items: { id: string }[] } } }>(`select data from webhook_events where type = 'changelog.published' and data->'entry'->>'id' = ?`, [entry.id]);
      expect(published!.data.entry.items.map((item) => item.id)).to.deep.equal([kept.id]);
      // Bob's notification of the status change went with the item; the one of the release names the item that stays.
      const told = await server.sql<{ kind: string; items: { id: string }[] | null }>(
        `select n.kind, n.data->'entry'->'items' as items from notifications n join end_users e on e.id = n.end_user_id where e.external_id = ? order by n.id`,
        [`bob-${people}`],
      );
      expect(told.map((n) => [n.kind, n.items?.map((item) => item.id) ?? null])).to.deep.equal([['shipped', [kept.id]]]);
      await expectCountersExact(server);
    });

    it('when an erasure is repeated, or names someone never seen, then it succeeds with zero counts, sends nothing, and their export is 404 End user not found', async () => {
      const p = await person();
      // No delivery of their events under way: the echo of one answered after the erasure would
      // be recorded after it, and the repeat would rightly clear it (docs/api.md, "Erasure").
      await outboxSettled(server);
      await admin.users.erase(p.externalId);
      const notices = async () => (await server.sql<{ n: number }>(`select count(*)::int as n from webhook_events where type = 'user.erased'`))[0]!.n;
      const sent = await notices();
      const zero = { endUsers: 0, votes: 0, submissionsDeleted: 0, submissionsAnonymised: 0, commentsDeleted: 0, commentsAnonymised: 0, webhookEvents: 0, idempotencyRecords: 0, webhookAnswers: 0 };
      expect(await admin.users.erase(p.externalId)).to.deep.equal({ erased: false, counts: zero });
      expect(await admin.users.erase(p.externalId, { content: 'delete' })).to.deep.equal({ erased: false, counts: zero });
      expect(await admin.users.erase('never-seen')).to.deep.equal({ erased: false, counts: zero });
      expect(await notices()).to.equal(sent);
      const error = await rejection(admin.users.export(p.externalId));
      expect(error).to.be.instanceOf(NotFoundError);
      expect((error as NotFoundError).message).to.contain('End user not found');
      await expectCountersExact(server);
    });

    it("when an erasure is repeated after the receiver answered the first one's notice with an echo of it, then the repeat still counts zero (the notice and its answers stay, as the notice names the person by design)", async () => {
      const p = await person();
      await outboxSettled(server);
      await admin.users.erase(p.externalId);
      await outboxSettled(server);
      const echoes = async () =>
        (await server.sql<{ n: number }>(
          `select count(*)::int as n from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id join webhook_events e on e.id = d.event_id
           where e.type = 'user.erased' and strpos(a.response, ?::text) > 0`,
          [p.externalId],
        ))[0]!.n;
      expect(await echoes(), "the receiver's echo of the notice").to.be.greaterThan(0);
      const again = await admin.users.erase(p.externalId);
      expect(again.erased, JSON.stringify(again.counts)).to.equal(false);
      expect(again.counts.webhookAnswers).to.equal(0);
      expect(await echoes(), 'the echo stays').to.be.greaterThan(0);
    });

    it('when a public key asks, then erase and export are 403 like every secret-key route, and nothing is erased', async () => {
      const p = await person();
      expect(await rejection(visitor.users.erase(p.externalId))).to.be.instanceOf(PermissionDeniedError);
      expect(await rejection(visitor.users.export(p.externalId))).to.be.instanceOf(PermissionDeniedError);
      const erased = await request(server, 'DELETE', `/api/v1/users/${encodeURIComponent(p.externalId)}`);
      expect(erased.status).to.equal(403);
      expect(erased.body).to.deep.equal({ error: 'This operation requires a secret key' });
      expect((await admin.users.export(p.externalId)).endUser.externalId).to.equal(p.externalId);
    });

    it("when an end user is erased, then the request's log line shows the path's template, not their externalId", async () => {
      const p = await person();
      await admin.users.export(p.externalId);
      await admin.users.erase(p.externalId);
      const lines = server.logs.filter((line) => line.includes('/api/v1/users/'));
      expect(lines.length).to.be.at.least(2);
      expect(lines.join('\n')).not.to.contain(p.externalId);
      expect(lines.some((line) => line.includes('/api/v1/users/:externalId/export'))).to.equal(true);
    });

    it('when an end user is erased, then a receiver gets a signed user.erased with their externalId and the counts, and nothing more', async () => {
      const p = await person();
      const result = await admin.users.erase(p.externalId);
      const erasedEvents = () =>
        receiver.received
          .map((delivery) => verifyWebhook({ body: delivery.body, headers: delivery.headers as Record<string, string>, secrets: secret }) as WebhookEvent)
          .filter((event) => event.type === 'user.erased' && event.data.endUser.externalId === p.externalId);
      await until(() => erasedEvents().length === 1, 15_000, 'the user.erased delivery');
      const [event] = erasedEvents();
      expect(JSON.parse(receiver.received.find((r) => r.body.includes(`"${event!.id}"`))!.body).data).to.deep.equal({ endUser: { externalId: p.externalId }, counts: result.counts });
    });

    it('when a dump is taken after an erasure and imported into an empty database, then it holds no trace of the person and its counters are exact', async () => {
      const p = await person();
      const internalId = await internalIdOf(p);
      await admin.users.erase(p.externalId);
      const dump = await dumpOf(server.server.orm);
      for (const needle of [p.externalId, p.name, p.email, internalId]) expect(dump).not.to.contain(needle);
      const target = await emptyDatabase(backend);
      try {
        await importDump(target.orm, linesOf(dump));
        const sql = <T>(query: string, params: unknown[] = []) => target.orm.em.fork().execute<T[]>(query, params);
        await expectCountersExact({ sql });
        expect(await tracesOf({ sql }, [p.externalId, p.name, p.email, internalId])).to.deep.equal([]);
        const [comment] = await sql<{ author_name: string; is_team: boolean }>("select author_name, is_team from comments where content = ? and feedback_id = ?", [`Thanks! (${people})`, p.ownItem]);
        expect(comment).to.deep.equal({ author_name: 'Deleted user', is_team: false });
      } finally {
        await target.drop();
      }
    });
    it('when a dump taken before an erasure is imported into the erased database, then it is refused where it would undo an anonymisation, and what it brings back is erased by erasing again', async () => {
      const kept = await person();
      const olderKept = await dumpOf(server.server.orm);
      await admin.users.erase(kept.externalId);
      // Their item and comments are here without them: the older rows differ, and the import changes nothing.
      expect(await rejection(importDump(server.server.orm, linesOf(olderKept)))).to.be.instanceOf(ImportConflictError);
      expect(await rejection(admin.users.export(kept.externalId))).to.be.instanceOf(NotFoundError);

      const deleted = await person();
      const olderDeleted = await dumpOf(server.server.orm);
      const internalId = await internalIdOf(deleted);
      await admin.users.erase(deleted.externalId, { content: 'delete' });
      // Deleted rows are simply missing here: the older dump brings the person back.
      await importDump(server.server.orm, linesOf(olderDeleted));
      expect((await admin.users.export(deleted.externalId)).submissions).to.have.length(1);
      await expectCountersExact(server);
      await outboxSettled(server);
      const again = await admin.users.erase(deleted.externalId, { content: 'delete' });
      expect(again.counts).to.include({ endUsers: 1, votes: 2, submissionsDeleted: 1, commentsDeleted: 2 });
      await expectCountersExact(server);
      const traces = await tracesOf(server, [deleted.externalId, deleted.name, deleted.email, internalId]);
      expect(withoutEchoOfNotice(traces)).to.deep.equal([...THE_NOTICE, ...THE_NOTICE]);
    });
  });
}
