import { expect } from 'chai';
import { BOARD_LOCALES } from '@feedbackd/sdk/contract';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { locationOf, request, withServer, SHORT_BOARD_PROJECT_CACHE_TTL_MS } from '../helpers/test-server.js';

/** The pages' language (docs/board.md, "Languages"): the switcher's cookie, then Accept-Language, then the board's default, then English. */

async function browse(server: { url: string }, path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
  let body: string | undefined;
  if (init.form) {
    body = new URLSearchParams(init.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if ((init.method ?? 'GET') === 'POST') headers.origin ??= server.url;
  const response = await fetch(server.url + path, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A page of a board that is refused (404) after the board is known: its refusal has the board's switcher and default language. */
const MISSING = '/b/default/items/0190f1a2-3b4c-7d5e-8f60-718293a4b5c6';

/** The `<html>` element's language and direction. */
function htmlTag(text: string): string {
  return /<html[^>]*>/.exec(text)?.[0] ?? '';
}

for (const backend of backends()) {
  describe(`board and team languages (${backend.name})`, () => {
    const server = withServer(backend, { boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });
    let secret: string;
    before(async () => {
      secret = await server.newKey(undefined, 'secret');
    });

    it('when a browser asks in Arabic (or Portuguese of Portugal), then a refusal page is in that language (Arabic right to left), says Vary, and keeps the reason in English', async () => {
      const arabic = await browse(server, '/b/default/nowhere', { headers: { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.5' } });
      expect(arabic.status).to.equal(404);
      expect(htmlTag(arabic.text)).to.equal('<html lang="ar" dir="rtl">');
      expect(arabic.text).to.include('<h1>الصفحة غير موجودة</h1>');
      expect(arabic.text).to.include('<p lang="en" dir="ltr">There is no page at this address.</p>');
      expect(arabic.text, 'no board known: no switcher').not.to.include('language-switcher');
      expect(arabic.headers.get('vary')).to.include('Accept-Language').and.include('Cookie');
      const portuguese = await browse(server, '/b/default/nowhere', { headers: { 'accept-language': 'pt-PT, en;q=0.1' } });
      expect(htmlTag(portuguese.text)).to.equal('<html lang="pt-BR" dir="ltr">');
      const unknown = await browse(server, '/b/default/nowhere', { headers: { 'accept-language': 'sv, *;q=0.1' } });
      expect(htmlTag(unknown.text), 'nothing we have: English').to.equal('<html lang="en" dir="ltr">');
      expect(unknown.text).to.include('<h1>Page not found</h1>');
    });

    it('when the switcher posts a language, then a year-long cookie is set, the browser goes back to the page, and that page is in the chosen language whatever the browser asks', async () => {
      const chosen = await browse(server, '/b/default/locale', { method: 'POST', form: { locale: 'fr', return: `${MISSING}?x=1` } });
      expect(chosen.status).to.equal(303);
      expect(chosen.headers.get('location')).to.equal(`${MISSING}?x=1`);
      const cookie = chosen.headers.get('set-cookie') ?? '';
      expect(cookie).to.match(/^feedback_locale=fr; path=\/; expires=[^;]+; samesite=lax; httponly$/);
      const expires = Date.parse(/expires=([^;]+)/.exec(cookie)![1]!);
      expect(expires - Date.now()).to.be.greaterThan(360 * 24 * 3600 * 1000);
      const next = await browse(server, `${MISSING}?x=1`, { headers: { cookie: 'feedback_locale=fr', 'accept-language': 'de' } });
      expect(htmlTag(next.text)).to.equal('<html lang="fr" dir="ltr">');
      expect(next.text).to.include('<h1>Page introuvable</h1>');
      expect(next.text).to.include('<form class="language-switcher" method="post" action="/b/default/locale" data-language-switcher>');
      expect(next.text).to.include(`<input type="hidden" name="return" value="${MISSING}?x=1">`);
      expect(next.text).to.include('<option value="fr" lang="fr" selected>Français</option>');
      // A cookie that names no language of ours is no choice.
      const stale = await browse(server, '/b/default/nowhere', { headers: { cookie: 'feedback_locale=xx', 'accept-language': 'de' } });
      expect(htmlTag(stale.text)).to.equal('<html lang="de" dir="ltr">');
    });

    it('when the switcher is sent from another site, with an unknown language, or with a return path off the board, then it is refused or sent to the board itself', async () => {
      const forged = await browse(server, '/b/default/locale', { method: 'POST', headers: { origin: 'https://evil.example' }, form: { locale: 'fr', return: '/b/default' } });
      expect(forged.status).to.equal(403);
      expect(forged.headers.get('set-cookie')).to.equal(null);
      const unknown = await browse(server, '/b/default/locale', { method: 'POST', form: { locale: 'xx', return: '/b/default' } });
      expect(unknown.status).to.equal(400);
      expect(unknown.text).to.include(`Choose one of the languages offered: ${BOARD_LOCALES.join(', ')}.`);
      expect(unknown.headers.get('set-cookie')).to.equal(null);
      for (const away of ['//evil.example/', 'https://evil.example/', '/team', '/b/other', '/b/default/../../team']) {
        const sent = await browse(server, '/b/default/locale', { method: 'POST', form: { locale: 'de', return: away } });
        expect(sent.status, away).to.equal(303);
        expect(sent.headers.get('location'), away).to.equal('/b/default');
      }
    });

    it("when the team's switcher posts a language, then the sign-in page is in it, and its return path stays under /team", async () => {
      const chosen = await browse(server, '/team/locale', { method: 'POST', form: { locale: 'de', return: '/team/sign-in' } });
      expect(chosen.status).to.equal(303);
      expect(chosen.headers.get('location')).to.equal('/team/sign-in');
      expect(chosen.headers.get('set-cookie')).to.match(/^feedback_locale=de; path=\//);
      const signIn = await browse(server, '/team/sign-in', { headers: { cookie: 'feedback_locale=de' } });
      expect(htmlTag(signIn.text)).to.equal('<html lang="de" dir="ltr">');
      expect(signIn.text).to.include('<h1>Zur Sichtung anmelden</h1>');
      expect(signIn.text).to.include('<form class="language-switcher" method="post" action="/team/locale" data-language-switcher>');
      const away = await browse(server, '/team/locale', { method: 'POST', form: { locale: 'de', return: '/b/default' } });
      expect(away.headers.get('location')).to.equal('/team');
    });

    it('when the board has a default language (API and CLI), then a browser that asks for none of ours gets it, one that asks for another gets its own; an unknown default is a 400 listing ours', async () => {
      const set = await request(server, 'PATCH', '/api/v1/board', { apiKey: secret, body: { locale: 'ja' } });
      expect(set.status, JSON.stringify(set.body)).to.equal(200);
      expect(set.body.locale).to.equal('ja');
      expect((await request(server, 'GET', '/api/v1/board', { apiKey: secret })).body.locale).to.equal('ja');
      await server.boardSettingsSeen();
      expect(htmlTag((await browse(server, MISSING, { headers: { 'accept-language': 'sv' } })).text)).to.equal('<html lang="ja" dir="ltr">');
      expect(htmlTag((await browse(server, MISSING, { headers: { 'accept-language': 'es-MX' } })).text)).to.equal('<html lang="es" dir="ltr">');

      const refused = await request(server, 'PATCH', '/api/v1/board', { apiKey: secret, body: { locale: 'klingon' } });
      expect(refused.status).to.equal(400);
      expect(JSON.stringify(refused.body)).to.include(`locale must be one of the supported languages: ${BOARD_LOCALES.join(', ')}`);

      const cli = await inProcess(['board', 'brand', '--locale', 'ar', '--json', ...locationOf(server)]);
      expect(cli.code, cli.stderr).to.equal(0);
      expect(JSON.parse(cli.stdout).locale).to.equal('ar');
      const bad = await inProcess(['board', 'brand', '--locale', 'xx', ...locationOf(server)]);
      expect(bad.code).to.equal(2);
      expect(bad.stderr).to.include(BOARD_LOCALES.join(', '));
      const cleared = await inProcess(['board', 'brand', '--no-locale', '--json', ...locationOf(server)]);
      expect(cleared.code, cleared.stderr).to.equal(0);
      expect(JSON.parse(cleared.stdout).locale).to.equal(null);
    });
  });
}
