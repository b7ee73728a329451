import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importDump } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { asEndUser, identitySecretOf } from '../helpers/end-user-token.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { request, withServer } from '../helpers/test-server.js';
import { dumpOf, emptyDatabase, linesOf } from '../helpers/transfer.js';

type Caller = { url: string; apiKey: string };

/** The conversation in a dump (issue 39): replies, internal notes, the pin, edits and their history go both ways, losslessly. */
for (const backend of backends()) {
  describe(`comments in export and import (${backend.name})`, () => {
    const server = withServer(backend);
    let team: Caller;
    before(async () => {
      team = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
    });

    /** Every comment column and every revision, in a fixed order: what "lossless" compares. */
    const conversation = async (sql: (text: string) => Promise<Record<string, unknown>[]>) => ({
      comments: await sql(`select id::text, feedback_id::text, parent_id::text, author_end_user_id::text, author_name, is_team, is_internal, is_pinned, content,
        created_at::text, edited_at::text from comments order by id`),
      revisions: await sql('select id::text, comment_id::text, content, written_at::text, replaced_at::text from comment_revisions order by id'),
      counts: await sql('select feedback_id::text, comment_count from feedback_counters order by feedback_id'),
    });

    it('when a project with replies, an internal note, a pinned answer and edited comments is exported and imported into an empty database, then every row comes back the same and the counts exclude the note', async () => {
      const id = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Carried over' } })).body.feedback.id;
      const add = async (body: Record<string, unknown>, caller: Caller = server) => (await request(caller, 'POST', `/api/v1/feedback/${id}/comments`, { body })).body.comment;
      const top = await add({ content: 'First', endUser: { externalId: 'ann', name: 'Ann' } });
      await add({ content: 'Reply', endUser: { externalId: 'bob' }, parentId: top.id });
      await add({ content: 'Note', team: { name: 'Ops' }, internal: true, parentId: top.id }, team);
      await add({ content: 'Answer', team: { name: 'Ops' }, pin: true }, team);
      // Ann's edits, proved by her token (docs/api.md, "Comments").
      const identity = await identitySecretOf(server);
      for (const content of ['First, edited', 'First, edited twice']) {
        const edited = await request(server, 'PATCH', `/api/v1/feedback/${id}/comments/${top.id}`, { body: { content, endUserId: 'ann' }, headers: asEndUser(identity, 'ann') });
        expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      }

      const dump = await dumpOf(server.server.orm);
      expect(dump.split('\n').filter((line) => line.startsWith('{"type":"commentRevision"'))).to.have.length(2);
      const target = await emptyDatabase(backend);
      try {
        const summary = await importDump(target.orm, linesOf(dump));
        expect(summary.inserted).to.include({ comment: 4, commentRevision: 2 });
        const sourceRows = await conversation((text) => server.sql(text));
        const targetRows = await conversation((text) => target.orm.em.fork().execute(text));
        expect(targetRows).to.deep.equal(sourceRows);
        const count = targetRows.counts.find((row) => row.feedback_id === id);
        expect(count!.comment_count).to.equal(3);
        await expectCountersExact({ sql: async (text, params) => target.orm.em.fork().execute(text, params as unknown[]) });
      } finally {
        await target.drop();
      }
    });

    it('when a version 1 dump (from before the conversation) is imported, then its comments are top-level, visible, unpinned and unedited', async () => {
      const fixture = readFileSync(fileURLToPath(new URL('../fixtures/release-0.1.0/export.jsonl', import.meta.url)), 'utf8');
      expect(fixture.slice(0, fixture.indexOf('\n'))).to.include('"version":1');
      const target = await emptyDatabase(backend);
      try {
        // Its anonymous votes are keyed as before the voter secret: any secret re-keys them.
        const summary = await importDump(target.orm, linesOf(fixture), { voterSecret: async () => Buffer.alloc(32, 7) });
        expect(summary.inserted.comment).to.be.greaterThan(0);
        expect(summary.inserted.commentRevision).to.equal(0);
        const [flags] = await target.orm.em.fork().execute<{ odd: number }[]>(
          'select count(*)::int as odd from comments where parent_id is not null or is_internal or is_pinned or edited_at is not null',
        );
        expect(flags!.odd).to.equal(0);
      } finally {
        await target.drop();
      }
    });
  });
}
