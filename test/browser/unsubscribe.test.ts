import { expect } from 'chai';
import { signUnsubscribe, unsubscribeKey } from '@feedbackd/server/testing';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot } from '../helpers/browser.js';
import { projectId, subscribe } from '../helpers/subscriptions.js';
import { request, withServer } from '../helpers/test-server.js';

const SECRET = 'unsubscribe-browser-secret-0123456789abcdef';

/** The mail's one-click unsubscribe page in headless Chromium (docs/notifications.md): without JavaScript, post and redirect, axe. */
const backend = oneBackend();

describe(`unsubscribe page in a browser (${backend.name})`, function () {
  const chrome = browserSuite();
  const server = withServer(backend, { voterSecret: SECRET });

  it('when a subscriber opens the link of their mail, then the page asks first, the button unsubscribes them from the item without signing in, and both pages pass axe', async () => {
    const item = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Offline mode' } })).body.feedback.id as string;
    const [endUserId] = await subscribe(server, item, [{ externalId: 'una', email: 'una@example.com' }]);
    const token = await signUnsubscribe(unsubscribeKey(Buffer.from(SECRET)), { projectId: await projectId(server), endUserId: endUserId!, feedbackId: item });
    const page = await chrome.watched.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    expect((await page.goto(`${server.url}/b/default/unsubscribe?token=${token}`))?.status()).to.equal(200);
    expect(await page.locator('h1').textContent()).to.equal('Unsubscribe');
    expect(await page.locator('form.unsubscribe p').textContent()).to.equal('Stop the emails about “Offline mode”?');
    await expectAccessible(page);
    await screenshot(page, 'unsubscribe-ask');
    const rows = async () => server.sql<{ at: Date | null }>('select unsubscribed_at as at from subscriptions where feedback_id = ? and end_user_id = ?', [item, endUserId]);
    expect((await rows())[0]!.at).to.equal(null);

    await Promise.all([page.waitForURL(/done=1/), page.locator('form.unsubscribe button').click()]);
    expect(await page.locator('p[role="status"]').textContent()).to.equal('Done: you will get no more emails about “Offline mode”.');
    expect((await rows())[0]!.at).to.not.equal(null);
    await expectAccessible(page);
    await screenshot(page, 'unsubscribe-done');
    await page.close();
  });

  it('when the reader asks for Arabic, then the page is in Arabic, right to left, and passes axe', async () => {
      const item = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Export' } })).body.feedback.id as string;
      const [endUserId] = await subscribe(server, item, [{ externalId: 'ali', email: 'ali@example.com' }]);
      const token = await signUnsubscribe(unsubscribeKey(Buffer.from(SECRET)), { projectId: await projectId(server), endUserId: endUserId!, feedbackId: null });
      const page = await chrome.watched.newPage();
      await page.setExtraHTTPHeaders({ 'Accept-Language': 'ar' });
      await page.goto(`${server.url}/b/default/unsubscribe?token=${token}`);
      expect(await page.locator('html').getAttribute('dir')).to.equal('rtl');
      expect(await page.locator('form.unsubscribe button').textContent()).to.equal('إلغاء الاشتراك');
      await expectAccessible(page);
      await screenshot(page, 'unsubscribe-ar');
      await page.close();
  });
});
