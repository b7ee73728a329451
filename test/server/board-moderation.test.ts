import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { locationOf, request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** A form post as a browser sends it from the board's own pages. */
async function post(server: { url: string }, path: string, form: Record<string, string>) {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { accept: 'text/html', origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

async function page(server: { url: string }, path: string) {
  const response = await fetch(server.url + path, { headers: { accept: 'text/html' } });
  return { status: response.status, text: await response.text() };
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
