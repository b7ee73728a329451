import { expect } from 'chai';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible } from '../helpers/browser.js';
import { png } from '../helpers/images.js';
import { request, withServer, SHORT_BOARD_PROJECT_CACHE_TTL_MS } from '../helpers/test-server.js';

/** A branded board in headless Chromium (docs/board.md, "Brand"): the logo drawn, the accent in both themes, axe content. */
const backend = oneBackend();

describe(`branded board in a browser (${backend.name})`, function () {
  const chrome = browserSuite();
  const server = withServer(backend, { boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });

  it('when the board has a logo and an accent, then Chromium draws the logo, the inline accent passes the CSP in both themes with the dark one lighter, and axe finds nothing serious', async () => {
    const secret = await server.newKey(undefined, 'secret');
    const set = await request(server, 'PATCH', '/api/v1/board', {
      apiKey: secret,
      body: { name: 'Acme Rockets', description: 'Tell us what to build next', accent: '#0a6640', logo: png(120, 40, [10, 102, 64]).toString('base64') },
    });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    await server.boardSettingsSeen();

    const page = await chrome.watched.newPage();
    for (const [scheme, accent] of [['light', '#0a6640'], ['dark', set.body.darkAccent as string]] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const response = await page.goto(`${server.url}/b/default`);
      expect(response?.status()).to.equal(200);
      expect(await page.title()).to.equal('\u2068Feedback\u2069 \u2013 \u2068Acme Rockets\u2069');
      await page.locator('.brand img').waitFor();
      // Decoded and drawn: a blocked or broken image has no natural size.
      expect(await page.evaluate(`(() => { const img = document.querySelector('.brand img'); return img.complete && img.naturalWidth; })()`)).to.equal(120);
      expect(await page.locator('.tagline').textContent()).to.equal('Tell us what to build next');
      const colour = await page.evaluate(`getComputedStyle(document.querySelector('.site-nav a:not([aria-current])')).color`);
      expect(colour, scheme).to.equal(rgb(accent));
      await expectAccessible(page);
    }
  });
});

/** `#rrggbb` as getComputedStyle writes it. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
