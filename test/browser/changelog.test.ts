import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot, watchedContext } from '../helpers/browser.js';
import { request, withServer } from '../helpers/test-server.js';

/** The board's changelog and an item's "Shipped in" in headless Chromium (docs/board.md, docs/changelog.md). */

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

const BODY = `## What is new

Every list now has an **Export** button, and [the guide](https://example.com/guide) explains it.

- CSV with the comments of each item
- Works on a phone too

\`\`\`
feedback export --project default > dump.jsonl
\`\`\`

<script>alert("no")</script> [not a link](javascript:alert(1))`;

const backend = oneBackend();

describe(`changelog in a browser (${backend.name})`, function () {
  // First, so that without Chromium the suite is skipped before its server starts.
  const chrome = browserSuite();
  const server = withServer(backend);
  let item: string;
  let entry: string;

  before(async () => {
    const secret = await server.newKey(undefined, 'secret');
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Export the board to CSV with the comments of each item', type: 'idea' } });
    item = created.body.feedback.id;
    const other = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Dark theme' } })).body.feedback.id;
    const older = await request(server, 'POST', '/api/v1/changelog', { apiKey: secret, body: { title: 'Dark theme', body: 'Easier on the eyes at night.', links: [other], publishAt: '2026-11-01T09:00:00.000Z' } });
    expect(older.status).to.equal(201);
    const published = await request(server, 'POST', '/api/v1/changelog', { apiKey: secret, body: { title: 'CSV export', body: BODY, links: [item], publish: true, complete: true } });
    expect(published.status).to.equal(201);
    entry = published.body.entry.id;
  });

  /** What the page draws past the viewport's width: 0 when nothing makes it scroll sideways. */
  async function overflow(page: Page): Promise<number> {
    return (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
  }

  it('when the changelog is read at 1280x800 and 390x844, then it lists the entries newest first with their rendered bodies and items, runs no script of a writer, fits the width and passes axe', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await chrome.watched.newPage();
      await page.setViewportSize(viewport);
      expect((await page.goto(`${server.url}/b/default/changelog`))?.status()).to.equal(200);
      expect(await page.locator('article.changelog-entry h2').allTextContents()).to.deep.equal(['CSV export', 'Dark theme']);
      const first = page.locator(`#entry-${entry}`);
      expect(await first.locator('.entry-body strong').textContent()).to.equal('Export');
      expect(await first.locator('.entry-body a').getAttribute('rel')).to.equal('nofollow noopener');
      expect(await first.locator('.entry-body script').count()).to.equal(0);
      expect(await first.locator('.entry-body').textContent()).to.include('<script>alert("no")</script>');
      expect(await first.locator(`.entry-items a[href="/b/default/items/${item}"]`).count()).to.equal(1);
      expect(await page.locator('nav.site-nav a[aria-current="page"]').textContent()).to.equal('Changelog');
      expect(await page.locator('link[rel="alternate"][type="application/atom+xml"]').getAttribute('href')).to.equal('/b/default/changelog.atom');
      expect(await overflow(page), `${viewport.width} px wide`).to.equal(0);
      await expectAccessible(page);
      await screenshot(page, `changelog-${viewport.width}`);
      await page.close();
    }
  });

  it('when an item shipped in an entry is read, then its page says "Shipped in" with a link that lands on the entry, and passes axe', async () => {
    const page = await chrome.watched.newPage();
    await page.setViewportSize(VIEWPORTS[0]!);
    await page.goto(`${server.url}/b/default/items/${item}`);
    const shipped = page.locator('p.shipped-in');
    expect((await shipped.textContent())?.trim()).to.equal('Shipped in CSV export');
    await expectAccessible(page);
    await shipped.locator('a').click();
    expect(new URL(page.url()).hash).to.equal(`#entry-${entry}`);
    expect(await page.locator(`#entry-${entry} h2`).isVisible()).to.equal(true);
    await page.close();
  });

  it('when Chromium asks for Arabic, then the changelog is right to left in Arabic, fits the width and passes axe', async () => {
    const arabic = await watchedContext(chrome.browser, { locale: 'ar-EG' });
    try {
      const page = await arabic.newPage();
      await page.setViewportSize(VIEWPORTS[0]!);
      await page.goto(`${server.url}/b/default/changelog`);
      expect(await page.evaluate('[document.documentElement.lang, document.documentElement.dir]')).to.deep.equal(['ar', 'rtl']);
      expect(await page.locator('h1').textContent()).to.equal('سجل التغييرات');
      expect(await overflow(page)).to.equal(0);
      await expectAccessible(page);
      await screenshot(page, 'changelog-ar-1280');
      expect(arabic.errors, 'console errors').to.deep.equal([]);
    } finally {
      await arabic.close();
    }
  });
});

describe(`changelog feed in a browser's XML parser (${backend.name})`, function () {
  const chrome = browserSuite();
  const server = withServer(backend);

  it("when a published entry holds characters XML 1.0 forbids (issue 49: U+0001 or U+FFFE made the whole feed invalid), then Chromium's XML parser reads the board's Atom feed without an error, the characters left out", async () => {
    const secret = await server.newKey(undefined, 'secret');
    const made = await request(server, 'POST', '/api/v1/changelog', { apiKey: secret, body: { title: 'Pasted\u0001 controls\ufffe', body: 'A body\u0001 with\u000b controls\uffff.', publish: true } });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    // As stored: the API keeps the text as written; only the feed, which XML constrains, leaves them out.
    expect(made.body.entry.title).to.equal('Pasted\u0001 controls\ufffe');
    const page = await chrome.watched.newPage();
    expect((await page.goto(`${server.url}/b/default/changelog`))?.status()).to.equal(200);
    // Chromium's parser (libxml2) is a strict XML 1.0 reader: one forbidden character is a <parsererror>.
    const read = (await page.evaluate(`(async () => {
      const text = await (await fetch('/b/default/changelog.atom')).text();
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return { error: doc.querySelector('parsererror')?.textContent ?? null, titles: [...doc.querySelectorAll('entry > title')].map((node) => node.textContent), content: doc.querySelector('entry > content')?.textContent ?? '' };
    })()`)) as { error: string | null; titles: string[]; content: string };
    expect(read.error).to.equal(null);
    expect(read.titles).to.deep.equal(['Pasted controls']);
    expect(read.content).to.include('A body with controls.');
    await page.close();
  });
});
