import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { backends } from '../helpers/backends.js';
import { browserSuite, expectAccessible, watchedContext, type WatchedContext } from '../helpers/browser.js';
import { withServer } from '../helpers/test-server.js';

/** The pages' language in Chromium (docs/board.md, "Languages"): Accept-Language, the switcher and its cookie, right to left. */

/** A board page refused after the board is known (an item that is not there): its refusal page has the board's switcher. */
const MISSING = '/b/default/items/0190f1a2-3b4c-7d5e-8f60-718293a4b5c6';

/** The document's language, its direction attribute, and the direction the browser lays the body out in. */
function direction(page: Page): Promise<{ lang: string; dir: string; laidOut: string }> {
  // A string, evaluated in the page: the tests are compiled without the DOM's types.
  return page.evaluate(`({ lang: document.documentElement.lang, dir: document.documentElement.dir, laidOut: getComputedStyle(document.body).direction })`) as Promise<{ lang: string; dir: string; laidOut: string }>;
}

for (const backend of backends()) {
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
  });
}
