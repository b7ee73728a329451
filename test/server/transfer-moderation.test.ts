import { expect } from 'chai';
import { createApiKey, DumpFormatError, ImportConflictError, importDump, startServer, type RunningServer } from '@feedbackd/server';
import { silentLogger } from '@feedbackd/server/testing';
import { rejection } from '../helpers/assertions.js';
import { backends } from '../helpers/backends.js';
import { asEndUser, identitySecretOf } from '../helpers/end-user-token.js';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';
import { dumpOf, emptyDatabase, linesOf, tableDigests, type EmptyDatabase } from '../helpers/transfer.js';

type Caller = { url: string; apiKey: string };

/** The same secret on both sides, so that an anonymous author's key names the same caller on the target. */
const VOTER_SECRET = 'transfer-moderation-voter-secret-0123456789';
const SUPPRESSED_AT = '2026-05-01T10:00:00.123Z';

/** The `data` of every record of one type, in dump order. */
function recordsOf(dump: string, type: string): Record<string, unknown>[] {
  return dump
    .split('\n')
    .filter((line) => line.startsWith(`{"type":"${type}"`))
    .map((line) => (JSON.parse(line) as { data: Record<string, unknown> }).data);
}

/** The header's counts. */
function headerCounts(dump: string): Record<string, number> {
  return (JSON.parse(dump.slice(0, dump.indexOf('\n'))) as { counts: Record<string, number> }).counts;
}

/** The number (from 1) of the line of a record type whose text includes `text`. */
function lineOf(dump: string, type: string, text: string): number {
  return dump.split('\n').findIndex((line) => line.startsWith(`{"type":"${type}"`) && line.includes(text)) + 1;
}

/** The dump with line `n` (from 1) changed by `edit` on its record's data. */
function withData(dump: string, n: number, edit: (data: Record<string, unknown>) => Record<string, unknown>): string {
  const lines = dump.split('\n');
  const record = JSON.parse(lines[n - 1]!) as { type: string; data: Record<string, unknown> };
  lines[n - 1] = JSON.stringify({ ...record, data: edit(record.data) });
  return lines.join('\n');
}

/**
 * Dump format versions 4 and 5 (issues: a dump is lossless for the conversation and notifications;
 * issue 49, blocks that expire): the moderation queue, blocks and refused addresses; version 6
 * (issue 49): a held edit of a comment.
 */
