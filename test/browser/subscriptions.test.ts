import { expect } from 'chai';
import { boardSignInLink } from '@feedbackd/sdk/board';
import { changeIdentitySecret } from '@feedbackd/server';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot, watchedContext } from '../helpers/browser.js';
import { request, withServer, SHORT_BOARD_PROJECT_CACHE_TTL_MS } from '../helpers/test-server.js';

/** The item page's Subscribe / Unsubscribe button in headless Chromium (docs/notifications.md), at a desktop's and a phone's width. */
const backend = oneBackend();

describe(`subscribing on the board in a browser (${backend.name})`, function () {
  // First, so that without Chromium the suite is skipped before its server starts.
  const chrome = browserSuite();
  const server = withServer(backend, { boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });
  let secret: string;

  before(async () => {
    const made = (await changeIdentitySecret(server.server.orm.em.fork(), 'default', 'rotate')) as { secret: string };
    await server.boardSettingsSeen();
    secret = made.secret;
  });

  async function submitApi(title: string): Promise<string> {
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId: 'subscriptions-author' } } });
    expect(created.status).to.equal(201);
    return created.body.feedback.id as string;
  }
  const subscribed = async (id: string, externalId: string) => (await request(server, 'GET', `/api/v1/feedback/${id}/subscription?endUserId=${externalId}`)).body.subscribed as boolean;

  it('when an identified visitor presses Subscribe and then Unsubscribe, then each post comes back to the item with the other button, the API agrees, and the page passes axe at 1280 and 390 px', async () => {
    const id = await submitApi('Calendar export');
    const page = await chrome.watched.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(boardSignInLink({ serverUrl: server.url, project: 'default', secret, user: { externalId: 'browser-follower', name: 'Fay Follower' }, returnTo: `/b/default/items/${id}` }));
    expect(page.url()).to.equal(`${server.url}/b/default/items/${id}`);
    const button = page.locator('form.subscription button');
    expect(await button.textContent()).to.equal('Subscribe');
    expect(await page.locator('form.subscription .hint').textContent()).to.equal('Get an update when this item changes.');
    await expectAccessible(page);
    await screenshot(page, 'subscribe-1280');

    await button.click();
    await page.waitForSelector('form.subscription button:text-is("Unsubscribe")');
    expect(page.url(), 'back on the item').to.equal(`${server.url}/b/default/items/${id}`);
    expect(await page.locator('form.subscription .hint').textContent()).to.equal('You will get an update when this item changes.');
    expect(await subscribed(id, 'browser-follower')).to.equal(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await screenshot(page, 'unsubscribe-390');

    await page.locator('form.subscription button').click();
    await page.waitForSelector('form.subscription button:text-is("Subscribe")');
    expect(await subscribed(id, 'browser-follower')).to.equal(false);
  });

  it('when JavaScript is off and the page is in French, then the French button posts and comes back with the other; and an anonymous visitor sees no button at all', async () => {
    const id = await submitApi('Export iCal');
    const noScript = await watchedContext(chrome.browser, { javaScriptEnabled: false, locale: 'fr-FR' });
    const anonymous = await watchedContext(chrome.browser);
    try {
      const page = await noScript.newPage();
      await page.goto(boardSignInLink({ serverUrl: server.url, project: 'default', secret, user: { externalId: 'browser-fr' }, returnTo: `/b/default/items/${id}` }));
      expect(await page.locator('html').getAttribute('lang')).to.equal('fr');
      expect(await page.locator('form.subscription button').textContent()).to.equal('S’abonner');
      // No axe here: with JavaScript off nothing runs in the page; the test above checks the same form with it.
      await page.locator('form.subscription button').click();
      await page.waitForSelector('form.subscription button:text-is("Se désabonner")');
      expect(page.url()).to.equal(`${server.url}/b/default/items/${id}`);
      expect(await subscribed(id, 'browser-fr')).to.equal(true);
      await screenshot(page, 'unsubscribe-fr-no-script');

      const stranger = await anonymous.newPage();
      await stranger.goto(`${server.url}/b/default/items/${id}`);
      expect(await stranger.locator('h1').textContent()).to.equal('Export iCal');
      expect(await stranger.locator('form.subscription').count()).to.equal(0);
      expect([...noScript.errors, ...anonymous.errors]).to.deep.equal([]);
    } finally {
      await noScript.close();
      await anonymous.close();
    }
  });
});
