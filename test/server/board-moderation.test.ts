import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { locationOf, request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';
import { guardFields } from '../helpers/form-guard.js';

async function page(server: { url: string }, path: string) {
  const response = await fetch(server.url + path, { headers: { accept: 'text/html' } });
  return { status: response.status, text: await response.text() };
}

/**
 * A form post as a browser sends it from the board's own pages: with the spam guard's fields of
 * the page it was on (the submit form's, or the item page's comment form).
 */
async function post(server: { url: string }, path: string, form: Record<string, string>, accept = 'text/html') {
  const comment = path.endsWith('/comments');
  const from = comment ? path.slice(0, -'/comments'.length) : path;
  const guard = guardFields((await page(server, from)).text, comment ? 'comment' : 'submit');
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { accept, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...guard, ...form }).toString(),
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

/** Moderation on the board and from the CLI (issue 39, item 5; docs/moderation.md). */
for (const backend of backends()) {
  describe(`moderation on the board and the CLI (${backend.name})`, () => {
    const server = withServer(backend);
    afterEach(async () => expectCountersExact(server));

    it('when `feedback board moderation anonymous --hold-links` runs, then it prints the setting, --json shows it, and a bad mode exits 2', async () => {
      const slug = `bm-${randomUUID().slice(0, 8)}`;
      await server.newKey(slug);
      const set = await inProcess(['board', 'moderation', 'anonymous', '--hold-links', '--project', slug, ...locationOf(server)]);
      expect(set.code, set.stderr).to.equal(0);
      expect(set.stdout.trim()).to.equal(`moderation on ${slug}: posts without an identified end user wait for the team, and any post with a link`);
      const json = await inProcess(['board', 'moderation', 'all', '--project', slug, '--json', ...locationOf(server)]);
      expect(json.code, json.stderr).to.equal(0);
      expect(JSON.parse(json.stdout)).to.deep.include({ project: slug, moderation: 'all', moderationHoldLinks: true });
      const off = await inProcess(['board', 'moderation', 'none', '--no-hold-links', '--project', slug, '--json', ...locationOf(server)]);
      expect(JSON.parse(off.stdout)).to.deep.include({ moderation: 'none', moderationHoldLinks: false });
      const bad = await inProcess(['board', 'moderation', 'some', '--project', slug, ...locationOf(server)]);
      expect(bad.code).to.equal(2);
      expect(bad.stderr).to.include('none, anonymous, all');
    });

    it('when anonymous comments are held on the board, then the visitor is told (with and without script), the page does not show it, and approval does', async () => {
      const slug = `bm-${randomUUID().slice(0, 8)}`;
      const secret = await server.newKey(slug, 'secret');
      const pub = await server.newKey(slug);
      const created = await request(server, 'POST', '/api/v1/feedback', { apiKey: pub, body: { title: 'An item to talk about', endUser: { externalId: 'held-comment-author' } } });
      const id = created.body.feedback.id as string;
      for (const args of [['board', 'on'], ['board', 'moderation', 'anonymous'], ['board', 'comments', '--anonymous', 'on']]) {
        const run = await inProcess([...args, '--project', slug, ...locationOf(server)]);
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(0);
      }
      const item = `/b/${slug}/items/${id}`;
      await until(async () => (await page(server, item)).text.includes('data-comment-form'), 5_000, 'the board to take anonymous comments');
      const sent = await post(server, `${item}/comments`, { content: 'Held without script' });
      expect(sent.status).to.equal(303);
      expect(sent.location).to.match(/\?held=comment#comment-form-title$/);
      const notice = await page(server, sent.location!.replace(/^https?:\/\/[^/]+/, ''));
      expect(notice.text).to.include('data-comment-held').and.include('waits for the team');
      expect(notice.text).to.not.include('Held without script');
      const scripted = await post(server, `${item}/comments`, { content: 'Held with script' }, 'application/json');
      expect(scripted.status).to.equal(202);
      const { stamp, ...answer } = JSON.parse(scripted.text) as { stamp: unknown };
      expect(answer).to.deep.equal({ held: true, message: 'Thank you: your comment waits for the team’s approval, and appears here once approved.' });
      expect(stamp, 'the form’s next stamp: the one sent is spent').to.be.a('string');
      const detail = await request(server, 'GET', `/api/v1/feedback/${id}`, { apiKey: pub });
      expect(detail.body.feedback.commentCount).to.equal(0);
      const listed = await request(server, 'GET', '/api/v1/moderation', { apiKey: secret });
      const held = (listed.body.items as { id: string; kind?: string; content?: string }[]).filter((entry) => entry.content?.startsWith('Held '));
      expect(held, JSON.stringify(listed.body)).to.have.length(2);
      const approved = await request(server, 'POST', '/api/v1/moderation/approve', { apiKey: secret, body: { ids: held.map((entry) => entry.id) } });
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      const shown = await page(server, item);
      expect(shown.text).to.include('Held without script').and.include('Held with script');
    });

    it('when a board visitor submits where posts are held, then the form comes back with a notice, the item is not listed, and `feedback moderation` lists, approves and rejects with --block', async () => {
      const slug = `bm-${randomUUID().slice(0, 8)}`;
      const secret = await server.newKey(slug, 'secret');
      for (const args of [['board', 'on'], ['board', 'moderation', 'anonymous']]) {
        const run = await inProcess([...args, '--project', slug, ...locationOf(server)]);
        expect(run.code, run.stderr).to.equal(0);
      }
      const api = ['--url', server.url, '--api-key', secret];
      // The board reads its project through a cache of about a second.
      await until(async () => (await page(server, `/b/${slug}`)).status === 200, 5_000, 'the board to be on');
      // The board's cached project was read after the setting: the first post is held.
      const sent = await post(server, `/b/${slug}/new`, { title: 'Held on the board', description: 'please', type: 'idea' });
      expect(sent.status).to.equal(303);
      expect(sent.location).to.match(/\/new\?held=1$/);
      const notice = await page(server, sent.location!.replace(/^https?:\/\/[^/]+/, ''));
      expect(notice.text).to.include('role="status"').and.include('once the team has approved it');
      expect((await page(server, `/b/${slug}`)).text).to.not.include('Held on the board');

      const listed = await inProcess(['moderation', 'list', '--json', ...api]);
      expect(listed.code, listed.stderr).to.equal(0);
      const items = JSON.parse(listed.stdout).items as { id: string; title: string; reason: string }[];
      expect(items).to.have.length(1);
      const ours = items;
      expect(ours[0]).to.deep.include({ title: 'Held on the board', reason: 'anonymous' });

      const approved = await inProcess(['moderation', 'approve', ours[0]!.id, ...api]);
      expect(approved.code, approved.stderr).to.equal(0);
      expect(approved.stdout).to.include(`${ours[0]!.id}\tapproved\tfeedback`);
      expect((await page(server, `/b/${slug}`)).text).to.include('Held on the board');
      const again = await inProcess(['moderation', 'approve', ours[0]!.id, ...api]);
      expect(again.code).to.equal(3);
      expect(again.stderr).to.include(`not held: ${ours[0]!.id}`);

      const spam = await post(server, `/b/${slug}/new`, { title: 'Spam from the board', type: 'idea' });
      expect(spam.status).to.equal(303);
      const spamId = (JSON.parse((await inProcess(['moderation', 'list', '--json', ...api])).stdout).items as { id: string; title: string }[]).find((i) => i.title === 'Spam from the board')!.id;
      const rejected = await inProcess(['moderation', 'reject', spamId, '--block', '--json', ...api]);
      expect(rejected.code, rejected.stderr).to.equal(0);
      expect(JSON.parse(rejected.stdout)).to.deep.include({ rejected: [{ id: spamId, kind: 'feedback' }], blocked: 1 });
      // The same address again: the form comes back filled in, with the reason.
      const refused = await post(server, `/b/${slug}/new`, { title: 'Spam again', description: 'kept text', type: 'bug' });
      expect(refused.status).to.equal(403);
      expect(refused.text).to.include('the team blocked this author').and.include('value="Spam again"').and.include('kept text');
      expect((await request({ url: server.url, apiKey: secret }, 'GET', '/api/v1/moderation')).body.total).to.equal(0);
    });
  });
}
