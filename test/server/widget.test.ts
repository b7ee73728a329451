import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { signBoardToken } from '@feedbackd/sdk/board';
import { changeIdentitySecret, setWidget } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { widgetGuardFields } from '../helpers/form-guard.js';
import { inProcess } from '../helpers/cli-process.js';
import { locationOf, request, withServer, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

const HOST = 'https://app.example.com';

/**
 * A form post as the panel's own page sends it (same origin), with the panel's session header when
 * given; a submission with the spam guard's fields of the form as the panel shows it first.
 */
async function post(server: TestServer, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const slug = /^\/w\/([^/]+)\/new$/.exec(path)?.[1];
  const guard = slug === undefined ? {} : await widgetGuardFields(server.url, slug, fields.origin ?? HOST, headers);
  const response = await fetch(server.url + path, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...guard, ...fields }), headers: { 'sec-fetch-site': 'same-origin', ...headers } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, any> };
}

async function get(server: TestServer, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + path, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The widget's panel over HTTP (docs/widget.md): who may frame it, its session, My requests. */
for (const backend of backends()) {
  describe(`widget (${backend.name})`, function () {
    const server = withServer(backend);
    let secret: string;
    let identity: string;

    before(async () => {
      secret = await server.newKey(undefined, 'secret');
      identity = ((await changeIdentitySecret(server.server.orm.em.fork(), 'default', 'rotate')) as { secret: string }).secret;
      await setWidget(server.server.orm.em.fork(), 'default', true, [HOST]);
      // The panel reads its project through a cache of about a second: wait until it sees the widget on.
      await until(async () => (await get(server, `/w/default?origin=${encodeURIComponent(HOST)}`)).status === 200);
    });

    it('when the loader is asked for, then it is served to any site as a script of at most 3 KB gzip, and the first view with its assets is at most 30 KB gzip', async () => {
      const loader = await fetch(`${server.url}/w/loader.js`);
      expect(loader.status).to.equal(200);
      expect(loader.headers.get('content-type')).to.match(/^text\/javascript/);
      expect(loader.headers.get('cross-origin-resource-policy')).to.equal('cross-origin');
      const loaderBytes = gzipSync(Buffer.from(await loader.text()), { level: 9 }).length;
      expect(loaderBytes, 'loader gzip bytes').to.be.at.most(3 * 1024);

      const panel = await get(server, `/w/default?origin=${encodeURIComponent(HOST)}`);
      const assets = [...panel.text.matchAll(/(?:href|src)="(\/w\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets).to.have.length(2);
      let firstView = gzipSync(Buffer.from(panel.text), { level: 9 }).length;
      for (const path of assets) firstView += gzipSync(Buffer.from(await (await fetch(server.url + path)).text()), { level: 9 }).length;
      expect(firstView, 'first view gzip bytes').to.be.at.most(30 * 1024);
    });

    it('when the panel is asked for by an allowed host origin, then only that origin may frame it and nothing inline may run', async () => {
      const panel = await get(server, `/w/default?origin=${encodeURIComponent(HOST)}&tab=board`);
      expect(panel.status).to.equal(200);
      const policy = panel.headers.get('content-security-policy')!;
      expect(policy).to.include(`frame-ancestors ${HOST}`);
      expect(policy).to.include("script-src 'self'");
      expect(panel.headers.get('set-cookie'), 'the panel sets no cookie').to.equal(null);
      expect(panel.text).to.include(`data-origin="${HOST}"`);
    });

    it('when the panel is asked for by another origin, or by none, then it refuses with 403 and shows no item', async () => {
      await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Widget: not for strangers', endUser: { externalId: 'stranger-test' } } });
      for (const query of ['?origin=https%3A%2F%2Fevil.example&tab=board', '?tab=board']) {
        const panel = await get(server, `/w/default${query}`);
        expect(panel.status, query).to.equal(403);
        expect(panel.text).not.to.include('Widget: not for strangers');
      }
    });

    it('when `feedback widget on` names host origins and `off` follows, then the panel answers those origins only, then none; a wildcard or no origin is a usage error', async () => {
      await server.newKey('cli-widget');
      const where = ['--project', 'cli-widget', ...locationOf(server)];
      const on = await inProcess(['widget', 'on', '--origin', 'https://a.example.com', '--origin', 'https://b.example.com:8443', '--json', ...where]);
      expect(on.code, on.stderr).to.equal(0);
      expect(JSON.parse(on.stdout)).to.deep.include({ project: 'cli-widget', widgetEnabled: true, origins: ['https://a.example.com', 'https://b.example.com:8443'], loaderPath: '/w/loader.js' });
      await until(async () => (await get(server, '/w/cli-widget?origin=https%3A%2F%2Fb.example.com%3A8443')).status === 200);
      expect((await get(server, '/w/cli-widget?origin=https%3A%2F%2Fc.example.com')).status).to.equal(403);

      const wildcard = await inProcess(['widget', 'on', '--origin', 'https://*.example.com', ...where]);
      expect(wildcard.code, 'usage').to.equal(2);
      expect(wildcard.stderr).to.include('is not an origin');
      const none = await inProcess(['widget', 'on', ...where]);
      expect(none.code, 'usage').to.equal(2);
      expect(none.stderr).to.include('--origin');
      const missing = await inProcess(['widget', 'on', '--origin', 'https://a.example.com', '--project', 'no-such-project', ...locationOf(server)]);
      expect(missing.code, 'not found').to.equal(3);

      const off = await inProcess(['widget', 'off', ...where]);
      expect(off.code, off.stderr).to.equal(0);
      expect(off.stdout).to.include('the widget of cli-widget is off');
      await until(async () => (await get(server, '/w/cli-widget?origin=https%3A%2F%2Fa.example.com')).status === 404);
    });

    it('when the panel is given bad input (a tab that is none, a repeated origin, an item id that is none, an empty title), then it answers 4xx pages, never a 5xx', async () => {
      const origin = encodeURIComponent(HOST);
      expect((await get(server, `/w/default?origin=${origin}&tab=nope`)).status).to.equal(404);
      expect((await get(server, `/w/default?origin=${origin}&origin=${origin}`)).status).to.equal(403);
      expect((await post(server, '/w/default/items/not-an-id/vote', { origin: HOST })).status).to.equal(404);
      expect((await post(server, '/w/default/items/0190f1a2-3b4c-7d5e-8f60-718293a4b5c6/vote', { origin: HOST }, { accept: 'application/json' })).status).to.equal(404);
      const empty = await post(server, '/w/default/new', { origin: HOST, title: '   ', type: 'wish' });
      expect(empty.status).to.equal(400);
      expect(empty.text).to.include('aria-invalid="true"');
      const similar = await fetch(`${server.url}/w/default/similar?origin=${origin}&title=${'x'.repeat(5000)}`);
      expect(similar.status).to.equal(200);
      expect(await similar.json()).to.have.property('list').that.is.a('string');
    });

    it('when a project has no widget, then its panel is a 404 page', async () => {
      await server.newKey('widgetless');
      const panel = await get(server, `/w/widgetless?origin=${encodeURIComponent(HOST)}`);
      expect(panel.status).to.equal(404);
      expect(panel.headers.get('content-type')).to.match(/^text\/html/);
    });

    it('when the session exchange is given no token, a forged one or one from another site, then it answers the API error shape with 400, 401 and 403', async () => {
      const missing = await post(server, '/w/default/session', { origin: HOST });
      expect(missing.status).to.equal(400);
      expect(missing.json()).to.have.property('error').that.is.a('string');
      const forged = await post(server, '/w/default/session', { origin: HOST, token: signBoardToken({ project: 'default', secret: 'not the secret', user: { externalId: 'x' } }) });
      expect(forged.status).to.equal(401);
      expect(forged.json().error).to.be.a('string');
      const crossSite = await post(server, '/w/default/session', { origin: HOST, token: 'a.b.c' }, { 'sec-fetch-site': 'cross-site' });
      expect(crossSite.status).to.equal(403);
      const otherHost = await post(server, '/w/default/session', { origin: 'https://evil.example', token: signBoardToken({ project: 'default', secret: identity, user: { externalId: 'x' } }) });
      expect(otherHost.status).to.equal(403);
    });

    it('when an identified visitor submits and votes through the panel, then My requests lists both, and a status change and a team reply after their visit are marked new once', async () => {
      const token = signBoardToken({ project: 'default', secret: identity, user: { externalId: 'widget-ada', name: 'Ada' } });
      const exchanged = await post(server, '/w/default/session', { origin: HOST, token });
      expect(exchanged.status).to.equal(200);
      const { session, expiresIn } = exchanged.json();
      expect(expiresIn).to.be.greaterThan(60);
      expect(exchanged.headers.get('set-cookie'), 'the session is no cookie').to.equal(null);
      const as = { 'x-feedback-session': session as string };

      const sent = await post(server, '/w/default/new', { origin: HOST, title: 'Widget: export to CSV', type: 'idea' }, as);
      expect(sent.status).to.equal(303);
      expect(sent.headers.get('location')).to.include('tab=mine');
      const [mine] = await server.sql<{ id: string }>("select id::text from feedback where title = 'Widget: export to CSV'");
      const other = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Widget: dark mode', endUser: { externalId: 'widget-grace' } } });
      const voted = await post(server, `/w/default/items/${other.body.feedback.id}/vote`, { origin: HOST }, { ...as, accept: 'application/json' });
      expect(voted.json()).to.include({ voted: true, voteCount: 2 });

      const first = await get(server, `/w/default?origin=${encodeURIComponent(HOST)}&tab=mine`, as);
      expect(first.text).to.include('Widget: export to CSV').and.include('Widget: dark mode').and.include('Signed in as Ada');
      expect(first.text).not.to.include('class="unread"');

      expect((await request(server, 'PATCH', `/api/v1/feedback/${other.body.feedback.id}`, { apiKey: secret, body: { status: 'planned' } })).status).to.equal(200);
      expect((await request(server, 'POST', `/api/v1/feedback/${mine!.id}/comments`, { apiKey: secret, body: { content: 'On our list', team: { name: 'Grace' } } })).status).to.equal(201);
      const after = await get(server, `/w/default?origin=${encodeURIComponent(HOST)}&tab=mine`, as);
      expect(after.text.match(/class="unread"/g), 'both items changed').to.have.length(2);
      expect(after.text).to.include('New: now Planned').and.include('New: the team replied').and.include('2 updates since your last visit');
      const again = await get(server, `/w/default?origin=${encodeURIComponent(HOST)}&tab=mine`, as);
      expect(again.text).not.to.include('class="unread"');

      const anonymous = await get(server, `/w/default?origin=${encodeURIComponent(HOST)}&tab=mine`);
      expect(anonymous.text).to.include('Sign in to the app').and.not.include('Widget: export to CSV');
      const elsewhere = await get(server, `/w/default?origin=${encodeURIComponent(HOST)}&tab=mine`, { 'x-feedback-session': `${session}x` });
      expect(elsewhere.text, 'a tampered session is nobody').not.to.include('Widget: export to CSV');
    });
  });
}
