import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot } from '../helpers/browser.js';
import { request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/*
 * The board's list as a visitor sees it in headless Chromium (docs/board.md, "The list"): the vote
 * column's one width, eight rows above the fold of a laptop, the filters applied on change, and
 * axe at a laptop's and a phone's size, in both themes.
 */
const backend = oneBackend();

const STATUSES = ['new', 'under-review', 'planned', 'in-progress', 'completed', 'closed'] as const;
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe(`board list in a browser (${backend.name})`, function () {
  const chrome = browserSuite();
  const server = withServer(backend);
  /** Titles by vote count: the rows the vote column is measured on. */
  const byVotes = new Map<number, string>();

  before(async () => {
    const secretKey = await server.newKey(undefined, 'secret');
    // 24 items, more than a page of 20: every status, descriptions long enough to be cut.
    for (let i = 0; i < 24; i++) {
      const body = {
        title: `List item ${i + 1}: ${i % 3 === 0 ? 'a longer title that takes more of the row, as real titles do' : 'short title'}`,
        description: i % 4 === 3 ? undefined : `Description of item ${i + 1}. ${'It goes on about what the visitor wants and why it matters to them. '.repeat(6)}`,
        type: ['idea', 'bug', 'question', 'other'][i % 4],
        endUser: { externalId: 'list-test' },
      };
      const created = await request(server, 'POST', '/api/v1/feedback', { body });
      expect(created.status).to.equal(201);
      const id = created.body.feedback.id as string;
      const status = STATUSES[i % STATUSES.length]!;
      if (status !== 'new') {
        const changed = await request(server, 'PATCH', `/api/v1/feedback/${id}`, { apiKey: secretKey, body: { status } });
        expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      }
      // Counts of one, two and a thousand and more, set in the counters: a thousand voters would
      // take a thousand calls, and the column's width is all that is measured here.
      const votes = ({ 23: 1, 22: 2, 21: 1234 } as Record<number, number>)[i];
      if (votes !== undefined) {
        await server.sql('update feedback_counters set vote_count = ? where feedback_id = ?', [votes, id]);
        byVotes.set(votes, body.title);
      }
    }
  });

  async function open(page: Page, path: string): Promise<void> {
    const response = await page.goto(server.url + path);
    expect(response?.status(), path).to.equal(200);
  }

  /** The row whose title is `title`. */
  const row = (page: Page, title: string) => page.locator('.item', { has: page.locator('.item-title', { hasText: title }) });

  it('when rows with 1, 2 and 1,234 votes are listed, then their vote buttons have one width and their titles start at the same x, at a laptop\'s and a phone\'s width', async () => {
    const page = await chrome.watched.newPage();
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      await open(page, '/b/default');
      const edges: number[] = [];
      const widths: number[] = [];
      for (const [votes, title] of byVotes) {
        const item = row(page, title);
        expect((await item.locator('[data-count]').textContent())?.trim(), `${size.width}`).to.equal(votes === 1234 ? '1,234' : String(votes));
        edges.push((await item.locator('.item-title').boundingBox())!.x);
        widths.push((await item.locator('.vote-button').boundingBox())!.width);
      }
      expect(edges, `title edges at ${size.width}`).to.have.length(3);
      expect(new Set(edges).size, `title edges at ${size.width}: ${edges.join(', ')}`).to.equal(1);
      expect(new Set(widths).size, `vote widths at ${size.width}: ${widths.join(', ')}`).to.equal(1);
    }
  });

  it('when the first page of 20 is shown at 1280x800, then at least 8 rows start above the fold, each with one line of description cut with an ellipsis, and axe passes in both themes', async () => {
    const page = await chrome.watched.newPage();
    await page.setViewportSize(LAPTOP);
    await open(page, '/b/default');
    expect(await page.locator('.item').count()).to.equal(20);
    // Strings, evaluated in the page: the tests are compiled without the DOM's types.
    const tops = (await page.evaluate(`[...document.querySelectorAll('.item')].map((row) => row.getBoundingClientRect().top)`)) as number[];
    const above = tops.filter((top) => top < LAPTOP.height).length;
    expect(above, `row tops: ${tops.map(Math.round).join(', ')}`).to.be.at.least(8);
    // One line, cut: the paragraph is as tall as one line of its text, and its text is wider than
    // the box that cuts it (the <bdi> inside, a block so that it is cut in its own direction).
    const excerpt = (await page.evaluate(`(() => {
      const p = document.querySelector('.excerpt');
      const box = p.querySelector('bdi');
      return { lines: Math.round(p.clientHeight / parseFloat(getComputedStyle(p).lineHeight)), cut: box.scrollWidth > box.clientWidth, overflow: getComputedStyle(box).textOverflow };
    })()`)) as { lines: number; cut: boolean; overflow: string };
    expect(excerpt).to.deep.equal({ lines: 1, cut: true, overflow: 'ellipsis' });
    // Each status has its own colours, text and tint alike.
    const colours = (await page.evaluate(`[...document.querySelectorAll('.tag.status')].map((tag) => [tag.textContent, getComputedStyle(tag).color, getComputedStyle(tag).backgroundColor].join('|'))`)) as string[];
    expect(new Set(colours.map((c) => c.split('|')[1])).size, colours.join('; ')).to.equal(STATUSES.length);
    expect(new Set(colours.map((c) => c.split('|')[2])).size, colours.join('; ')).to.equal(STATUSES.length);
    const pages = page.locator('.pagination');
    expect((await pages.locator('a[aria-current="page"]').textContent())?.trim()).to.equal('1');
    await expectAccessible(page);
    // The fold itself: what a laptop shows before any scroll.
    await screenshot(page, 'board-list-1280', { viewport: true });

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expectAccessible(page);
    await screenshot(page, 'board-list-dark-1280');
  });

  it('when the list is shown at 390x844, then axe passes in both themes and nothing is wider than the screen', async () => {
    const page = await chrome.watched.newPage();
    await page.setViewportSize(PHONE);
    await open(page, '/b/default');
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(PHONE.width);
    await expectAccessible(page);
    await screenshot(page, 'board-list-390');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expectAccessible(page);
    await screenshot(page, 'board-list-dark-390');
  });

  it('when JavaScript runs and a filter is chosen, then the list applies it at once and the focus is back on that filter; a search applies on Enter, and one that matches nothing says so and clears', async () => {
    const page = await chrome.watched.newPage();
    await page.setViewportSize(LAPTOP);
    await open(page, '/b/default?sortBy=votes');
    await page.selectOption('#status', 'planned');
    await page.waitForURL((url) => url.searchParams.get('status') === 'planned');
    expect(new URL(page.url()).searchParams.get('sortBy'), 'the other filters are kept').to.equal('votes');
    await until(async () => (await page.evaluate('document.activeElement && document.activeElement.id')) === 'status', 5000, 'the focus on #status');
    const statuses = await page.locator('.tag.status').allTextContents();
    expect(statuses.length).to.equal(4);
    expect(statuses.every((s) => s.endsWith('Planned')), statuses.join(', ')).to.equal(true);

    await page.fill('#search', 'nothing like this anywhere');
    await page.press('#search', 'Enter');
    await page.waitForURL((url) => url.searchParams.get('search') === 'nothing like this anywhere');
    expect((await page.locator('.empty').textContent())?.trim()).to.equal('No feedback matches \u201cnothing like this anywhere\u201d. Clear the search and filters.');
    await expectAccessible(page);
    await page.click('a:has-text("Clear the search and filters")');
    await page.waitForURL((url) => !url.searchParams.has('search') && !url.searchParams.has('status'));
    expect(new URL(page.url()).searchParams.get('sortBy'), 'the order is kept').to.equal('votes');
    expect(await page.locator('.item').count()).to.equal(20);
    expect((await page.locator('.item-title').first().textContent())?.trim(), 'by votes, the 1,234 first').to.equal(byVotes.get(1234));
  });
});
