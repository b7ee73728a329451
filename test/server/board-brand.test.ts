import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { get } from 'node:http';
import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { HOSTILE_SVG, png } from '../helpers/images.js';
import { locationOf, request, withServer, SHORT_BOARD_PROJECT_CACHE_TTL_MS } from '../helpers/test-server.js';

/** A board's brand (docs/board.md): set and cleared by PATCH /api/v1/board and `feedback board brand`, shown in the pages' head and header. */

const DEFAULT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

async function page(server: { url: string }, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + path, { headers: { accept: 'text/html', ...headers } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The content of `<meta {attribute}="{name}" content="...">`, or undefined. */
function meta(text: string, attribute: 'name' | 'property', name: string): string | undefined {
  return new RegExp(`<meta ${attribute}="${name}" content="([^"]*)">`).exec(text)?.[1];
}

for (const backend of backends()) {
  describe(`board brand (${backend.name})`, () => {
    const server = withServer(backend, { boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });
    let secret: string;
    let dir: string;

    before(async () => {
      secret = await server.newKey(undefined, 'secret');
      dir = mkdtempSync(join(tmpdir(), 'brand-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    const patch = (body: unknown, apiKey = secret) => request(server, 'PATCH', '/api/v1/board', { apiKey, body });

    it('when the brand is set through the API, then the pages carry the name, description, logo, accent and order, the logo is served with a year of cache and its ETag; cleared, all of it goes', async () => {
      const logo = png(96, 32);
      const set = await patch({ name: 'Acme Rockets', description: 'Tell us what to build next & why', accent: '#0a6640', defaultSort: 'votes', logo: logo.toString('base64') });
      expect(set.status, JSON.stringify(set.body)).to.equal(200);
      const hash = createHash('sha256').update(logo).digest('base64url').slice(0, 22);
      expect(set.body).to.deep.include({ project: 'default', name: 'Acme Rockets', description: 'Tell us what to build next & why', accent: '#0a6640', defaultSort: 'votes' });
      expect(set.body.logo).to.deep.equal({ path: `/b/default/logo/${hash}`, type: 'image/png', width: 96, height: 32 });
      expect(set.body.darkAccent).to.match(/^#[0-9a-f]{6}$/).and.not.equal('#0a6640');
      expect((await request(server, 'GET', '/api/v1/board', { apiKey: secret })).body).to.deep.equal(set.body);

      await server.boardSettingsSeen();
      const board = await page(server, '/b/default');
      expect(board.status).to.equal(200);
      expect(board.text).to.match(/<title>&#x2068;Feedback&#x2069; &ndash; &#x2068;Acme Rockets&#x2069;<\/title>/);
      // Each text isolated (U+2068 … U+2069) as in the <title>.
      expect(meta(board.text, 'name', 'description')).to.equal('&#x2068;Tell us what to build next &amp; why&#x2069;');
      expect(meta(board.text, 'property', 'og:site_name')).to.equal('&#x2068;Acme Rockets&#x2069;');
      expect(meta(board.text, 'property', 'og:title')).to.equal('&#x2068;Feedback&#x2069; &ndash; &#x2068;Acme Rockets&#x2069;');
      expect(meta(board.text, 'property', 'og:description')).to.equal('&#x2068;Tell us what to build next &amp; why&#x2069;');
      expect(meta(board.text, 'property', 'og:url')).to.equal(`${server.url}/b/default`);
      expect(meta(board.text, 'property', 'og:image')).to.equal(`${server.url}/b/default/logo/${hash}`);
      expect(board.text).to.include(`<a class="brand" href="/b/default"><img src="/b/default/logo/${hash}" alt="" width="96" height="32"><bdi>Acme Rockets</bdi></a><p class="tagline"><bdi>Tell us what to build next &amp; why</bdi></p>`);
      expect(board.text, 'the default order is chosen in the form').to.include('<option value="votes" selected>');
      // The accent's one inline stylesheet, allowed by its hash alone.
      const style = /<style>([^<]*)<\/style>/.exec(board.text)![1]!;
      expect(style).to.include('--accent:#0a6640');
      const styleHash = createHash('sha256').update(style).digest('base64');
      expect(board.headers.get('content-security-policy')).to.equal(DEFAULT_CSP.replace("style-src 'self'", `style-src 'self' 'sha256-${styleHash}'`));
      const item = await page(server, '/b/default/new');
      expect(meta(item.text, 'property', 'og:url')).to.equal(`${server.url}/b/default/new`);

      const image = await fetch(`${server.url}/b/default/logo/${hash}`);
      expect(image.status).to.equal(200);
      expect(image.headers.get('content-type')).to.equal('image/png');
      expect(image.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect(image.headers.get('etag')).to.equal(`"${hash}"`);
      expect(Buffer.from(await image.arrayBuffer()).equals(logo)).to.equal(true);
      // node:http, since fetch turns a conditional request into one with Cache-Control: no-cache.
      const again = await new Promise<number>((resolve, reject) => {
        get(`${server.url}/b/default/logo/${hash}`, { headers: { 'if-none-match': `"${hash}"` } }, (response) => {
          response.resume();
          resolve(response.statusCode!);
        }).on('error', reject);
      });
      expect(again, 'a browser that has it is told so').to.equal(304);
      expect((await page(server, '/b/default/logo/AAAAAAAAAAAAAAAAAAAAAA')).status, 'another hash is no logo').to.equal(404);

      const cleared = await patch({ description: null, accent: null, defaultSort: null, logo: null });
      expect(cleared.status).to.equal(200);
      expect(cleared.body).to.deep.include({ name: 'Acme Rockets', description: null, accent: null, darkAccent: null, defaultSort: null, logo: null });
      await server.boardSettingsSeen();
      const plain = await page(server, '/b/default');
      expect(plain.text).not.to.match(/<style|<img|og:image/);
      expect(plain.headers.get('content-security-policy')).to.equal(DEFAULT_CSP);
      expect(meta(plain.text, 'name', 'description'), 'every page has a meta description').to.equal('&#x2068;Share feedback on &#x2068;Acme Rockets&#x2069;, vote on ideas and follow the roadmap.&#x2069;');
      expect(plain.text).to.include('<option value="newest" selected>');
      expect((await page(server, `/b/default/logo/${hash}`)).status, 'the old logo is gone').to.equal(404);
    });

    it('when the API is sent an SVG, a file that is no image, an oversized PNG or an accent below 4.5:1, then it answers 400 naming the field (the ratio for the accent) and changes nothing', async () => {
      const before = (await request(server, 'GET', '/api/v1/board', { apiKey: secret })).body;
      const svg = await patch({ name: 'Changed?', logo: HOSTILE_SVG.toString('base64') });
      expect(svg.status).to.equal(400);
      expect(svg.body.details.fieldErrors.logo[0]).to.include('SVG logos are refused');
      const text = await patch({ logo: Buffer.from('hello').toString('base64') });
      expect(text.body.details.fieldErrors.logo[0]).to.include('not a PNG, JPEG, WebP or GIF');
      const big = await patch({ logo: png(1, 1, [0, 0, 0], 300 * 1024).toString('base64') });
      expect(big.status).to.equal(400);
      expect(big.body.details.fieldErrors.logo[0]).to.match(/the logo is 30\d KB; at most 256 KB/);
      const pale = await patch({ accent: '#0a7' });
      expect(pale.status).to.equal(400);
      const message = pale.body.details.fieldErrors.accent[0] as string;
      expect(message).to.match(/the accent #00aa77 has a contrast of 2\.\d\d:1 against/);
      const suggested = /try the darker (#[0-9a-f]{6})/.exec(message)![1];
      expect((await patch({ accent: 'teal' })).body.details.fieldErrors.accent[0]).to.include('#rgb or #rrggbb');
      expect((await patch({})).body.details.formErrors[0]).to.include('Give at least one of');
      expect((await request(server, 'GET', '/api/v1/board', { apiKey: secret })).body, 'nothing changed').to.deep.equal(before);
      expect((await patch({ accent: suggested })).body.accent, 'the suggested colour is taken').to.equal(suggested);
      expect((await patch({ name: 'x' }, server.apiKey)).status, 'a public key may not').to.equal(403);
    });

    it('when `feedback board brand` sets and clears the brand on the database, then a PNG named .jpg is taken by its bytes, and an SVG, a large file or a pale accent exit 2 with the reason', async () => {
      const named = join(dir, 'logo.jpg');
      writeFileSync(named, png(40, 40));
      const set = await inProcess(['board', 'brand', '--name', 'Orbit', '--description', 'Ideas for Orbit', '--logo', named, '--accent', '#0b5cad', '--default-sort', 'comments', '--json', ...locationOf(server)]);
      expect(set.code, set.stderr).to.equal(0);
      const setting = JSON.parse(set.stdout);
      expect(setting).to.deep.include({ name: 'Orbit', description: 'Ideas for Orbit', accent: '#0b5cad', defaultSort: 'comments' });
      expect(setting.logo).to.include({ type: 'image/png', width: 40, height: 40 });
      expect((await request(server, 'GET', '/api/v1/board', { apiKey: secret })).body, 'the API reads what the CLI set').to.deep.equal(setting);

      const svgFile = join(dir, 'logo.png');
      writeFileSync(svgFile, HOSTILE_SVG);
      const svg = await inProcess(['board', 'brand', '--logo', svgFile, ...locationOf(server)]);
      expect(svg.code).to.equal(2);
      expect(svg.stderr).to.include('--logo: SVG logos are refused');
      const bigFile = join(dir, 'big.png');
      writeFileSync(bigFile, png(1, 1, [0, 0, 0], 257 * 1024));
      const big = await inProcess(['board', 'brand', '--logo', bigFile, ...locationOf(server)]);
      expect(big.code).to.equal(2);
      expect(big.stderr).to.include('at most 256 KB');
      const pale = await inProcess(['board', 'brand', '--accent', '#7fd1ae', ...locationOf(server)]);
      expect(pale.code).to.equal(2);
      expect(pale.stderr).to.match(/--accent: the accent #7fd1ae has a contrast of 1\.\d\d:1 .* try the darker #[0-9a-f]{6}/);
      const nothing = await inProcess(['board', 'brand', ...locationOf(server)]);
      expect(nothing.code).to.equal(2);
      expect((await inProcess(['board', 'brand', '--default-sort', 'best', ...locationOf(server)])).code).to.equal(2);

      const cleared = await inProcess(['board', 'brand', '--no-description', '--no-logo', '--no-accent', '--no-default-sort', ...locationOf(server)]);
      expect(cleared.code, cleared.stderr).to.equal(0);
      expect(cleared.stdout.trim()).to.equal('the board of default: "Orbit", sorted by newest');
      expect((await request(server, 'GET', '/api/v1/board', { apiKey: secret })).body).to.deep.include({ name: 'Orbit', description: null, accent: null, logo: null, defaultSort: null });
    });
  });
}
