import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot, waitInPage } from '../helpers/browser.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, withServer, locationOf } from '../helpers/test-server.js';

/** The team inbox in headless Chromium (docs/triage.md): its tabs, sticky bulk bar, select all, shortcuts overlay and undo banner. */
const backend = oneBackend();

describe(`the team inbox in a browser (${backend.name})`, function () {
  // First, so that without Chromium the suite is skipped before its server starts.
  const chrome = browserSuite();
  const server = withServer(backend);
  let secretKey: string;

  before(async () => {
    secretKey = await server.newKey(undefined, 'secret');
  });

  async function signedIn(size = { width: 1280, height: 800 }): Promise<Page> {
    const run = await inProcess(['open', '--print', '--url', server.url, ...locationOf(server)]);
    expect(run.code, run.stderr).to.equal(0);
    const page = await chrome.watched.newPage();
    await page.setViewportSize(size);
    await page.goto(run.stdout.trim());
    expect(new URL(page.url()).pathname).to.equal('/team');
    return page;
  }

  async function submitted(title: string, status?: string): Promise<string> {
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId: 'inbox-test' } } });
    expect(created.status).to.equal(201);
    const id = created.body.feedback.id as string;
    if (status) expect((await request(server, 'PATCH', `/api/v1/feedback/${id}`, { apiKey: secretKey, body: { status } })).status).to.equal(200);
    return id;
  }

  const statusOf = async (id: string) => (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.status as string;

  it('when a page of 20 items is scrolled, then the bulk bar stays in view; select all ticks every row and says how many; the tabs count by status; axe passes at 1280x800 and 390x844', async () => {
    const marker = `Long ${Date.now()}`;
    for (let i = 0; i < 22; i++) await submitted(`${marker} item number ${i} with a title long enough to wrap on a phone`);
    await submitted(`${marker} planned one`, 'planned');
    const page = await signedIn();
    await page.goto(`${server.url}/team?search=${encodeURIComponent(marker)}`);
    // Each tab's name, as a screen reader reads it: the status and its count of items.
    const names = ['All 23 items', 'New 22 items', 'Under review 0 items', 'Planned 1 item', 'In progress 0 items', 'Completed 0 items', 'Closed 0 items'];
    const tabs = page.getByRole('navigation', { name: 'Statuses' }).getByRole('link');
    expect(await tabs.count()).to.equal(names.length);
    for (const [i, name] of names.entries()) expect(await tabs.nth(i).getAttribute('href'), name).to.equal((await page.getByRole('link', { name, exact: true }).getAttribute('href')));
    expect(await page.locator('.status-tabs a[aria-current="page"] .tab-label').innerText()).to.equal('New');
    await expectAccessible(page);
    await screenshot(page, 'inbox-1280');

    const bar = page.locator('.bulk-bar');
    await page.locator('.item').last().scrollIntoViewIfNeeded();
    await waitInPage(page, () => (globalThis as unknown as { scrollY: number }).scrollY > 400, 'the page scrolled');
    const box = await bar.boundingBox();
    expect(box, 'the bar is drawn').to.not.equal(null);
    expect(box!.y, 'the bar sits at the top of the viewport').to.be.within(-1, 1);
    expect(await bar.isVisible()).to.equal(true);

    await page.check('#select-all');
    const rows = page.locator('.item input[name="id"]');
    expect(await rows.count()).to.equal(20);
    for (let i = 0; i < 20; i++) expect(await rows.nth(i).isChecked(), `row ${i}`).to.equal(true);
    expect(await page.locator('[data-selected-count]').innerText()).to.equal('20 items selected');
    await rows.nth(3).uncheck();
    expect(await page.locator('[data-selected-count]').innerText()).to.equal('19 items selected');
    expect(await page.evaluate('document.getElementById("select-all").indeterminate')).to.equal(true);
    await page.click('#select-all');
    expect(await page.locator('[data-selected-count]').innerText()).to.equal('20 items selected');
    await page.click('#select-all');
    expect(await page.locator('[data-selected-count]').innerText()).to.equal('0 items selected');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate('window.scrollTo(0, 0)');
    await expectAccessible(page);
    await screenshot(page, 'inbox-390');
    await page.locator('.item').nth(12).scrollIntoViewIfNeeded();
    await waitInPage(page, () => (globalThis as unknown as { scrollY: number }).scrollY > 400, 'the page scrolled');
    expect((await bar.boundingBox())!.y, 'on a phone too').to.be.within(-1, 1);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'nothing wider than the phone').to.equal(true);
  });

  it('when ? is pressed, then the shortcuts dialog opens as a table; Escape and its Close button close it and the focus returns where it was; axe passes with it open at both sizes', async () => {
    const marker = `Overlay ${Date.now()}`;
    await submitted(`${marker} one`);
    await submitted(`${marker} two`);
    const page = await signedIn();
    await page.goto(`${server.url}/team?search=${encodeURIComponent(marker)}`);
    await page.keyboard.press('j');
    const focused = await page.evaluate('document.activeElement?.textContent');
    expect(focused).to.equal(`${marker} two`);

    await page.keyboard.press('?');
    const dialog = page.locator('dialog#shortcuts');
    await dialog.waitFor({ state: 'visible' });
    expect(await page.evaluate('document.querySelector("dialog#shortcuts").matches(":modal")'), 'a modal dialog').to.equal(true);
    const rows = await dialog.locator('tbody tr').allInnerTexts();
    expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).to.include('j Next item in the inbox').and.include('? Show these shortcuts');
    await expectAccessible(page);
    await screenshot(page, 'inbox-shortcuts-1280');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate('document.activeElement?.textContent'), 'the focus is back on the item').to.equal(focused);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.keyboard.press('?');
    await dialog.waitFor({ state: 'visible' });
    await expectAccessible(page);
    const box = await dialog.boundingBox();
    expect(box!.x >= 0 && box!.x + box!.width <= 390, 'the dialog fits the phone').to.equal(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate('document.activeElement?.textContent'), 'the focus is back after Close too').to.equal(focused);
  });

  it('when several items of different statuses are moved and then Undo is chosen, then each is back at its own status, and Dismiss hides the banner in place', async () => {
    const marker = `Undo ${Date.now()}`;
    const fresh = await submitted(`${marker} fresh`);
    const reviewed = await submitted(`${marker} reviewed`, 'under-review');
    const started = await submitted(`${marker} started`, 'in-progress');
    const page = await signedIn();
    await page.goto(`${server.url}/team?search=${encodeURIComponent(marker)}&status=`);
    await page.check('#select-all');
    await page.selectOption('#new-status', 'planned');
    await page.click('button:has-text("Change status")');
    const banner = page.locator('[data-banner]');
    await banner.waitFor({ state: 'visible' });
    expect(await banner.locator('.notice').innerText()).to.equal('3 items moved to Planned.');
    for (const id of [fresh, reviewed, started]) expect(await statusOf(id)).to.equal('planned');
    await expectAccessible(page);
    await screenshot(page, 'inbox-banner-1280');

    await banner.getByRole('button', { name: 'Undo' }).click();
    await page.waitForURL((url) => url.searchParams.has('restored'));
    expect(await page.locator('[data-banner] .notice').innerText()).to.equal('3 items are back at the status they had before.');
    expect([await statusOf(fresh), await statusOf(reviewed), await statusOf(started)]).to.deep.equal(['new', 'under-review', 'in-progress']);

    await page.click('[data-dismiss-banner]');
    await page.locator('[data-banner]').waitFor({ state: 'hidden' });
    expect(new URL(page.url()).searchParams.has('restored'), 'its words are out of the address').to.equal(false);
    expect(new URL(page.url()).pathname).to.equal('/team');
  });
});
