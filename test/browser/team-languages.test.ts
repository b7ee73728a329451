import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot, watchedContext, type WatchedContext } from '../helpers/browser.js';
import { inProcess } from '../helpers/cli-process.js';
import { locationOf, request, withServer } from '../helpers/test-server.js';

/** The team's pages in another language in Chromium (docs/triage.md, "Languages"): Arabic from the browser, right to left; the board's default language. */
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The document's language, its direction attribute, and the direction the browser lays the body out in. */
function direction(page: Page): Promise<{ lang: string; dir: string; laidOut: string }> {
  // A string, evaluated in the page: the tests are compiled without the DOM's types.
  return page.evaluate(`({ lang: document.documentElement.lang, dir: document.documentElement.dir, laidOut: getComputedStyle(document.body).direction })`) as Promise<{ lang: string; dir: string; laidOut: string }>;
}

/** Where an element starts and ends across the page (x, in CSS pixels). */
async function across(locator: Locator): Promise<{ left: number; right: number }> {
  const box = await locator.boundingBox();
  expect(box, 'drawn').to.not.equal(null);
  return { left: box!.x, right: box!.x + box!.width };
}

const backend = oneBackend();

describe(`the team's pages in other languages in a browser (${backend.name})`, function () {
  // First, so that without Chromium the suite is skipped before its server starts.
  const chrome = browserSuite();
  const server = withServer(backend);
  let secretKey: string;
  let contexts: WatchedContext[] = [];

  before(async () => {
    secretKey = await server.newKey(undefined, 'secret');
  });

  afterEach(async () => {
    for (const context of contexts) {
      expect(context.errors, 'console errors').to.deep.equal([]);
      await context.close();
    }
    contexts = [];
    // The board's default language is the project's: no test leaves it set for another.
    expect((await request(server, 'PATCH', '/api/v1/board', { apiKey: secretKey, body: { locale: null } })).status).to.equal(200);
  });

  /** A browser whose Accept-Language is `locale`, signed in to the team's pages with a one-time link. */
  async function signedIn(locale: string): Promise<Page> {
    const context = await watchedContext(chrome.browser, { locale });
    contexts.push(context);
    const run = await inProcess(['open', '--print', '--url', server.url, ...locationOf(server)]);
    expect(run.code, run.stderr).to.equal(0);
    const page = await context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(run.stdout.trim());
    expect(new URL(page.url()).pathname).to.equal('/team');
    return page;
  }

  /** An item posted by an end user, with two identified voters, a team comment and a status change: every part of the side column shows. */
  async function fullItem(marker: string): Promise<string> {
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: `${marker} تصدير اللوحة إلى CSV`, description: 'تفتح جداول البيانات الملف مباشرة، فلا يحتاج أحد إلى نسخ الصفوف يدويًا.', endUser: { externalId: `${marker}-ann`, name: 'آن لي', email: 'ann@example.com' } } });
    expect(created.status).to.equal(201);
    const id = created.body.feedback.id as string;
    for (const voter of ['sam', 'lea']) expect((await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId: `${marker}-${voter}`, name: voter === 'sam' ? 'سام' : 'Léa' } } })).status).to.equal(200);
    expect((await request(server, 'PATCH', `/api/v1/feedback/${id}`, { apiKey: secretKey, body: { status: 'planned' } })).status).to.equal(200);
    expect((await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { apiKey: secretKey, body: { content: 'شكرًا، إنه مخطط له.', team: { name: 'الفريق' } } })).status).to.equal(201);
    return id;
  }

  it('when the browser asks for Arabic, then the inbox and an item are in Arabic, right to left and mirrored (the row checkbox on the right, the side column on the left), the script counts in Arabic, and axe passes at 1280 and 390 px', async () => {
    const marker = `lang${Date.now().toString(36)}`;
    const id = await fullItem(marker);
    for (const n of [1, 2]) expect((await request(server, 'POST', '/api/v1/feedback', { body: { title: `${marker} فكرة رقم ${n}` } })).status).to.equal(201);
    const page = await signedIn('ar-EG');
    await page.goto(`${server.url}/team?status=&search=${marker}`);
    expect(await direction(page)).to.deep.equal({ lang: 'ar', dir: 'rtl', laidOut: 'rtl' });
    expect(await page.locator('h1').innerText()).to.equal('صندوق الوارد');
    expect(await page.locator('#list-summary').innerText()).to.equal(`3 عناصر تطابق «${marker}»`);
    expect(await page.getByRole('navigation', { name: 'الحالات' }).getByRole('link').first().innerText()).to.match(/^الكل\s*3/);

    // Mirrored: a row's checkbox is at its right, before its title; the bar's status at its left.
    const row = page.locator('.item').first();
    expect((await across(row.locator('input[name="id"]'))).left).to.be.greaterThan((await across(row.locator('.item-title a'))).right);
    expect((await across(page.locator('.bulk-status'))).right).to.be.lessThan((await across(page.locator('.select-all'))).left);
    await expectAccessible(page);
    await screenshot(page, 'inbox-ar-1280');

    // The script says how many are selected with Arabic's plural forms (3: few; 2: the dual).
    await page.check('#select-all');
    expect(await page.locator('[data-selected-count]').innerText()).to.equal('3 عناصر محددة');
    await row.locator('input[name="id"]').uncheck();
    expect(await page.locator('[data-selected-count]').innerText()).to.equal('عنصران محددان');
    await page.locator('h1').click();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'اختصارات لوحة المفاتيح' });
    await dialog.waitFor();
    await expectAccessible(page);
    await screenshot(page, 'inbox-shortcuts-ar-1280', { viewport: true });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    await screenshot(page, 'inbox-ar-390');

    // The bulk change's banner, in Arabic: two items moved to Under review (the dual).
    await page.setViewportSize(DESKTOP);
    await page.selectOption('#new-status', 'under-review');
    await page.getByRole('button', { name: 'تغيير الحالة' }).click();
    await page.locator('.banner .notice').waitFor();
    expect(await page.locator('.banner .notice').innerText()).to.equal('نُقل عنصران إلى قيد المراجعة.');

    await page.goto(`${server.url}/team/items/${id}`);
    expect(await direction(page)).to.deep.equal({ lang: 'ar', dir: 'rtl', laidOut: 'rtl' });
    const side = await across(page.getByRole('complementary', { name: 'الفرز' }));
    const head = await across(page.locator('.item-head'));
    expect(side.right, 'the side column is on the left').to.be.lessThan(head.left);
    // The submitter's vote and two more, all identified: "3" takes the few form; the three are
    // subscribed by their votes (issue 40), which the same paragraph counts.
    expect(await page.locator('#voters-title + p').innerText()).to.equal('3 مصوّتين معروفين\nلا أصوات مجهولة\n3 مشتركين');
    // Posted, moved with the API's key, then by this session's bulk change (the item was among the two still ticked).
    const history = await page.locator('.timeline-what').allInnerTexts();
    expect(history.slice(0, 2)).to.deep.equal(['نُشر بحالة جديد', 'نُقل من جديد إلى مخطط له بمفتاح API']);
    expect(history[2]).to.match(/^نقله .+ من مخطط له إلى قيد المراجعة$/);
    await expectAccessible(page);
    await screenshot(page, 'team-item-ar-1280');
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    await screenshot(page, 'team-item-ar-390');
  });

  it("when the board has a default language and the browser asks for none of ours, then the inbox and an item are in it (left to right), and axe passes at 1280 and 390 px", async () => {
    const marker = `dflt${Date.now().toString(36)}`;
    const id = await fullItem(marker);
    expect((await request(server, 'PATCH', '/api/v1/board', { apiKey: secretKey, body: { locale: 'de' } })).status).to.equal(200);
    // Swedish is none of the supported languages: the board's default decides.
    const page = await signedIn('sv-SE');
    expect(await direction(page)).to.deep.equal({ lang: 'de', dir: 'ltr', laidOut: 'ltr' });
    expect(await page.locator('h1').innerText()).to.equal('Posteingang');
    const inbox = await page.goto(`${server.url}/team?status=&search=${marker}`);
    // The page's language depends on these two headers: any cache is told so.
    expect(inbox?.headers().vary?.toLowerCase()).to.include('accept-language').and.include('cookie');
    expect(await page.locator('#list-summary').innerText()).to.equal(`1 Eintrag zu „${marker}“`);
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await expectAccessible(page);
    }
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.url}/team/items/${id}`);
    expect(await page.locator('#status-title').innerText()).to.equal('Status ändern');
    const side = await across(page.getByRole('complementary', { name: 'Sichtung' }));
    expect(side.left, 'left to right: the side column is on the right').to.be.greaterThan((await across(page.locator('.item-head'))).right);
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await expectAccessible(page);
    }
    await screenshot(page, 'team-item-de-390');
  });
});
