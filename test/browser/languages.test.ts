import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot, watchedContext, type WatchedContext } from '../helpers/browser.js';
import { request, withServer } from '../helpers/test-server.js';

/** The pages' language in Chromium (docs/board.md, "Languages"): Accept-Language, the switcher and its cookie, right to left. */

/** A board page refused after the board is known (an item that is not there): its refusal page has the board's switcher. */
const MISSING = '/b/default/items/0190f1a2-3b4c-7d5e-8f60-718293a4b5c6';

/** Where an element is drawn: its left edge and width in CSS pixels. */
async function box(page: Page, selector: string): Promise<{ x: number; width: number }> {
  const found = await page.locator(selector).first().boundingBox();
  expect(found, selector).to.not.equal(null);
  return { x: found!.x, width: found!.width };
}

/** The document's language, its direction attribute, and the direction the browser lays the body out in. */
function direction(page: Page): Promise<{ lang: string; dir: string; laidOut: string }> {
  // A string, evaluated in the page: the tests are compiled without the DOM's types.
  return page.evaluate(`({ lang: document.documentElement.lang, dir: document.documentElement.dir, laidOut: getComputedStyle(document.body).direction })`) as Promise<{ lang: string; dir: string; laidOut: string }>;
}

const backend = oneBackend();

