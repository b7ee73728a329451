import { expect } from 'chai';
import { FeedbackClient } from '@feedbackd/sdk';
import { DETAIL, DETAIL_WITH_HISTORY, KEEP_THREAD_FROM } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { endUserToken, identitySecretOf } from '../helpers/end-user-token.js';
import { request, withServer } from '../helpers/test-server.js';

/*
 * Long threads kept by their stamp (server/src/api/comment-threads.ts): an item's detail with at
 * least KEEP_THREAD_FROM comments is read without building its thread again while the thread is
 * unchanged. These tests change the thread in every way it can change (a comment, a reply, a pin,
 * an edit, an internal note, an author's new name, a delete, an erasure, a merge) and check that
 * every detail read afterwards, the API's (public and secret keys) and the board's, shows exactly
 * the comments that the comments route (which keeps nothing) shows, and that the stamp moves with
 * each change and stays when nothing changed.
 */
for (const backend of backends()) {
  describe(`long threads read by their stamp (${backend.name})`, () => {
    const server = withServer(backend);
    let site: FeedbackClient;
    let team: FeedbackClient;
    before(async () => {
      site = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
      team = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(undefined, 'secret'), maxRetries: 0 });
    });
    after(async () => {
      await site?.close();
      await team?.close();
    });

    /** The public detail's thread statement's answer for the item, sent `stamp` as the thread its reader holds. */
    const detailRow = async (id: string, stamp: string | null): Promise<{ stamp: string | null; thread: string | null }> => {
      const [project] = await server.sql<{ id: string }>(`select project_id::text as id from feedback where id = ?`, [id]);
      // server.sql binds `?` in the order they appear: each $n of the statement becomes one, with its value.
      const values = [id, project!.id, null, stamp];
      const order = [...DETAIL.thread.text.matchAll(/\$(\d)/g)].map((match) => Number(match[1]) - 1);
      const rows = await server.sql<{ stamp: string | null; thread: string | null }>(
        `select stamp, thread from (${DETAIL.thread.text.replace(/\$(\d)/g, '?')}) d`,
        order.map((n) => values[n]),
      );
      return rows[0]!;
    };
    /** The stamp of the item's public thread now; sent back, the statement leaves the thread out. */
    const stampOf = async (id: string): Promise<string | null> => {
      const { stamp } = await detailRow(id, null);
      if (stamp !== null) expect(await detailRow(id, stamp), 'the item with its thread\'s current stamp').to.deep.equal({ stamp, thread: null });
      return stamp;
    };

    /** Reads the item twice through each reader (the second read finds the thread kept) and checks each against the comments route. */
    const expectDetailsTrue = async (id: string): Promise<void> => {
      const visible = await site.comments.list(id);
      const all = await team.comments.list(id);
      for (let read = 0; read < 2; read++) {
        expect((await site.feedback.get(id)).comments, `public detail, read ${read + 1}`).to.deep.equal(visible);
        expect((await team.feedback.get(id)).comments, `secret detail, read ${read + 1}`).to.deep.equal(all);
        const withUser = await request(server, 'GET', `/api/v1/feedback/${id}?endUserId=reader-1`);
        expect(withUser.body.feedback.comments, `detail with an endUserId, read ${read + 1}`).to.deep.equal(visible);
        expect(Object.keys(withUser.body.feedback).slice(-2)).to.deep.equal(['comments', 'userIsSubscribed']);
      }
    };

    it('when a long thread changes in any way, then every detail read shows it at once, and the stamp moves only with a change', async () => {
      const item = await site.feedback.create({ title: 'A long conversation' });
      for (let i = 0; i < KEEP_THREAD_FROM; i++) await site.comments.create(item.id, { content: `Comment ${i}`, endUser: { externalId: `talker-${i % 7}`, name: `Talker ${i % 7}` } });
      const first = await stampOf(item.id);
      expect(first, 'a thread this long has a stamp').to.be.a('string');
      await expectDetailsTrue(item.id);
      expect(await stampOf(item.id), 'reads change nothing').to.equal(first);

      const stamps = new Set([first]);
      const changed = async (what: string, change: () => Promise<unknown>) => {
        const before = await stampOf(item.id);
        await change();
        expect((await detailRow(item.id, before)).thread, `the thread after ${what}, sent the stamp before it`).to.be.a('string');
        const stamp = await stampOf(item.id);
        expect(stamps.has(stamp), `the stamp after ${what}`).to.equal(false);
        stamps.add(stamp);
        await expectDetailsTrue(item.id);
      };

      let question: { id: string } | undefined;
      await changed('a comment', async () => {
        question = (await site.comments.create(item.id, { content: 'Will this ship?', endUser: { externalId: 'asker', name: 'Asker' } })).comment;
      });
      const identity = await identitySecretOf(server);
      await changed('an edit', () => site.comments.update(item.id, question!.id, { content: 'Will this ship soon?', endUserId: 'asker', userToken: endUserToken(identity, 'asker') }));
      await changed('a reply', () => site.comments.create(item.id, { content: 'Me too', endUser: { externalId: 'talker-1' }, parentId: question!.id }));
      await changed('a pinned team answer', () => team.comments.create(item.id, { content: 'In March', team: { name: 'Support' }, parentId: question!.id, pin: true }));
      await changed("an author's new name", () => site.users.identify({ externalId: 'talker-2', name: 'Talker Two' }));
      const visibleBefore = await site.comments.list(item.id);
      await team.comments.create(item.id, { content: 'Big customer', team: { name: 'Support' }, internal: true });
      expect(await site.comments.list(item.id), 'an internal note is not in the public thread').to.deep.equal(visibleBefore);
      await expectDetailsTrue(item.id);
      const [victim] = await site.comments.list(item.id);
      await changed('a delete', () => team.comments.delete(item.id, victim!.id));
      await changed("an author's erasure", () => team.users.erase('talker-3'));
      const duplicate = await site.feedback.create({ title: 'A long conversation, again' });
      await site.comments.create(duplicate.id, { content: 'Same here', endUser: { externalId: 'elsewhere' } });
      await changed('a merge', () => team.admin.merge(duplicate.id, item.id));
      expect((await site.comments.list(item.id)).map((c) => c.content)).to.include('Same here');
    });

    it('when the board shows a long thread, then its item page shows each change at once', async () => {
      const item = await site.feedback.create({ title: 'A long thread on the board' });
      for (let i = 0; i < KEEP_THREAD_FROM; i++) await site.comments.create(item.id, { content: `Board comment ${i}`, endUser: { externalId: `board-talker-${i}` } });
      const page = async () => (await request(server, 'GET', `/b/default/items/${item.id}`, { headers: { accept: 'text/html' } })).body as string;
      expect(await page()).to.include(`Board comment ${KEEP_THREAD_FROM - 1}`);
      expect(await page()).to.include(`Board comment ${KEEP_THREAD_FROM - 1}`);
      await site.comments.create(item.id, { content: 'A late comment', endUser: { externalId: 'late' } });
      expect(await page()).to.include('A late comment');
      const [firstComment] = await site.comments.list(item.id);
      await team.comments.delete(item.id, firstComment!.id);
      expect(await page()).not.to.include('Board comment 0<');
    });
  });
}

