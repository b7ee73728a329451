import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot } from '../helpers/browser.js';
import { request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** The roadmap and a column's own pages in headless Chromium (docs/board.md), on a phone's width and a desktop's. */

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Titles of every length a roadmap holds, the long ones to see that a narrow column wraps them. */
const TITLES = [
  'Dark theme',
  'Export the board to CSV with the comments of each item',
  'Single sign-on with SAML for teams on the business plan, so that nobody needs another password',
  'Keyboard shortcuts',
  'Webhooks for status changes',
];

const backend = oneBackend();

describe(`roadmap in a browser (${backend.name})`, function () {
  // First, so that without Chromium the suite is skipped before its server starts.
  const chrome = browserSuite();
  const server = withServer(backend);
  const planned: string[] = [];

  before(async () => {
    const secret = await server.newKey(undefined, 'secret');
    const make = async (title: string, status: string) => {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, type: 'idea', endUser: { externalId: 'roadmap-browser' } } });
      expect(created.status).to.equal(201);
      const id = created.body.feedback.id as string;
      expect((await request(server, 'PATCH', `/api/v1/feedback/${id}`, { apiKey: secret, body: { status } })).status).to.equal(200);
      return id;
    };
    for (let i = 0; i < 25; i++) planned.push(await make(`${TITLES[i % TITLES.length]} (${i + 1})`, 'planned'));
    for (let i = 0; i < 3; i++) await make(TITLES[i]!, 'in-progress');
  });

  /** What the page draws past the viewport's width: 0 when nothing makes it scroll sideways. */
  async function overflow(page: Page): Promise<number> {
    return (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
  }

  it('when the roadmap is read at 1280x800 and 390x844, then a column shows at most 10 cards without their status, links to its own pages, fits the width and passes axe', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await chrome.watched.newPage();
      await page.setViewportSize(viewport);
      const response = await page.goto(`${server.url}/b/default/roadmap`);
      expect(response?.status()).to.equal(200);
      const column = page.locator('section.column[aria-labelledby="column-planned"]');
      expect(await column.locator('li.item').count()).to.equal(10);
      expect(await page.locator('section.column[aria-labelledby="column-in-progress"] li.item').count()).to.equal(3);
      expect(await page.locator('.meta .tag').allTextContents(), 'a card shows its type, never its status').to.satisfy((tags: string[]) => tags.every((tag) => tag.trim() === 'Type: Idea'));
      expect((await column.locator('.column-more a').textContent())?.trim()).to.equal('Show all 25 in this column');
      expect(await overflow(page), `${viewport.width} px wide`).to.equal(0);
      await expectAccessible(page);
      await screenshot(page, `roadmap-${viewport.width}`);
      await page.close();
    }
  });

  it('when a visitor follows a column\'s link and its page numbers, then each page lists the column by votes, and a vote there comes back to that page', async () => {
    const page = await chrome.watched.newPage();
    await page.setViewportSize(VIEWPORTS[0]!);
    await page.goto(`${server.url}/b/default/roadmap`);
    await page.click('section.column[aria-labelledby="column-planned"] .column-more a');
    expect(new URL(page.url()).pathname).to.equal('/b/default/roadmap/planned');
    expect(await page.locator('h1').textContent()).to.equal('Planned');
    expect(await page.locator('li.item').count()).to.equal(20);
    expect(await page.locator('.pagination a[aria-current="page"]').textContent()).to.equal('1');
    expect(await page.locator('.pagination a[aria-label]').count(), 'pages 1 and 2').to.equal(2);
    expect(await page.locator('.meta .tag', { hasText: 'Planned' }).count(), 'no row repeats the status').to.equal(0);
    await expectAccessible(page);
    await screenshot(page, 'roadmap-column-1280');

    await page.click('.pagination a[aria-label="Page 2"]');
    expect(new URL(page.url()).searchParams.get('page')).to.equal('2');
    expect(await page.locator('a[aria-current="page"][aria-label="Page 2"]').count()).to.equal(1);
    const rows = page.locator('li.item');
    expect(await rows.count()).to.equal(5);
    await expectAccessible(page);
    await page.setViewportSize(VIEWPORTS[1]!);
    expect(await overflow(page), 'the page numbers wrap on a phone').to.equal(0);
    await expectAccessible(page);
    await screenshot(page, 'roadmap-column-390');

    // The script votes in place; the page stays the one the visitor was on.
    const button = rows.first().locator('button.vote-button');
    await button.click();
    await until(async () => (await button.getAttribute('aria-pressed')) === 'true');
    expect(new URL(page.url()).searchParams.get('page')).to.equal('2');
  });
});
