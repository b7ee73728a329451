import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot, watchedContext } from '../helpers/browser.js';
import { inProcess } from '../helpers/cli-process.js';
import { locationOf, request, withServer } from '../helpers/test-server.js';

/** The item pages (docs/board.md, docs/triage.md) and the submit form's similar items in headless Chromium, at a desktop's and a phone's width. */
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const backend = oneBackend();

describe(`item pages in a browser (${backend.name})`, function () {
  // First, so that without Chromium the suite is skipped before its server starts.
  const chrome = browserSuite();
  const server = withServer(backend);
  let secretKey: string;

  before(async () => {
    secretKey = await server.newKey(undefined, 'secret');
  });

  async function submitApi(title: string, endUser?: Record<string, string>): Promise<string> {
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, description: 'Spreadsheets open it directly, so nobody has to copy rows by hand.', ...(endUser ? { endUser } : {}) } });
    expect(created.status).to.equal(201);
    return created.body.feedback.id as string;
  }

  async function moveTo(id: string, status: string): Promise<void> {
    const changed = await request(server, 'PATCH', `/api/v1/feedback/${id}`, { apiKey: secretKey, body: { status } });
    expect(changed.status).to.equal(200);
  }

  /** Each width in turn: the page passes axe at both, and its screenshots are saved under `name`-<width>. */
  async function atBothWidths(page: Page, name: string): Promise<void> {
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await expectAccessible(page);
      await screenshot(page, `${name}-${size.width}`);
    }
  }

  it('when a visitor opens an item, then it names the submitter beside their initials, shows its status history as a timeline, and passes axe at 1280 and 390 px', async () => {
    const id = await submitApi('Export the board to CSV', { externalId: 'item-ann', name: 'Ann Lee', email: 'ann@example.com' });
    await moveTo(id, 'under-review');
    await moveTo(id, 'planned');
    const page = await chrome.watched.newPage();
    await page.goto(`${server.url}/b/default/items/${id}`);
    expect(await page.locator('.submitter .avatar').textContent()).to.equal('AL');
    expect(await page.locator('.submitter .avatar').getAttribute('aria-hidden')).to.equal('true');
    expect(await page.locator('.submitter .person-name').textContent()).to.equal('Ann Lee');
    expect(await page.locator('.timeline-what').allTextContents()).to.deep.equal(['Posted as New', 'Moved from New to Under review', 'Moved from Under review to Planned']);
    const text = await page.locator('main').textContent();
    expect(text, 'the email and external id are the team\'s').not.to.match(/ann@example\.com|item-ann/);
    await atBothWidths(page, 'item');
  });

  it('when a visitor types a title like several items\', then the most voted is listed first with its status, a vote in place changes its count, and without script a vote comes back to the form with the title', async () => {
    const marker = `Ledger${Date.now().toString(36)}`;
    // Posted by end users: this address (the browser's anonymous voter) has voted for neither.
    const few = await submitApi(`${marker} export to CSV`, { externalId: 'similar-1' });
    const most = await submitApi(`${marker} export to CSV`, { externalId: 'similar-2' });
    await moveTo(most, 'planned');
    await server.sql('update feedback_counters set vote_count = ? where feedback_id = ?', [500, most]);
    await server.sql('update feedback_counters set vote_count = ? where feedback_id = ?', [14, few]);
    const page = await chrome.watched.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.url}/b/default/new`);
    await page.fill('#title', `${marker} export to CSV`);
    const first = page.locator('[data-similar] li').first();
    await first.waitFor();
    expect(await first.locator('a').getAttribute('href')).to.equal(`/b/default/items/${most}`);
    expect(await first.locator('.tag').textContent()).to.equal('Status: Planned');
    await expectAccessible(page);
    await screenshot(page, 'submit-similar-1280');
    expect(await first.locator('.vote-button').getAttribute('aria-pressed')).to.equal('false');
    await first.locator('.vote-button').click();
    await page.waitForSelector(`[data-similar] li:first-child .vote-button[aria-pressed="true"]`);
    expect(await first.locator('[data-count]').textContent()).to.equal('501');
    expect(new URL(page.url()).pathname, 'voted in place').to.equal('/b/default/new');
    expect(await page.inputValue('#title')).to.equal(`${marker} export to CSV`);

    const noScript = await watchedContext(chrome.browser, { javaScriptEnabled: false });
    try {
      const plain = await noScript.newPage();
      await plain.goto(`${server.url}/b/default/new`);
      await plain.click('button:has-text("Look for similar feedback first")');
      expect(await plain.locator('[data-similar]').textContent()).to.include('Type a title first');
      await plain.fill('#title', `${marker} export to CSV`);
      await plain.click('button:has-text("Look for similar feedback first")');
      await plain.locator('[data-similar] li').nth(1).locator('.vote-button').click();
      await plain.waitForURL((url) => url.pathname === '/b/default/new' && url.searchParams.get('title') === `${marker} export to CSV`);
      expect(await plain.inputValue('#title'), 'the title is kept').to.equal(`${marker} export to CSV`);
      expect(await plain.locator('[data-similar] li').nth(1).locator('.vote-button').getAttribute('aria-pressed')).to.equal('true');
      expect((await request(server, 'GET', `/api/v1/feedback/${few}`)).body.feedback.voteCount).to.equal(15);
      expect(noScript.errors).to.deep.equal([]);
    } finally {
      await noScript.close();
    }
  });

  it('when a member opens an item with many voters, then the side column holds the status, merge, submitter and 20 voters a page, and the page passes axe at 1280 and 390 px', async () => {
    const id = await submitApi('Dark mode for the reports', { externalId: 'team-sub', name: 'Sam Submitter', email: 'sam@example.com' });
    for (let i = 0; i < 24; i++) {
      const vote = await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId: `voter-${i}`, name: `Voter ${i}`, email: `voter${i}@example.com` } } });
      expect(vote.status).to.equal(200);
    }
    await moveTo(id, 'planned');
    const run = await inProcess(['open', '--print', '--url', server.url, ...locationOf(server)]);
    expect(run.code, run.stderr).to.equal(0);
    const page = await chrome.watched.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(run.stdout.trim());
    await page.goto(`${server.url}/team/items/${id}`);
    const side = page.locator('aside.item-side');
    expect(await side.locator('#status').count()).to.equal(1);
    expect(await side.locator('#merge-search').count()).to.equal(1);
    expect(await side.locator('.facts').textContent()).to.include('sam@example.com');
    expect(await side.locator('.facts').textContent()).to.include('team-sub');
    expect(await side.locator('.voters li').count()).to.equal(20);
    expect(await side.textContent()).to.include('25 identified voters');
    const [main, aside] = await Promise.all([page.locator('.item-head').boundingBox(), side.boundingBox()]);
    expect(aside!.x, 'two columns at 1280 px').to.be.greaterThan(main!.x + main!.width - 1);
    expect(aside!.y, 'the side column starts at the top').to.be.below(main!.y + 10);
    await atBothWidths(page, 'team-item');
    const [head, under] = await Promise.all([page.locator('.item-head').boundingBox(), side.boundingBox()]);
    expect(under!.y, 'one column at 390 px').to.be.greaterThan(head!.y + head!.height - 1);
    await page.setViewportSize(DESKTOP);
    await side.locator('a[rel="next"]').click();
    expect(new URL(page.url()).searchParams.get('voters')).to.equal('2');
    expect(await side.locator('.voters li').count()).to.equal(5);
  });
});
