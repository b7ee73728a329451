import { guardFields } from '../helpers/form-guard.js';
import { expect } from 'chai';
import { SignJWT } from 'jose';
import { boardSignInLink, signBoardToken } from '@feedbackd/sdk/board';
import { changeIdentitySecret, setWidget } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, withServer, locationOf, SHORT_BOARD_PROJECT_CACHE_TTL_MS } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/**
 * Identified visitors of the board (docs/board.md, "Identified visitors") and its framing, over
 * HTTP: the host app's signed link, the session cookie, and whose votes and items they make. The
 * browser suite (test/browser/board.test.ts) follows such a link in Chromium.
 */

type Page = { status: number; headers: Headers; text: string };

async function browse(server: { url: string }, path: string, init: { method?: string; form?: Record<string, string>; cookie?: string } = {}): Promise<Page> {
  const headers: Record<string, string> = { accept: 'text/html' };
  if (init.cookie) headers.cookie = init.cookie;
  let body: string | undefined;
  if (init.form) {
    body = new URLSearchParams(init.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers.origin = server.url;
  }
  const response = await fetch(server.url + path, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}


/** The cookie a sign-in answer set, as a browser sends it back (`name=value`). */
function cookieOf(page: Page): string {
  const set = page.headers.get('set-cookie') ?? '';
  expect(set, 'a session cookie').to.match(/^feedback_visitor=[^;]+/);
  return set.split(';')[0]!;
}

for (const backend of backends()) {
  describe(`board: identified visitors (${backend.name})`, () => {
    const server = withServer(backend, { boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });
    let secret: string;

    /** A new identity secret for the default board, seen by the server once its project cache turns over. */
    async function rotate(): Promise<string> {
      const made = await changeIdentitySecret(server.server.orm.em.fork(), 'default', 'rotate');
      await server.boardSettingsSeen();
      return (made as { secret: string }).secret;
    }

    before(async () => {
      secret = await rotate();
    });

    const link = (user: { externalId: string; name?: string }, extra: { returnTo?: string; secret?: string; project?: string } = {}) =>
      new URL(boardSignInLink({ serverUrl: server.url, project: extra.project ?? 'default', secret: extra.secret ?? secret, user, returnTo: extra.returnTo }));
    const pathOf = (url: URL) => url.pathname + url.search;

    async function signIn(user: { externalId: string; name?: string }): Promise<string> {
      const answer = await browse(server, pathOf(link(user)));
      expect(answer.status, answer.text).to.equal(303);
      return cookieOf(answer);
    }

    it('when `feedback board secret create` runs twice, then the first prints a secret once, the second is refused, rotate makes a new one and remove takes it away', async () => {
      await server.newKey('secrets');
      const where = ['--project', 'secrets', ...locationOf(server)];
      const created = await inProcess(['board', 'secret', 'create', ...where]);
      expect(created.code, created.stderr).to.equal(0);
      expect(created.stdout.trim()).to.match(/^bis_[\w-]{43}$/);
      expect(created.stderr).to.include('shown only once');
      const again = await inProcess(['board', 'secret', 'create', ...where]);
      expect(again.code, 'usage').to.equal(2);
      expect(again.stderr).to.include('feedback board secret rotate');
      const rotated = await inProcess(['board', 'secret', 'rotate', '--json', ...where]);
      expect(rotated.code, rotated.stderr).to.equal(0);
      const json = JSON.parse(rotated.stdout) as { secret: string; identifiedVisitors: boolean };
      expect(json.identifiedVisitors).to.equal(true);
      expect(json.secret).to.match(/^bis_/).and.not.equal(created.stdout.trim());
      const removed = await inProcess(['board', 'secret', 'remove', '--json', ...where]);
      expect(removed.code, removed.stderr).to.equal(0);
      expect(JSON.parse(removed.stdout)).to.include({ identifiedVisitors: false }).and.not.have.property('secret');
    });

    it('when a visitor follows a signed link, then they get an HttpOnly SameSite=Lax cookie for this board, land where the link says, and the header names them', async () => {
      const item = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Landing place' } })).body.feedback.id as string;
      const answer = await browse(server, pathOf(link({ externalId: 'ann-1', name: 'Ann Example' }, { returnTo: `/b/default/items/${item}` })));
      expect(answer.status).to.equal(303);
      expect(answer.headers.get('location')).to.equal(`/b/default/items/${item}`);
      expect(answer.headers.get('cache-control')).to.equal('no-store');
      const set = answer.headers.get('set-cookie')!;
      expect(set).to.match(/; path=\/b\/default;/i);
      expect(set).to.match(/; samesite=lax/i);
      expect(set).to.match(/; httponly/i);
      expect(set, 'not over plain http').not.to.match(/; secure/i);
      const page = await browse(server, `/b/default/items/${item}`, { cookie: cookieOf(answer) });
      expect(page.text).to.include('Signed in as <strong><bdi>Ann Example</bdi></strong>');
      const anonymous = await browse(server, `/b/default/items/${item}`);
      expect(anonymous.text).not.to.include('Signed in as');
      // The end user is the record identify writes: the API knows their name now.
      const user = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'ann-1' } });
      expect(user.body.user).to.include({ name: 'Ann Example' });
    });

    it("when a sign-in link's `to` climbs out of the board with dot segments, plain or percent-encoded, then the visitor lands on the board, never on another site (issue 37: open redirect)", async () => {
      const climbs = ['/b/default/../..//evil.example/', '/b/default/%2e%2e/%2E%2E//evil.example/', '/b/default/..%2F..%2F/../..//evil.example', '//evil.example/b/default', '/b/default\\..\\..\\evil.example'];
      for (const [n, to] of climbs.entries()) {
        // A user per link: two links for one user in the same second are one token (spent by the first).
        const answer = await browse(server, pathOf(link({ externalId: `redirected-${n}` }, { returnTo: to })));
        expect(answer.status, to).to.equal(303);
        expect(answer.headers.get('location'), to).to.equal('/b/default');
      }
      // `to` is no part of the token: a link of one's own with `to` changed by hand is checked the same way.
      const own = link({ externalId: 'redirected-by-hand' });
      own.searchParams.set('to', '/b/default/%2e%2e/%2e%2e//evil.example/');
      const changed = await browse(server, pathOf(own));
      expect(changed.headers.get('location')).to.equal('/b/default');
    });

    it("when an identified visitor votes and submits on the board, then the API counts them as that end user's, not as the address's", async () => {
      const cookie = await signIn({ externalId: 'voter-7', name: 'Seven' });
      const item = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Vote for me' } })).body.feedback.id as string;
      const voted = await browse(server, `/b/default/items/${item}/vote`, { method: 'POST', form: {}, cookie });
      expect(voted.status).to.equal(303);
      const asUser = await request(server, 'GET', `/api/v1/feedback/${item}/vote?endUserId=voter-7`);
      expect(asUser.body).to.deep.equal({ voted: true, voteCount: 2 });
      const asAddress = await request(server, 'GET', `/api/v1/feedback/${item}/vote`);
      expect(asAddress.body, 'the submitter (this address) voted; the visitor is not the address').to.deep.equal({ voted: true, voteCount: 2 });
      const page = await browse(server, `/b/default/items/${item}`, { cookie });
      expect(page.text).to.match(/aria-pressed="true"/);

      const guard = guardFields((await browse(server, '/b/default/new', { cookie })).text, 'submit');
      const submitted = await browse(server, '/b/default/new', { method: 'POST', form: { ...guard, title: 'Posted by Seven on the board' }, cookie });
      expect(submitted.status, submitted.text).to.equal(303);
      const id = submitted.headers.get('location')!.split('/').pop()!;
      const detail = await request(server, 'GET', `/api/v1/feedback/${id}`);
      expect(detail.body.feedback.endUser).to.deep.equal({ name: 'Seven', avatarUrl: null });
      const own = await request(server, 'GET', `/api/v1/feedback/${id}/vote?endUserId=voter-7`);
      expect(own.body, "the submission is the submitter's vote").to.deep.equal({ voted: true, voteCount: 1 });
    });

    it('when a link is used a second time, then the page refuses it with 401 and says so, and sets no cookie', async () => {
      const url = pathOf(link({ externalId: 'twice' }));
      expect((await browse(server, url)).status).to.equal(303);
      const again = await browse(server, url);
      expect(again.status).to.equal(401);
      expect(again.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(again.text).to.include('This sign-in link has been used already.');
      expect(again.headers.get('set-cookie')).to.equal(null);
    });

    it('when two links for one user are made in the same second, then each signs in once (issue 37: a jti in every SDK link)', async () => {
      const user = { externalId: 'same-second' };
      const claimsOf = (url: URL) => JSON.parse(Buffer.from(url.searchParams.get('token')!.split('.')[1]!, 'base64url').toString()) as { iat: number; jti: string };
      // Made until two fall in one second (the first try, unless a second ends between them).
      let pair: [URL, URL];
      do pair = [link(user), link(user)];
      while (claimsOf(pair[0]).iat !== claimsOf(pair[1]).iat);
      const [first, second] = pair;
      expect(claimsOf(first).jti).to.match(/^[\w-]{22}$/).and.not.equal(claimsOf(second).jti);
      for (const url of [first, second]) {
        const answer = await browse(server, pathOf(url));
        expect(answer.status, answer.text).to.equal(303);
        cookieOf(answer);
      }
      for (const url of [first, second]) {
        const again = await browse(server, pathOf(url));
        expect(again.status).to.equal(401);
        expect(again.text).to.include('This sign-in link has been used already.');
      }
    });

    it('when a used link comes back with its signature written another way (the same bytes), then it is refused as used', async () => {
      const url = link({ externalId: 'respelled' });
      expect((await browse(server, pathOf(url))).status).to.equal(303);
      const token = url.searchParams.get('token')!;
      // The signature's last base64url character carries 4 bits of data and 2 that decode to nothing.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const respelled = token.slice(0, -1) + alphabet[alphabet.indexOf(token.at(-1)!) ^ 1];
      expect(respelled).not.to.equal(token);
      expect(Buffer.from(respelled.split('.')[2]!, 'base64url')).to.deep.equal(Buffer.from(token.split('.')[2]!, 'base64url'));
      const again = await browse(server, `/b/default/sign-in?token=${respelled}`);
      expect(again.status).to.equal(401);
      expect(again.text).to.include('This sign-in link has been used already.');
    });

    it('when a token is expired, tampered with, for another board, unsigned, without exp or meant to last over 10 minutes, then each is a 401 page that says why', async () => {
      const key = new TextEncoder().encode(secret);
      const now = Math.floor(Date.now() / 1000);
      const signed = (claims: Record<string, unknown>, header: { alg: string } = { alg: 'HS256' }) => new SignJWT(claims).setProtectedHeader(header).sign(key);
      const good = signBoardToken({ project: 'default', secret, user: { externalId: 'mallory' } });
      const [head, body, signature] = good.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), sub: 'someone-else' })).toString('base64url');
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${body}.`;
      const cases: [string, string, string][] = [
        ['expired', await signed({ sub: 'u', aud: 'default', exp: now - 120 }), 'This sign-in link has expired'],
        ['a changed claim', `${head}.${forged}.${signature}`, 'This sign-in link is not valid'],
        // The first character changed: the last one of 43 carries 2 bits that decoding drops, so
        // changing the end could leave the same bytes (a signature ending in "AB" read as "AA").
        ['a changed signature', `${head}.${body}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`, 'This sign-in link is not valid'],
        ['another secret', signBoardToken({ project: 'default', secret: 'bis_not-the-secret', user: { externalId: 'u' } }), 'This sign-in link is not valid'],
        ['another board', signBoardToken({ project: 'other', secret, user: { externalId: 'u' } }), 'This sign-in link is not valid'],
        ['alg none', unsigned, 'This sign-in link is not valid'],
        ['HS512', await new SignJWT({ sub: 'u', aud: 'default', exp: now + 60 }).setProtectedHeader({ alg: 'HS512' }).sign(new TextEncoder().encode(secret.padEnd(64, 'x'))), 'This sign-in link is not valid'],
        ['no exp', await signed({ sub: 'u', aud: 'default' }), 'This sign-in link is not valid'],
        ['no sub', await signed({ aud: 'default', exp: now + 60 }), 'This sign-in link is not valid'],
        ['an hour long', await signed({ sub: 'u', aud: 'default', exp: now + 3600 }), 'This sign-in link is not valid'],
        ['a bad email', await signed({ sub: 'u', aud: 'default', exp: now + 60, email: 'not-an-email' }), 'This sign-in link is not valid'],
        ['not a token', 'hello', 'This sign-in link is not valid'],
      ];
      for (const [what, token, message] of cases) {
        const page = await browse(server, `/b/default/sign-in?token=${encodeURIComponent(token)}`);
        expect(page.status, what).to.equal(401);
        expect(page.text, what).to.include(message);
        expect(page.headers.get('set-cookie'), what).to.equal(null);
      }
      const missing = await browse(server, '/b/default/sign-in');
      expect(missing.status).to.equal(400);
      expect(missing.text).to.include('This sign-in link has no token.');
      const user = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'someone-else' } });
      expect(user.body.user.name, 'no refused token wrote an end user').to.equal(null);
    });

    it('when a token’s iat is an hour ahead (issue 49: accepted), then the link is refused (401) and the widget’s exchange too; issued within the clock tolerance it passes', async () => {
      const key = new TextEncoder().encode(secret);
      const now = Math.floor(Date.now() / 1000);
      const token = (externalId: string, iat: number) => new SignJWT({ sub: externalId, aud: 'default', iat, exp: now + 300, jti: externalId }).setProtectedHeader({ alg: 'HS256' }).sign(key);
      const ahead = await browse(server, `/b/default/sign-in?token=${encodeURIComponent(await token('iat-ahead', now + 3600))}`);
      expect(ahead.status).to.equal(401);
      expect(ahead.text).to.include('This sign-in link is not valid');
      expect(ahead.headers.get('set-cookie')).to.equal(null);
      const minute = await browse(server, `/b/default/sign-in?token=${encodeURIComponent(await token('iat-minute', now + 60))}`);
      expect(minute.status, 'a minute ahead: more than a clock differs by').to.equal(401);
      const skewed = await browse(server, `/b/default/sign-in?token=${encodeURIComponent(await token('iat-skewed', now + 10))}`);
      expect(skewed.status, 'ten seconds ahead: clocks differ so').to.equal(303);

      const host = 'https://iat.example.com';
      await setWidget(server.server.orm.em.fork(), 'default', true, [host]);
      await until(async () => (await fetch(`${server.url}/w/default?origin=${encodeURIComponent(host)}`)).status === 200);
      const exchange = async (jwt: string) =>
        fetch(`${server.url}/w/default/session`, { method: 'POST', body: new URLSearchParams({ origin: host, token: jwt }), headers: { 'sec-fetch-site': 'same-origin' } });
      const panelAhead = await exchange(await token('iat-panel-ahead', now + 3600));
      expect(panelAhead.status).to.equal(401);
      expect(await panelAhead.json()).to.deep.equal({ error: 'This sign-in link is not valid. Go back to the app that sent you here and open the board again.' });
      expect((await exchange(await token('iat-panel-now', now))).status).to.equal(200);
      const users = await server.sql<{ external_id: string }>("select external_id from end_users where external_id like 'iat-%' order by external_id");
      expect(users.map((user) => user.external_id), 'no refused token wrote an end user').to.deep.equal(['iat-panel-now', 'iat-skewed']);
    });

    it('when a token’s avatarUrl holds quotes or angle brackets (issue 49: stored verbatim), then the link is refused (401) and no end user is written', async () => {
      const now = Math.floor(Date.now() / 1000);
      const jwt = await new SignJWT({ sub: 'avatar-token', aud: 'default', exp: now + 60, avatarUrl: 'https://example.com/a.png"><img src=x onerror=alert(1)>' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(secret));
      const page = await browse(server, `/b/default/sign-in?token=${encodeURIComponent(jwt)}`);
      expect(page.status).to.equal(401);
      expect(page.text).to.include('This sign-in link is not valid');
      expect(await server.sql("select 1 from end_users where external_id = 'avatar-token'")).to.deep.equal([]);
    });

    it('when a link names a page of another site to land on, then the visitor lands on the board instead', async () => {
      const answer = await browse(server, pathOf(link({ externalId: 'lands' }, { returnTo: 'https://evil.example/b/default' })));
      expect(answer.status).to.equal(303);
      expect(answer.headers.get('location')).to.equal('/b/default');
    });

    it('when a visitor signs out, then the cookie is cleared; a cookie changed by hand is anonymous', async () => {
      const cookie = await signIn({ externalId: 'leaving', name: 'Leaving' });
      const out = await browse(server, '/b/default/sign-out', { method: 'POST', form: {}, cookie });
      expect(out.status).to.equal(303);
      expect(out.headers.get('set-cookie')).to.match(/^feedback_visitor=;.*expires=Thu, 01 Jan 1970/i);
      const [name, value] = cookie.split('=');
      const [payload, signature] = value!.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const changed = `${name}=${Buffer.from(JSON.stringify({ ...claims, x: 'voter-7' })).toString('base64url')}.${signature}`;
      expect((await browse(server, '/b/default', { cookie: changed })).text).not.to.include('Signed in as');
      // Its signature written another way (the last character's dropped bits changed: the same
      // bytes once decoded) is a text the board never issued, and is anonymous too.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const respelled = `${name}=${payload}.${signature!.slice(0, -1)}${alphabet[alphabet.indexOf(signature!.at(-1)!) ^ 1]}`;
      expect(Buffer.from(respelled.split('.')[1]!, 'base64url')).to.deep.equal(Buffer.from(signature!, 'base64url'));
      expect((await browse(server, '/b/default', { cookie })).text).to.include('Signed in as');
      expect((await browse(server, '/b/default', { cookie: respelled })).text).not.to.include('Signed in as');
    });

    it('when the identity secret is rotated, then sessions and links made with the old one are anonymous and refused', async () => {
      const old = secret;
      const cookie = await signIn({ externalId: 'rotated', name: 'Rotated' });
      const oldLink = pathOf(link({ externalId: 'rotated' }));
      expect((await browse(server, '/b/default', { cookie })).text).to.include('Signed in as');
      secret = await rotate();
      expect(secret).not.to.equal(old);
      expect((await browse(server, '/b/default', { cookie })).text).not.to.include('Signed in as');
      expect((await browse(server, oldLink)).status).to.equal(401);
    });

    it('when the board has no identity secret, then a link is refused with a page that says the board takes none', async () => {
      await server.newKey('plain');
      expect((await inProcess(['board', 'on', '--project', 'plain', ...locationOf(server)])).code).to.equal(0);
      await server.boardSettingsSeen();
      const page = await browse(server, pathOf(link({ externalId: 'u' }, { project: 'plain' })));
      expect(page.status).to.equal(401);
      expect(page.text).to.include('This board does not take sign-in links.');
    });

    it('when `feedback board embed` allows an origin, then the CSP lets that origin frame the board and no other, a wildcard or a non-origin is refused (issue 37), and --none refuses every frame again', async () => {
      const where = ['--project', 'default', ...locationOf(server)];
      const bad = await inProcess(['board', 'embed', '--origin', "https://app.example.com; script-src *", ...where]);
      expect(bad.code, 'not an origin').to.equal(2);
      const allowed = await inProcess(['board', 'embed', '--origin', 'https://app.example.com', 'http://localhost:8080', '--json', ...where]);
      expect(allowed.code, allowed.stderr).to.equal(0);
      expect(JSON.parse(allowed.stdout).frameOrigins).to.deep.equal(['https://app.example.com', 'http://localhost:8080']);
      await server.boardSettingsSeen();
      const framed = await browse(server, '/b/default');
      expect(framed.headers.get('content-security-policy')).to.include('frame-ancestors https://app.example.com http://localhost:8080;');
      // Issue 37: wildcards and anything that is not one exact origin are refused, and change nothing.
      for (const refused of ['https://*', 'http://*', 'https://*.com', 'https://*.example.com', '*', "'self'", 'https:', 'https://app.example.com/path', 'https://user@app.example.com', 'ftp://app.example.com', 'app.example.com']) {
        const wildcard = await inProcess(['board', 'embed', '--origin', 'https://ok.example.com', refused, ...where]);
        expect(wildcard.code, refused).to.equal(2);
        expect(wildcard.stderr, refused).to.include(`"${refused}" is not an origin`).and.include('no wildcard');
      }
      const [row] = await server.sql<{ origins: string[] }>("select board_frame_origins as origins from projects where slug = 'default'");
      expect(row!.origins, 'a refused command changed nothing').to.deep.equal(['https://app.example.com', 'http://localhost:8080']);
      // A row that holds a wildcard all the same (an older version took one, or a hand's update) never reaches the header.
      await server.sql("update projects set board_frame_origins = '{https://*,https://app.example.com}' where slug = 'default'");
      await server.boardSettingsSeen();
      expect((await browse(server, '/b/default')).headers.get('content-security-policy')).to.include('frame-ancestors https://app.example.com;');
      await server.sql("update projects set board_frame_origins = '{https://*}' where slug = 'default'");
      await server.boardSettingsSeen();
      expect((await browse(server, '/b/default')).headers.get('content-security-policy')).to.include("frame-ancestors 'none';");
      const none = await inProcess(['board', 'embed', '--none', ...where]);
      expect(none.code, none.stderr).to.equal(0);
      expect(none.stdout).to.include('may not be framed');
      await server.boardSettingsSeen();
      expect((await browse(server, '/b/default')).headers.get('content-security-policy')).to.include("frame-ancestors 'none';");
    });
  });
}