describe(`languages in a browser (${backend.name})`, function () {
  const chrome = browserSuite();
  const server = withServer(backend);
  let contexts: WatchedContext[] = [];

  afterEach(async () => {
    for (const context of contexts) {
      expect(context.errors, 'console errors').to.deep.equal([]);
      await context.close();
    }
    contexts = [];
  });

  async function browser(options: Parameters<typeof watchedContext>[1]): Promise<WatchedContext> {
    const context = await watchedContext(chrome.browser, options);
    contexts.push(context);
    context.expectRefusal(server.url + MISSING);
    return context;
  }

  it('when Chromium asks for Arabic, then the refusal page is right to left in Arabic and passes axe; picking French in the switcher (script on) keeps it in a cookie and the next page is French', async () => {
    const arabic = await browser({ locale: 'ar-EG' });
    const page = await arabic.newPage();
    expect((await page.goto(server.url + MISSING))?.status()).to.equal(404);
    expect(await direction(page)).to.deep.equal({ lang: 'ar', dir: 'rtl', laidOut: 'rtl' });
    expect(await page.locator('h1').textContent()).to.equal('الصفحة غير موجودة');
    expect(await page.locator('.skip-link').textContent()).to.equal('الانتقال إلى المحتوى الرئيسي');
    await expectAccessible(page);

    // The script sends the form as soon as a language is picked.
    await page.locator('#locale').selectOption('fr');
    await page.locator('html[lang="fr"]').waitFor({ state: 'attached' });
    expect(page.url()).to.equal(server.url + MISSING);
    expect(await direction(page)).to.deep.equal({ lang: 'fr', dir: 'ltr', laidOut: 'ltr' });
    expect(await page.locator('h1').textContent()).to.equal('Page introuvable');
    const [cookie] = (await arabic.context.cookies()).filter((c) => c.name === 'feedback_locale');
    expect(cookie).to.include({ value: 'fr', path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(cookie!.expires * 1000 - Date.now()).to.be.greaterThan(360 * 24 * 3600 * 1000);

    // The choice outlives the page: the team's sign-in page is French too, whatever the browser asks.
    expect((await page.goto(`${server.url}/team/sign-in`))?.status()).to.equal(200);
    expect(await direction(page)).to.deep.equal({ lang: 'fr', dir: 'ltr', laidOut: 'ltr' });
    expect(await page.locator('h1').textContent()).to.equal('Se connecter pour trier les avis');
    await expectAccessible(page);
  });

  it('when the switcher is used without script, then its button sends it and the team sign-in page comes back in Arabic; with that cookie, the page is laid out right to left and passes axe', async () => {
    const noScript = await browser({ javaScriptEnabled: false, locale: 'en-GB' });
    const page = await noScript.newPage();
    expect((await page.goto(`${server.url}/team/sign-in`))?.status()).to.equal(200);
    expect(await page.locator('html').getAttribute('lang')).to.equal('en');
    await page.locator('#locale').selectOption('ar');
    await page.getByRole('button', { name: 'Change language' }).click();
    // No evaluation here: with JavaScript off nothing runs in the page; the locators still read it.
    await page.locator('html[lang="ar"]').waitFor({ state: 'attached' });
    expect(await page.locator('html').getAttribute('dir')).to.equal('rtl');
    expect(new URL(page.url()).pathname).to.equal('/team/sign-in');
    expect(await page.locator('h1').textContent()).to.equal('سجّل الدخول لفرز الملاحظات');
    expect(await page.locator('#locale option[selected]').getAttribute('value')).to.equal('ar');
    const cookies = (await noScript.context.cookies()).filter((c) => c.name === 'feedback_locale');
    expect(cookies.map((c) => c.value)).to.deep.equal(['ar']);

    const withScript = await browser({ locale: 'en-GB' });
    await withScript.context.addCookies(cookies);
    const again = await withScript.newPage();
    expect((await again.goto(`${server.url}/team/sign-in`))?.status()).to.equal(200);
    expect(await direction(again)).to.deep.equal({ lang: 'ar', dir: 'rtl', laidOut: 'rtl' });
    await expectAccessible(again);
  });

  it('when Chromium asks for Arabic, then the board list, an item and the submit form are in Arabic and mirrored (the vote column on the right) at 1280 and 390 px, pass axe, and the French board is French', async function () {
    this.timeout(120_000);
    const secretKey = await server.newKey(undefined, 'secret');
    const made: string[] = [];
    for (const [title, type] of [['Export to CSV', 'idea'], ['تصدير إلى ملف CSV', 'idea'], ['Crash on save', 'bug']] as const) {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, type, description: 'Spreadsheets open it directly, so nobody has to copy rows by hand.', endUser: { externalId: `lang-${made.length}`, name: 'Ann Lee' } } });
      expect(created.status).to.equal(201);
      made.push(created.body.feedback.id as string);
    }
    const [first] = made;
    expect((await request(server, 'PATCH', `/api/v1/feedback/${first}`, { apiKey: secretKey, body: { status: 'planned' } })).status).to.equal(200);
    const commented = await request(server, 'POST', `/api/v1/feedback/${first}/comments`, { apiKey: secretKey, body: { content: 'Planned for the next release.', team: { name: 'Acme' } } });
    expect(commented.status).to.equal(201);

    const arabic = await browser({ locale: 'ar', viewport: { width: 1280, height: 800 } });
    // The refused submission is a 400 page, as without script.
    arabic.expectRefusal(`${server.url}/b/default/new`);
    const page = await arabic.newPage();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
      expect((await page.goto(`${server.url}/b/default`))?.status()).to.equal(200);
      expect(await direction(page)).to.deep.equal({ lang: 'ar', dir: 'rtl', laidOut: 'rtl' });
      expect(await page.locator('h1').textContent()).to.equal('الملاحظات');
      expect(await page.locator('#list-summary').textContent()).to.equal('3 عناصر');
      // Mirrored: the vote column stands at the right of the row, the title to its left.
      const vote = await box(page, '.items .vote-button');
      const title = await box(page, '.items .item-title');
      expect(vote.x, 'the vote column is right of the title').to.be.greaterThan(title.x);
      const main = await box(page, 'main');
      expect(vote.x + vote.width, 'the vote column ends at the right edge of the content').to.be.at.least(main.x + main.width - 20);
      await expectAccessible(page);
      await screenshot(page, `board-ar-${width}`);
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    expect((await page.goto(`${server.url}/b/default/items/${first}`))?.status()).to.equal(200);
    expect(await page.locator('.detail .vote-label').textContent()).to.equal('صوت');
    expect(await page.locator('#history-title').textContent()).to.equal('سجل الحالة');
    expect(await page.locator('.timeline-what').nth(1).textContent()).to.equal('نُقل من جديد إلى مخطط له');
    expect(await page.locator('#comments-title').textContent()).to.equal('تعليق واحد');
    expect((await box(page, '.detail .vote-button')).x).to.be.greaterThan((await box(page, '.detail h1')).x);
    await expectAccessible(page);
    await screenshot(page, 'item-ar-1280');
    // A vote in place: the word comes from the server in Arabic's plural form for 2.
    await page.locator('.detail .vote-button').click();
    await page.locator('.detail .vote-button[aria-pressed="true"]').waitFor();
    expect(await page.locator('.detail .vote-label').textContent()).to.equal('صوتان');

    expect((await page.goto(`${server.url}/b/default/new`))?.status()).to.equal(200);
    await page.getByRole('button', { name: 'إرسال الملاحظة' }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.locator('.error-summary li').first().textContent()).to.equal('العنوان مطلوب');
    expect(await page.locator('#title-error').textContent()).to.equal('خطأ: العنوان مطلوب');
    // The similar items, listed by the script in Arabic.
    await page.locator('#title').fill('تصدير إلى ملف');
    await page.locator('.similar h2').waitFor();
    expect(await page.locator('.similar h2').textContent()).to.equal('هل طُلبت من قبل؟ صوّت لها بدلًا من ذلك');
    expect(await page.locator('.similar .vote-label').first().textContent()).to.equal('صوت');
    await expectAccessible(page);
    await screenshot(page, 'submit-ar-1280');

    const french = await browser({ locale: 'fr-FR', viewport: { width: 1280, height: 800 } });
    const frenchPage = await french.newPage();
    expect((await frenchPage.goto(`${server.url}/b/default`))?.status()).to.equal(200);
    expect(await direction(frenchPage)).to.deep.equal({ lang: 'fr', dir: 'ltr', laidOut: 'ltr' });
    expect(await frenchPage.locator('#list-summary').textContent()).to.equal('3 éléments');
    expect((await box(frenchPage, '.items .vote-button')).x).to.be.lessThan((await box(frenchPage, '.items .item-title')).x);
    await expectAccessible(frenchPage);
    await screenshot(frenchPage, 'board-fr-1280');
  });
});