for (const backend of backends()) {
  describe(`export and import of moderation and mail state (${backend.name})`, () => {
    let source: TestServer;
    let team: Caller;
    let otherItem: string;
    let heldIdea: string;
    let heldReply: string;
    let heldEdit: string;
    let edited: string;
    let thread: string;
    let sourceDump: string;
    let target: EmptyDatabase;
    let targetDump: string;
    let targetServer: RunningServer;

    before(async () => {
      source = await startTestServer(backend, { voterSecret: VOTER_SECRET });
      // Moderation set before the public key is first used: the key cache holds it from the start.
      team = { url: source.url, apiKey: await source.newKey('mod', 'secret') };
      expect((await request(team, 'PATCH', '/api/v1/board', { body: { moderation: 'all', anonymousComments: true } })).status).to.equal(200);
      const site = { url: source.url, apiKey: await source.newKey('mod', 'public') };
      const other = { url: source.url, apiKey: await source.newKey('other', 'secret') };
      otherItem = (await request(other, 'POST', '/api/v1/feedback', { body: { title: 'Elsewhere', endUser: { externalId: 'elsewhere' } } })).body.feedback.id;

      const item = (await request(team, 'POST', '/api/v1/feedback', { body: { title: 'Target' } })).body.feedback.id;
      thread = (await request(team, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Tell us more', team: { name: 'Grace' } } })).body.comment.id;
      const held = [
        await request(site, 'POST', '/api/v1/feedback', {
          body: { title: 'Held idea ☾', description: 'Line one\nline two', type: 'idea', metadata: { plan: 'pro', n: [1, null] }, endUser: { externalId: 'waiting', name: 'Wai' } },
        }),
        await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'A reply that waits', parentId: thread, endUser: { externalId: 'replier' } } }),
        await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'An anonymous comment that waits' } }),
        await request(site, 'POST', '/api/v1/feedback', { body: { title: 'Spam', endUser: { externalId: 'spammer' } } }),
        await request(site, 'POST', '/api/v1/feedback', { body: { title: 'Anonymous spam' } }),
      ];
      for (const res of held) expect(res.status, JSON.stringify(res.body)).to.equal(202);
      heldIdea = held[0]!.body.feedback.id;
      heldReply = held[1]!.body.comment.id;
      // An approved comment, then its author's edit, held again (issue 49: an edit passes moderation as a new comment does).
      const approvedFirst = await request(site, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Approved words', endUser: { externalId: 'editor' } } });
      edited = approvedFirst.body.comment.id;
      expect((await request(team, 'POST', '/api/v1/moderation/approve', { body: { ids: [edited] } })).body.approved).to.have.length(1);
      const identity = await identitySecretOf(source, 'mod');
      const edit = await request(site, 'PATCH', `/api/v1/feedback/${item}/comments/${edited}`, { body: { content: 'Edited words that wait' }, headers: asEndUser(identity, 'editor', 'mod') });
      expect(edit.status, JSON.stringify(edit.body)).to.equal(202);
      heldEdit = ((await request(team, 'GET', '/api/v1/moderation')).body.items as { id: string; editOf: string | null }[]).find((post) => post.editOf === edited)!.id;
      const rejected = await request(team, 'POST', '/api/v1/moderation/reject', { body: { ids: [held[3]!.body.feedback.id, held[4]!.body.feedback.id], block: true } });
      expect(rejected.body).to.deep.include({ blocked: 2 });
      // A refused address is marked by the mailer on a permanent bounce (notify/); here, directly.
      await source.sql(`update end_users set email = 'wai@example.com', email_suppressed_at = ? where external_id = 'waiting'`, [SUPPRESSED_AT]);
      sourceDump = await dumpOf(source.server.orm);

      target = await emptyDatabase(backend);
      await importDump(target.orm, linesOf(sourceDump), { batchSize: 2 });
      targetDump = await dumpOf(target.orm, { pageSize: 1 });
      await target.close();
      targetServer = await startServer({ ...target.fresh.location, port: 0, host: '127.0.0.1', rateLimit: 1_000_000, logger: silentLogger, voterSecret: VOTER_SECRET });
    });
    after(async () => {
      await targetServer?.close();
      await target?.drop();
      await source?.close();
    });

    it('when held posts, blocks and a suppressed address are exported, imported into an empty database and exported again, then the dumps are the same bytes and hold them all', async () => {
      expect(JSON.parse(sourceDump.slice(0, sourceDump.indexOf('\n')))).to.include({ version: 6 });
      expect(headerCounts(sourceDump)).to.include({ heldPost: 4, postingBlock: 2 });
      expect(targetDump === sourceDump, 'the second dump differs from the first').to.equal(true);

      const posts = recordsOf(sourceDump, 'heldPost');
      expect(posts.find((p) => p.id === heldIdea)).to.deep.include({
        kind: 'feedback',
        itemId: null,
        parentId: null,
        title: 'Held idea ☾',
        description: 'Line one\nline two',
        type: 'idea',
        metadata: { plan: 'pro', n: [1, null] },
        content: null,
        reason: 'all',
      });
      expect(posts.find((p) => p.id === heldReply)).to.deep.include({ kind: 'comment', parentId: thread, content: 'A reply that waits', title: null, editOf: null });
      expect(posts.find((p) => p.id === heldEdit)).to.deep.include({ kind: 'comment', parentId: null, content: 'Edited words that wait', editOf: edited });
      const blocks = recordsOf(sourceDump, 'postingBlock');
      expect(blocks.map((b) => b.endUserId === null)).to.have.members([true, false]);
      for (const block of blocks) {
        // Version 5: each block's id, the start of its post, and its end (an address's in 30 days, an end user's when lifted).
        expect(Object.keys(block)).to.deep.equal(['id', 'projectId', 'voterKey', 'endUserId', 'excerpt', 'createdAt', 'expiresAt']);
        if (block.endUserId === null) {
          expect(block.voterKey).to.match(/^ip2:/);
          expect(block.excerpt).to.equal('Anonymous spam');
          expect(Date.parse(block.expiresAt as string) - Date.parse(block.createdAt as string)).to.equal(30 * 86_400_000);
        } else {
          expect(block.voterKey, "an end user's block names their id").to.equal(block.endUserId);
          expect(block).to.deep.include({ excerpt: 'Spam', expiresAt: null });
        }
      }
      expect(recordsOf(sourceDump, 'user').map((u) => [u.externalId, u.emailSuppressedAt])).to.have.deep.members([
        ['waiting', SUPPRESSED_AT],
        ['replier', null],
        ['editor', null],
        ['spammer', null],
        ['elsewhere', null],
      ]);
      // The rows themselves, every column.
      const digests = [await tableDigests(source.server.orm), await tableDigests(targetServer.orm)];
      for (const table of ['held_posts', 'posting_blocks']) expect(digests[1]![table], table).to.equal(digests[0]![table]);
    });

    it('when imported, then the queue reads as it did, and a blocked author, identified or anonymous, still cannot post', async () => {
      const targetTeam = { url: targetServer.url, apiKey: (await createApiKey(targetServer.orm.em.fork(), { projectSlug: 'mod', kind: 'secret' })).key };
      const targetSite = { url: targetServer.url, apiKey: (await createApiKey(targetServer.orm.em.fork(), { projectSlug: 'mod' })).key };
      const queue = async (caller: Caller) => (await request(caller, 'GET', '/api/v1/moderation')).body;
      expect(await queue(targetTeam)).to.deep.equal(await queue(team));
      // The board's settings are not in a dump: the target's project does not moderate, but blocks stand without moderation.
      for (const body of [{ title: 'Spam again', endUser: { externalId: 'spammer' } }, { title: 'Anonymous again' }]) {
        const res = await request(targetSite, 'POST', '/api/v1/feedback', { body });
        expect(res.status, JSON.stringify(res.body)).to.equal(403);
      }
    });

    it('when the same dump is imported again, then nothing changes', async () => {
      const before = await tableDigests(targetServer.orm);
      const again = await importDump(targetServer.orm, linesOf(sourceDump));
      expect(again.inserted).to.deep.include({ heldPost: 0, postingBlock: 0, user: 0 });
      expect(Object.values(again.inserted).every((n) => n === 0), JSON.stringify(again.inserted)).to.equal(true);
      expect(await tableDigests(targetServer.orm)).to.deep.equal(before);
    });

    it('when a version 5 dump (before held edits) is imported, then its held posts are new posts', async () => {
      const version5 = sourceDump
        .split('\n')
        .filter((line) => !(line.startsWith('{"type":"heldPost"') && line.includes(heldEdit)))
        .map((line) => {
          if (line.startsWith('{"type":"header"')) {
            const header = JSON.parse(line) as { counts: Record<string, number> };
            return JSON.stringify({ ...header, version: 5, counts: { ...header.counts, heldPost: header.counts.heldPost! - 1 } });
          }
          if (!line.startsWith('{"type":"heldPost"')) return line;
          const record = JSON.parse(line) as { data: Record<string, unknown> };
          const { editOf: _editOf, ...data } = record.data;
          return JSON.stringify({ ...record, data });
        })
        .join('\n');
      const older = await emptyDatabase(backend);
      try {
        const summary = await importDump(older.orm, linesOf(version5));
        expect(summary.version).to.equal(5);
        const [rows] = await older.orm.em.fork().execute<{ held: number; edits: number }[]>(
          'select (select count(*)::int from held_posts) as held, (select count(*)::int from held_posts where comment_id is not null) as edits',
        );
        expect(rows).to.deep.equal({ held: headerCounts(sourceDump).heldPost! - 1, edits: 0 });
      } finally {
        await older.drop();
      }
    });

    it('when a version 3 dump (before held posts, blocks and suppressed addresses) is imported, then it imports with none of them', async () => {
      const version3 = sourceDump
        .split('\n')
        .filter((line) => !line.startsWith('{"type":"heldPost"') && !line.startsWith('{"type":"postingBlock"'))
        .map((line) => {
          if (line.startsWith('{"type":"header"')) {
            const header = JSON.parse(line) as { counts: Record<string, number> };
            const { heldPost: _heldPost, postingBlock: _postingBlock, ...counts } = header.counts;
            return JSON.stringify({ ...header, version: 3, counts });
          }
          if (!line.startsWith('{"type":"user"')) return line;
          const record = JSON.parse(line) as { data: Record<string, unknown> };
          const { emailSuppressedAt: _emailSuppressedAt, ...data } = record.data;
          return JSON.stringify({ ...record, data });
        })
        .join('\n');
      const older = await emptyDatabase(backend);
      try {
        const summary = await importDump(older.orm, linesOf(version3));
        expect(summary.version).to.equal(3);
        expect(summary.records).to.deep.include({ heldPost: 0, postingBlock: 0, user: headerCounts(sourceDump).user });
        const [rows] = await older.orm.em.fork().execute<{ held: number; blocks: number; suppressed: number; users: number }[]>(
          `select (select count(*)::int from held_posts) as held, (select count(*)::int from posting_blocks) as blocks,
                  (select count(*)::int from end_users where email_suppressed_at is not null) as suppressed, (select count(*)::int from end_users) as users`,
        );
        expect(rows).to.deep.equal({ held: 0, blocks: 0, suppressed: 0, users: headerCounts(sourceDump).user });
      } finally {
        await older.drop();
      }
    });

    it('when a version 4 dump (blocks without an id, excerpt or end) is imported (issue 49), then each block gets an id derived from its author, an address ends 30 days after it was made, and a second import adds nothing', async () => {
      const version4 = sourceDump
        .split('\n')
        .map((line) => {
          if (line.startsWith('{"type":"header"')) return JSON.stringify({ ...(JSON.parse(line) as object), version: 4 });
          if (!line.startsWith('{"type":"postingBlock"')) return line;
          const record = JSON.parse(line) as { data: Record<string, unknown> };
          const { id: _id, excerpt: _excerpt, expiresAt: _expiresAt, ...data } = record.data;
          return JSON.stringify({ ...record, data });
        })
        .join('\n');
      const older = await emptyDatabase(backend);
      try {
        const summary = await importDump(older.orm, linesOf(version4));
        expect(summary.version).to.equal(4);
        expect(summary.inserted).to.deep.include({ postingBlock: 2 });
        const rows = await older.orm.em
          .fork()
          .execute<{ id: string; end_user_id: string | null; excerpt: string | null; ends_after_days: number | null }[]>(
            `select id::text, end_user_id::text, excerpt, extract(epoch from expires_at - created_at)::int / 86400 as ends_after_days from posting_blocks order by end_user_id nulls first`,
          );
        expect(rows.map((row) => [row.end_user_id === null, row.excerpt, row.ends_after_days])).to.deep.equal([
          [true, null, 30],
          [false, null, null],
        ]);
        const sourceIds = recordsOf(sourceDump, 'postingBlock').map((block) => block.id);
        for (const row of rows) expect(row.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/).and.not.be.oneOf(sourceIds);
        const before = await tableDigests(older.orm);
        const again = await importDump(older.orm, linesOf(version4));
        expect(again.inserted).to.deep.include({ postingBlock: 0 });
        expect(await tableDigests(older.orm)).to.deep.equal(before);
      } finally {
        await older.drop();
      }
    });

    it('when a held post or a block points outside its project, or a held post lacks what its approval needs, then the import fails naming the line and changes nothing', async () => {
      const empty = await emptyDatabase(backend);
      try {
        const before = await tableDigests(empty.orm);
        const reply = lineOf(sourceDump, 'heldPost', heldReply);
        const idea = lineOf(sourceDump, 'heldPost', heldIdea);
        const identifiedBlock = sourceDump.split('\n').findIndex((line) => line.startsWith('{"type":"postingBlock"') && !line.includes('"endUserId":null')) + 1;
        const elsewhere = recordsOf(sourceDump, 'user').find((u) => u.externalId === 'elsewhere')!.id as string;
        const conflicts: [dump: string, line: number, problem: string][] = [
          [withData(sourceDump, reply, (data) => ({ ...data, itemId: otherItem })), reply, `itemId ${otherItem} is not an item of the held post's project`],
          [withData(sourceDump, reply, (data) => ({ ...data, parentId: heldReply })), reply, `parentId ${heldReply} is not a top-level comment of the same item`],
          [withData(sourceDump, idea, (data) => ({ ...data, endUserId: elsewhere })), idea, `endUserId ${elsewhere} is not a user of the held post's project`],
          [withData(sourceDump, identifiedBlock, (data) => ({ ...data, endUserId: elsewhere })), identifiedBlock, `endUserId ${elsewhere} is not a user of the block's project`],
          [withData(sourceDump, reply, (data) => ({ ...data, editOf: thread })), reply, `editOf ${thread} is not a comment of the held edit's item, by its author`],
        ];
        for (const [dump, line, problem] of conflicts) {
          const error = (await rejection(importDump(empty.orm, linesOf(dump)))) as Error;
          expect(error, error.message).to.be.instanceOf(ImportConflictError);
          expect(error.message).to.include(`line ${line}: ${problem}`);
          expect(await tableDigests(empty.orm), `nothing written by a dump that fails at line ${line}`).to.deep.equal(before);
        }
        const untitled = (await rejection(importDump(empty.orm, linesOf(withData(sourceDump, idea, (data) => ({ ...data, title: null })))))) as Error;
        expect(untitled, untitled.message).to.be.instanceOf(DumpFormatError);
        expect((untitled as DumpFormatError).line).to.equal(idea);
        expect(untitled.message).to.include('a held submission has a title');
        expect(await tableDigests(empty.orm)).to.deep.equal(before);
      } finally {
        await empty.drop();
      }
    });

    // Last: it changes the target, which the tests above compare with the dump.
    it('when imported, then a held edit approved on the target replaces its comment\'s text there', async () => {
      const targetTeam = { url: targetServer.url, apiKey: (await createApiKey(targetServer.orm.em.fork(), { projectSlug: 'mod', kind: 'secret' })).key };
      const item = (await request(targetTeam, 'GET', '/api/v1/moderation')).body.items.find((post: { id: string }) => post.id === heldEdit);
      const comment = async () => ((await request(targetTeam, 'GET', `/api/v1/feedback/${item.feedbackId}/comments`)).body.comments as { id: string; content: string }[]).find((c) => c.id === edited)!;
      expect((await comment()).content).to.equal('Approved words');
      const approved = await request(targetTeam, 'POST', '/api/v1/moderation/approve', { body: { ids: [heldEdit] } });
      expect(approved.body.approved).to.deep.equal([{ id: heldEdit, kind: 'comment', feedbackId: item.feedbackId }]);
      expect((await comment()).content).to.equal('Edited words that wait');
    });
  });
}
