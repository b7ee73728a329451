import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { signBoardToken } from '@feedbackd/sdk/board';
import { changeIdentitySecret, setWidget } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { widgetGuardFields } from '../helpers/form-guard.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { request, withServer, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

const HOST = 'https://app.example.com';
const HELD_NOTICE = 'Thank you. Your feedback will appear on the board once the team has approved it.';

/**
 * A form post as the panel's own page sends it (same origin), with the panel's session header when
 * given; a submission with the spam guard's fields of the form as the panel shows it first.
 */
async function post(server: TestServer, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const slug = /^\/w\/([^/]+)\/new$/.exec(path)?.[1];
  const guard = slug === undefined ? {} : await widgetGuardFields(server.url, slug, fields.origin ?? HOST, headers);
  const response = await fetch(server.url + path, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...guard, ...fields }), headers: { 'sec-fetch-site': 'same-origin', ...headers } });
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

async function page(server: TestServer, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + path, { headers });
  return { status: response.status, text: await response.text() };
}

/** The widget's posts are held as the API's and the board's are (docs/moderation.md): one submission path for all three. */
for (const backend of backends()) {
  describe(`widget moderation (${backend.name})`, () => {
    const server = withServer(backend);
    afterEach(async () => expectCountersExact(server));

    /** A project of its own, holding every end user's post, with its widget on for HOST and visitor tokens signed with `identity`. */
    async function moderatedWidget(): Promise<{ slug: string; team: { url: string; apiKey: string }; identity: string }> {
      const slug = `wmod-${randomUUID().slice(0, 8)}`;
      const team = { url: server.url, apiKey: await server.newKey(slug, 'secret') };
      const moderated = await request(team, 'PATCH', '/api/v1/board', { body: { moderation: 'all' } });
      expect(moderated.status, JSON.stringify(moderated.body)).to.equal(200);
      const identity = ((await changeIdentitySecret(server.server.orm.em.fork(), slug, 'rotate')) as { secret: string }).secret;
      await setWidget(server.server.orm.em.fork(), slug, true, [HOST]);
      // The panel reads its project through a cache of about a second: wait until it sees the widget on (and so the moderation set before it).
      await until(async () => (await page(server, `/w/${slug}?origin=${encodeURIComponent(HOST)}`)).status === 200);
      return { slug, team, identity };
    }
    const queue = async (team: { url: string; apiKey: string }) => (await request(team, 'GET', '/api/v1/moderation')).body;

    it('when moderation is all, then a post through the widget, anonymous or identified, is held for the team (not on the board) and the visitor sees the form with the notice', async () => {
      const { slug, team, identity } = await moderatedWidget();
      const anonymous = await post(server, `/w/${slug}/new`, { origin: HOST, title: 'Widget: held anonymous idea', type: 'idea' });
      expect(anonymous.status, anonymous.text).to.equal(303);
      expect(anonymous.location).to.include('tab=feedback').and.include('held=1');
      const shown = await page(server, anonymous.location!);
      expect(shown.status).to.equal(200);
      expect(shown.text).to.include(HELD_NOTICE).and.include('name="title"');

      const token = signBoardToken({ project: slug, secret: identity, user: { externalId: 'widget-held-ada', name: 'Ada' } });
      const { session } = (await (await fetch(`${server.url}/w/${slug}/session`, { method: 'POST', body: new URLSearchParams({ origin: HOST, token }), headers: { 'sec-fetch-site': 'same-origin' } })).json()) as { session: string };
      const identified = await post(server, `/w/${slug}/new`, { origin: HOST, title: 'Widget: held identified idea', type: 'bug' }, { 'x-feedback-session': session });
      expect(identified.status, identified.text).to.equal(303);
      expect(identified.location, 'a held post is in nobody’s lists yet: not My requests').to.include('tab=feedback').and.include('held=1');

      expect((await request(team, 'GET', '/api/v1/feedback')).body).to.deep.include({ items: [], total: 0 });
      const board = await page(server, `/w/${slug}?origin=${encodeURIComponent(HOST)}&tab=board`);
      expect(board.text).not.to.include('Widget: held');
      const waiting = await queue(team);
      expect(waiting.total).to.equal(2);
      expect(waiting.items.map((held: { kind: string; reason: string; title: string }) => [held.kind, held.reason, held.title])).to.deep.equal([
        ['feedback', 'all', 'Widget: held anonymous idea'],
        ['feedback', 'all', 'Widget: held identified idea'],
      ]);
      expect(waiting.items[1].author).to.deep.include({ externalId: 'widget-held-ada', name: 'Ada' });
    });

    it('when the team rejected a widget post with block, then the author’s next post gets the form again, filled, with the reason (403), and nothing is held', async () => {
      const { slug, team } = await moderatedWidget();
      expect((await post(server, `/w/${slug}/new`, { origin: HOST, title: 'Widget: spam', type: 'idea' })).status).to.equal(303);
      const [spam] = (await queue(team)).items as { id: string }[];
      const rejected = await request(team, 'POST', '/api/v1/moderation/reject', { body: { ids: [spam!.id], block: true } });
      expect(rejected.body).to.deep.include({ blocked: 1, notFound: [] });

      const again = await post(server, `/w/${slug}/new`, { origin: HOST, title: 'Widget: spam again', type: 'idea' });
      expect(again.status).to.equal(403);
      expect(again.text).to.include('You can no longer post to this project: the team blocked this author');
      expect(again.text).to.include('value="Widget: spam again"').and.include('action="/w/' + slug + '/new"');
      expect((await queue(team)).total).to.equal(0);
    });
  });
}
