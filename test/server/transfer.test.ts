import { expect } from 'chai';
import { Readable } from 'node:stream';
import {
  createApiKey,
  DumpFormatError,
  dumpLines,
  ImportConflictError,
  importDump,
  ProjectNotFoundError,
  seedProject,
  startServer,
  type ImportSummary,
  type RunningServer,
} from '@feedbackd/server';
import { silentLogger } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { expectCountersExact, expectListTotalsExact } from '../helpers/invariants.js';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';
import { dumpOf, emptyDatabase, linesOf, tableDigests, type EmptyDatabase } from '../helpers/transfer.js';

type Caller = { url: string; apiKey: string };

/** What the header announced, per type, as an import summary counts it. */
function headerCounts(dump: string): Record<string, number> {
  return (JSON.parse(dump.slice(0, dump.indexOf('\n'))) as { counts: Record<string, number> }).counts;
}

/** Runs `action`, which must fail, and returns its error. */
async function failure(action: () => Promise<unknown>): Promise<Error> {
  try {
    await action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

/** The dump with line `n` (from 1) replaced by `line`, or removed when `line` is null. */
function withLine(dump: string, n: number, line: string | null): string {
  const lines = dump.split('\n');
  if (line === null) lines.splice(n - 1, 1);
  else lines[n - 1] = line;
  return lines.join('\n');
}

/** The number (from 1) of the first line of a record type. */
function firstLineOf(dump: string, type: string): number {
  return dump.split('\n').findIndex((line) => line.startsWith(`{"type":"${type}"`)) + 1;
}

/**
 * The voter secret of the source and of the targets that recognise its anonymous voters: a dump
 * never carries it (test/server/voter-secret.test.ts), the operator gives it to both.
 */
const VOTER_SECRET = 'transfer-test-voter-secret-0123456789abcdef';

/** Moving data (issue 9 §3): export, import into an empty database, export again; conflicts, malformed dumps. */
for (const backend of backends()) {
  describe(`export and import (${backend.name})`, () => {
    let source: TestServer;
    let ops: Caller;
    let sourceDump: string;
    let changedItem: string;
    let followedItem: string;
    let target: EmptyDatabase;
    let firstImport: ImportSummary;
    let targetDump: string;
    let targetServer: RunningServer;
    let targetKeys: { default: string; other: string };

    before(async () => {
      source = await startTestServer(backend, { voterSecret: VOTER_SECRET });
      ops = { url: source.url, apiKey: await source.newKey(undefined, 'secret') };
      const orm = source.server.orm;
      await seedProject(orm, { count: 40, seed: 11 });
      await seedProject(orm, { count: 8, seed: 2, project: 'other' });
      // What the seeder does not write: an anonymous submission (its vote keyed by the caller's
      // IP under the project's salt), metadata, status changes with and without an actor, team comments.
      const submitted = await request(source, 'POST', '/api/v1/feedback', {
        body: { title: 'Dark mode ☾ “please”', description: 'Line one\nline two\ttab', type: 'idea', metadata: { plan: 'pro', seats: 12, nested: { a: [1, null, 'x'] } } },
      });
      changedItem = submitted.body.feedback.id;
      expect((await request(ops, 'PATCH', `/api/v1/feedback/${changedItem}`, { body: { status: 'planned', actor: 'Ada' } })).status).to.equal(200);
      expect((await request(ops, 'PATCH', `/api/v1/feedback/${changedItem}`, { body: { status: 'in-progress' } })).status).to.equal(200);
      expect((await request(ops, 'POST', `/api/v1/feedback/${changedItem}/comments`, { body: { content: 'On it', team: { name: 'Grace' } } })).status).to.equal(201);
      // The changelog: a published entry linking two items, a scheduled one, a draft.
      const [secondItem] = await source.sql<{ id: string }>(`select f.id::text as id from feedback f join projects p on p.id = f.project_id where p.slug = 'default' and f.id <> ? order by f.id limit 1`, [changedItem]);
      const published = await request(ops, 'POST', '/api/v1/changelog', { body: { title: 'Dark mode ☾', body: '## New\n\nIt is **here**.', links: [changedItem, secondItem!.id], publish: true } });
      expect(published.status, JSON.stringify(published.body)).to.equal(201);
      expect((await request(ops, 'POST', '/api/v1/changelog', { body: { title: 'Later', body: 'Soon', links: [changedItem], publishAt: '2099-01-01T00:00:00.000Z' } })).status).to.equal(201);
      expect((await request(ops, 'POST', '/api/v1/changelog', { body: { title: 'Draft', body: '' } })).status).to.equal(201);
      // Subscriptions (version 3): by taking part, by choice, an unsubscribe from an item that
      // sticks, and an end user who left the whole project.
      const followed = await request(source, 'POST', '/api/v1/feedback', { body: { title: 'Followed', endUser: { externalId: 'transfer-author' } } });
      followedItem = followed.body.feedback.id;
      expect((await request(source, 'POST', `/api/v1/feedback/${followedItem}/vote`, { body: { endUser: { externalId: 'transfer-voter' } } })).status).to.equal(200);
      expect((await request(source, 'POST', `/api/v1/feedback/${followedItem}/comments`, { body: { content: 'Yes', endUser: { externalId: 'transfer-voter' } } })).status).to.equal(201);
      expect((await request(source, 'POST', `/api/v1/feedback/${followedItem}/subscription`, { body: { endUser: { externalId: 'transfer-watcher' } } })).status).to.equal(200);
      expect((await request(source, 'POST', `/api/v1/feedback/${followedItem}/vote`, { body: { endUser: { externalId: 'transfer-quitter' } } })).status).to.equal(200);
      expect((await request(source, 'POST', `/api/v1/feedback/${followedItem}/unsubscribe`, { body: { endUserId: 'transfer-quitter' } })).status).to.equal(200);
      expect((await request(source, 'POST', '/api/v1/unsubscribe', { body: { endUserId: 'transfer-author' } })).status).to.equal(200);
      sourceDump = await dumpOf(orm);

      target = await emptyDatabase(backend);
      // Small batches and pages, so that rows cross batch and page boundaries as in a large dump.
      firstImport = await importDump(target.orm, linesOf(sourceDump), { batchSize: 37 });
      targetDump = await dumpOf(target.orm, { pageSize: 50 });
      // A server on the imported database, for the API's view of it.
      await target.close();
      targetServer = await startServer({ ...target.fresh.location, port: 0, host: '127.0.0.1', rateLimit: 1_000_000, logger: silentLogger, voterSecret: VOTER_SECRET });
      targetKeys = {
        default: (await createApiKey(targetServer.orm.em.fork(), { projectSlug: 'default', kind: 'secret' })).key,
        other: (await createApiKey(targetServer.orm.em.fork(), { projectSlug: 'other' })).key,
      };
    });
    after(async () => {
      await targetServer?.close();
      await target?.drop();
      await source?.close();
    });

    const onTarget = (apiKey: string) => ({
      url: targetServer.url,
      apiKey,
      sql: <T>(query: string, params: unknown[] = []) => targetServer.orm.em.fork().execute<T[]>(query, params),
    });

    it('when a seeded database is exported, imported into an empty database and exported again, then the two dumps are the same bytes', () => {
      expect(sourceDump.split('\n').length, 'a dump of some size').to.be.greaterThan(300);
      expect(targetDump === sourceDump, 'the second dump differs from the first').to.equal(true);
      expect(firstImport.records).to.deep.equal(headerCounts(sourceDump));
      expect(firstImport.inserted, 'every record is a new row').to.deep.equal(headerCounts(sourceDump));
      expect(firstImport.projects.map((p) => [p.slug, p.created, p.voterSalt]).sort()).to.deep.equal([
        ['default', true, 'carried'],
        ['other', true, 'carried'],
      ]);
    });

    it('when subscriptions are exported and imported, then each survives with its reasons and unsubscribes, and so does leaving the whole project', async () => {
      expect(headerCounts(sourceDump).subscription).to.be.at.least(3);
      const secret = onTarget(targetKeys.default);
      const list = async (caller: Caller) => (await request(caller, 'GET', `/api/v1/feedback/${followedItem}/subscribers`)).body;
      const onSource = await list(ops);
      expect(onSource.items.map((s: { externalId: string; reasons: string[] }) => [s.externalId, s.reasons])).to.deep.equal([
        ['transfer-voter', ['voted', 'commented']],
        ['transfer-watcher', ['chose']],
      ]);
      expect(await list(secret)).to.deep.equal(onSource);
      for (const [who, subscribed] of [['transfer-author', false], ['transfer-quitter', false], ['transfer-voter', true]] as const) {
        const detail = (await request(secret, 'GET', `/api/v1/feedback/${followedItem}?endUserId=${who}`)).body.feedback;
        expect(detail.userIsSubscribed, who).to.equal(subscribed);
      }
      // The rows themselves (the target is not changed here: a later test imports the dump again onto it).
      const rows = await secret.sql<{ external_id: string; reasons: number; unsubscribed: boolean; left: boolean }>(
        `select e.external_id, s.reasons, s.unsubscribed_at is not null as unsubscribed, e.unsubscribed_at is not null as left
         from subscriptions s join end_users e on e.id = s.end_user_id where s.feedback_id = ? order by e.external_id`,
        [followedItem],
      );
      expect(rows).to.deep.equal([
        { external_id: 'transfer-author', reasons: 3, unsubscribed: false, left: true },
        { external_id: 'transfer-quitter', reasons: 2, unsubscribed: true, left: false },
        { external_id: 'transfer-voter', reasons: 6, unsubscribed: false, left: false },
        { external_id: 'transfer-watcher', reasons: 8, unsubscribed: false, left: false },
      ]);
    });

    it('when a version 2 dump (from before subscriptions) is imported, then its submitters, voters and commenters are subscribed as the migration did', async () => {
      const version2 = sourceDump
        .split('\n')
        .filter((line) => !/^\{"type":"(subscription|heldPost|postingBlock)"/.test(line))
        .map((line) => {
          if (line.startsWith('{"type":"header"')) {
            const header = JSON.parse(line) as { version: number; counts: Record<string, number> };
            const { subscription: _subscription, heldPost: _heldPost, postingBlock: _postingBlock, ...counts } = header.counts;
            return JSON.stringify({ ...header, version: 2, counts });
          }
          if (!line.startsWith('{"type":"user"')) return line;
          const record = JSON.parse(line) as { data: Record<string, unknown> };
          const { unsubscribedAt: _unsubscribedAt, emailSuppressedAt: _emailSuppressedAt, ...data } = record.data;
          return JSON.stringify({ ...record, data });
        })
        .join('\n');
      const older = await emptyDatabase(backend);
      try {
        const summary = await importDump(older.orm, linesOf(version2));
        expect(summary.version).to.equal(2);
        const rows = await older.orm.em.fork().execute<{ external_id: string; reasons: number; unsubscribed: boolean }[]>(
          `select e.external_id, s.reasons, s.unsubscribed_at is not null as unsubscribed from subscriptions s join end_users e on e.id = s.end_user_id
           where s.feedback_id = ? order by e.external_id`,
          [followedItem],
        );
        // The watcher's choice and the quitter's unsubscribe were not in a version 2 dump: taking part was.
        expect(rows).to.deep.equal([
          { external_id: 'transfer-author', reasons: 3, unsubscribed: false },
          { external_id: 'transfer-quitter', reasons: 2, unsubscribed: false },
          { external_id: 'transfer-voter', reasons: 6, unsubscribed: false },
        ]);
        const [seeded] = await older.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from subscriptions`);
        expect(seeded!.n, 'the seeded participants too').to.be.greaterThan(100);
      } finally {
        await older.drop();
      }
    });

    it('when a changelog is exported and imported, then its entries, their times and links survive, and the target announces none again', async () => {
      expect(headerCounts(sourceDump)).to.include({ changelogEntry: 3, changelogLink: 3 });
      const secret = onTarget(targetKeys.default);
      const entries = (await request(secret, 'GET', '/api/v1/changelog?limit=100')).body.items;
      expect(entries.map((e: { title: string; state: string }) => [e.title, e.state])).to.deep.equal([['Draft', 'draft'], ['Later', 'scheduled'], ['Dark mode ☾', 'published']]);
      const sourceEntries = (await request(ops, 'GET', '/api/v1/changelog?limit=100')).body.items;
      expect(entries).to.deep.equal(sourceEntries);
      const [{ n }] = (await secret.sql<{ n: number }>(`select count(*)::int as n from changelog_entries where announced_at is null and publish_at <= now()`)) as [{ n: number }];
      expect(n, 'an entry published before the export is not announced again').to.equal(0);
    });

    it('when imported, then every counter equals its rows, every list total equals count(*), and the item reads as it did', async () => {
      await expectCountersExact(onTarget(targetKeys.default));
      await expectListTotalsExact(onTarget(targetKeys.default), targetKeys.default);
      await expectListTotalsExact(onTarget(targetKeys.other), targetKeys.other);
      const before = (await request(ops, 'GET', `/api/v1/feedback/${changedItem}`)).body.feedback;
      const after = (await request({ url: targetServer.url, apiKey: targetKeys.default }, 'GET', `/api/v1/feedback/${changedItem}`)).body.feedback;
      // The key that made a change is not carried (keys are not exported); the rest is.
      const withoutKeys = (history: { keyId: unknown; keyPrefix: unknown }[]) => history.map((h) => ({ ...h, keyId: null, keyPrefix: null }));
      expect(after.statusHistory.map((h: { keyId: unknown }) => h.keyId)).to.deep.equal([null, null]);
      expect({ ...after, statusHistory: withoutKeys(after.statusHistory) }).to.deep.equal({ ...before, statusHistory: withoutKeys(before.statusHistory) });
      expect(after.statusHistory.map((h: { actor: string | null }) => h.actor)).to.deep.equal(['Ada', null]);
      // The project's voter salt came along: the anonymous submitter (this machine) is known as the voter.
      const check = await request({ url: targetServer.url, apiKey: targetKeys.default }, 'GET', `/api/v1/feedback/${changedItem}/vote`);
      expect(check.body).to.deep.equal({ voted: true, voteCount: 1 });
    });

    it('when the same dump is imported again, then nothing changes: every table has the same rows', async () => {
      const before = await tableDigests(targetServer.orm);
      // Read from a stream, as `feedback import` reads a file, which starts flowing before the
      // import iterates it (regression: the lines read meanwhile were dropped, the header with them).
      const lines = dumpLines(Readable.from([sourceDump]));
      // The pause is the subject: the stream flows meanwhile, and no condition shows its lines read.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = await importDump(targetServer.orm, lines);
      expect(await tableDigests(targetServer.orm)).to.deep.equal(before);
      expect(Object.values(again.inserted)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
      expect(again.records).to.deep.equal(headerCounts(sourceDump));
      expect(again.projects.map((p) => [p.created, p.voterSalt])).to.deep.equal([
        [false, 'same'],
        [false, 'same'],
      ]);
    });

    it('when an item changes status after an import, then the change gets an id after the imported ones', async () => {
      const caller = { url: targetServer.url, apiKey: targetKeys.default };
      const item = (await request(caller, 'POST', '/api/v1/feedback', { body: { title: 'Made after the import' } })).body.feedback.id;
      // The history's ids come from a sequence, which the import moved past the ids it wrote:
      // otherwise this change would take id 1, which an imported change holds.
      const changed = await request(caller, 'PATCH', `/api/v1/feedback/${item}`, { body: { status: 'planned' } });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      const [ids] = await targetServer.orm.em.fork().execute<{ imported: number; made: number }[]>(
        `select (select max(id)::int from feedback_status_changes where api_key_id is null) as imported,
                (select min(id)::int from feedback_status_changes where api_key_id is not null) as made`,
      );
      expect(ids!.made).to.be.greaterThan(ids!.imported);
    });

    it('when a row of the dump holds other data than the same id here, then the import fails naming its line and fields, and changes nothing', async () => {
      const line = sourceDump.split('\n').findIndex((text) => text.includes(changedItem) && text.startsWith('{"type":"item"')) + 1;
      const edited = withLine(sourceDump, line, sourceDump.split('\n')[line - 1]!.replace('Dark mode', 'Light mode').replace('"in-progress"', '"closed"'));
      const before = await tableDigests(targetServer.orm);
      const error = await failure(() => importDump(targetServer.orm, linesOf(edited)));
      expect(error).to.be.instanceOf(ImportConflictError);
      expect(error.message).to.include(`line ${line}: item ${changedItem} exists with other data (title, status)`);
      expect(await tableDigests(targetServer.orm)).to.deep.equal(before);
    });

    it('when a project is imported under another slug into the database it came from, then its rows conflict with the originals and nothing changes', async () => {
      const otherDump = await dumpOf(targetServer.orm, { project: 'other' });
      const before = await tableDigests(targetServer.orm);
      const error = await failure(() => importDump(targetServer.orm, linesOf(otherDump), { project: 'copy' }));
      expect(error).to.be.instanceOf(ImportConflictError);
      expect(error.message).to.match(/line \d+: user [0-9a-f-]{36} exists with other data \(projectId\)/);
      expect(await tableDigests(targetServer.orm)).to.deep.equal(before);
    });

    it('when one project is exported, then the dump holds it alone; an unknown project is ProjectNotFoundError', async () => {
      const otherDump = await dumpOf(source.server.orm, { project: 'other' });
      const [counts] = await source.server.orm.em.fork().execute<{ items: number; users: number }[]>(
        `select (select count(*)::int from feedback f join projects p on p.id = f.project_id where p.slug = 'other') as items,
                (select count(*)::int from end_users u join projects p on p.id = u.project_id where p.slug = 'other') as users`,
      );
      expect(headerCounts(otherDump)).to.include({ project: 1, item: counts!.items, user: counts!.users });
      expect(JSON.parse(otherDump.slice(0, otherDump.indexOf('\n')))).to.include({ type: 'header', format: 'feedback-dump', version: 6, project: 'other' });
      expect(otherDump.split('\n').filter((line) => line.startsWith('{"type":"project"'))).to.have.length(1);
      const error = await failure(() => dumpOf(source.server.orm, { project: 'nope' }));
      expect(error).to.be.instanceOf(ProjectNotFoundError);
    });

    it('when a dump is malformed, then the import fails with the line number and an empty database stays empty', async () => {
      const empty = await emptyDatabase(backend);
      try {
        const before = await tableDigests(empty.orm);
        const voteLine = firstLineOf(sourceDump, 'vote') + 3;
        const cases: [dump: string, line: number, reason: RegExp][] = [
          [withLine(sourceDump, voteLine, '{"type":"vote","data":{'), voteLine, /not valid JSON/],
          [withLine(sourceDump, voteLine, sourceDump.split('\n')[voteLine - 1]!.replace('"voterKey"', '"voter"')), voteLine, /data/],
          [withLine(sourceDump, voteLine, '{"type":"ballot","data":{}}'), voteLine, /"type" must be one of/],
          [withLine(sourceDump, voteLine, sourceDump.split('\n')[firstLineOf(sourceDump, 'item') - 1]!), voteLine, /an item record after vote records/],
          [withLine(sourceDump, 1, '{"type":"project"}'), 1, /the first line must be the header/],
          [withLine(sourceDump, 1, sourceDump.split('\n')[0]!.replace('"version":6', '"version":7')), 1, /format version 7/],
          [withLine(sourceDump, voteLine, null), sourceDump.split('\n').length - 1, /vote records where the header announces/],
        ];
        for (const [dump, line, reason] of cases) {
          const error = await failure(() => importDump(empty.orm, linesOf(dump)));
          expect(error, error.message).to.be.instanceOf(DumpFormatError);
          expect((error as DumpFormatError).line, error.message).to.equal(line);
          expect(error.message).to.match(reason);
          expect(await tableDigests(empty.orm), `nothing written by a dump that fails at line ${line}`).to.deep.equal(before);
        }
        // The same database takes the whole dump afterwards, under another slug if asked.
        const otherDump = await dumpOf(source.server.orm, { project: 'other' });
        const summary = await importDump(empty.orm, linesOf(otherDump), { project: 'renamed' });
        expect(summary.projects.map((p) => [p.from, p.slug, p.created])).to.deep.equal([['other', 'renamed', true]]);
      } finally {
        await empty.drop();
      }
    });

    it("when a dump is imported into a server's own default project, then its rows join that project, which takes the dump's voter salt", async () => {
      const server = await startTestServer(backend, { voterSecret: VOTER_SECRET });
      try {
        const summary = await importDump(server.server.orm, linesOf(sourceDump));
        const [project] = summary.projects.filter((p) => p.slug === 'default');
        expect(project).to.include({ created: false, voterSalt: 'adopted' });
        await expectCountersExact(server);
        await expectListTotalsExact(server);
        const check = await request(server, 'GET', `/api/v1/feedback/${changedItem}/vote`);
        expect(check.body).to.deep.equal({ voted: true, voteCount: 1 });
      } finally {
        await server.close();
      }
    });
  });
}