describe('CommentThreads: how a kept thread is used', () => {
  /** A stand-in for the statements: answers as the detail statements do for one item, recording what was sent. */
  const fakeSql = (commentCount: number, stamp: string, thread: string, tail: string | null) => {
    const sent: { name: string; values: unknown[] }[] = [];
    const head = '{"id":"a","userHasVoted":false}';
    return {
      sent,
      query: async (name: string, _text: string, values: unknown[]) => {
        sent.push({ name, values });
        if (!name.endsWith('_thread')) return [{ body: `${head.slice(0, -1)},"comments":${thread}${tail === null ? '}' : `,${tail.slice(1)}`}`, comment_count: commentCount }] as never;
        return [{ head, thread: values[3] === stamp ? null : thread, tail, stamp }] as never;
      },
    };
  };

  it('when a long thread is read again and again, then the plain statement finds it long, the thread statement builds it once, and then the kept text is used; the object reads the same every time', async () => {
    const { CommentThreads } = await import('@feedbackd/server/testing');
    const threads = new CommentThreads();
    const sql = fakeSql(KEEP_THREAD_FROM, '3:10:20', '[{"id":"c"}]', '{"userIsSubscribed":true}');
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await threads.read(sql, DETAIL, 'a', 'p', null));
    expect(new Set(answers)).to.deep.equal(new Set(['{"id":"a","userHasVoted":false,"comments":[{"id":"c"}],"userIsSubscribed":true}']));
    expect(sql.sent.map(({ name, values }) => [name, values[3] ?? null])).to.deep.equal([
      ['detail', null],
      ['detail_thread', null],
      ['detail_thread', '3:10:20'],
    ]);
    expect(threads.hits).to.equal(1);
    // The team's thread of the same item is another thread: not known yet.
    await threads.read(sql, DETAIL_WITH_HISTORY, 'a', 'p', null);
    expect(sql.sent.at(-1)!.name).to.equal('detail_with_history');
  });

  it('when a thread is short, then only the plain statement is ever sent', async () => {
    const { CommentThreads } = await import('@feedbackd/server/testing');
    const threads = new CommentThreads();
    const sql = fakeSql(KEEP_THREAD_FROM - 1, '1:1:0', '[]', null);
    for (let i = 0; i < 3; i++) expect(JSON.parse((await threads.read(sql, DETAIL, 'b', 'p', null))!)).to.deep.equal({ id: 'a', userHasVoted: false, comments: [] });
    expect(sql.sent.map(({ name }) => name)).to.deep.equal(['detail', 'detail', 'detail']);
  });
});
