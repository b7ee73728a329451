import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot } from '../helpers/browser.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, withServer, locationOf } from '../helpers/test-server.js';

/** The team's Held view in headless Chromium (docs/moderation.md): its tab, approve and reject by keyboard, bulk reject with block, and lifting the block. */
const backend = oneBackend();

describe(`the team's Held view in a browser (${backend.name})`, function () {
  const chrome = browserSuite();
  const server = withServer(backend);

  async function signedIn(): Promise<Page> {
    const run = await inProcess(['open', '--print', '--url', server.url, ...locationOf(server)]);
    expect(run.code, run.stderr).to.equal(0);
    const page = await chrome.watched.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(run.stdout.trim());
    expect(new URL(page.url()).pathname).to.equal('/team');
    return page;
  }

  it('when posts are held, then the inbox has a Held tab with its count; a approves and r rejects the focused post, a bulk reject with block stops the author, and its Unblock button lets them post again; axe passes', async () => {
    const team = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
    expect((await request(team, 'PATCH', '/api/v1/board', { body: { moderation: 'all' } })).status).to.equal(200);
    // A key first used after the change: its cached project holds the setting.
    const site = { url: server.url, apiKey: await server.newKey(undefined, 'public') };
    const held: string[] = [];
    for (const [title, externalId] of [['Approve me by keyboard', 'kb-1'], ['Reject me by keyboard', 'kb-2'], ['Spam by the bulk form', 'kb-spammer']] as const) {
      const res = await request(site, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId } } });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      held.push(res.body.feedback.id);
    }

    const page = await signedIn();
    const tab = page.getByRole('link', { name: 'Held 3 posts', exact: true });
    await tab.click();
    await page.waitForURL(`${server.url}/team/held`);
    expect(await page.locator('.item').count()).to.equal(3);
    await expectAccessible(page);
    await screenshot(page, 'held-1280');

    // j focuses the first (oldest) post, a approves it.
    await page.keyboard.press('j');
    await page.keyboard.press('a');
    await page.waitForURL(/approved=1/);
    expect(await page.locator('p.notice[role="status"]').innerText()).to.equal('1 post approved.');
    expect((await request(site, 'GET', `/api/v1/feedback/${held[0]}`)).status).to.equal(200);

    await page.keyboard.press('j');
    await page.keyboard.press('r');
    await page.waitForURL(/rejected=1/);
    expect(await page.locator('p.notice[role="status"]').innerText()).to.equal('1 post rejected.');
    expect(await page.locator('.item').count()).to.equal(1);

    await page.check('#select-all');
    await page.check('#block');
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.waitForURL(/blocked=1/);
    expect(await page.locator('p.notice[role="status"]').innerText()).to.equal('1 post rejected. 1 author blocked.');
    expect(await page.getByText('Nothing is waiting for approval.').isVisible()).to.equal(true);
    await expectAccessible(page);
    await screenshot(page, 'held-done-1280');

    const again = await request(site, 'POST', '/api/v1/feedback', { body: { title: 'Spam again', endUser: { externalId: 'kb-spammer' } } });
    expect(again.status).to.equal(403);
    expect((await request(team, 'GET', '/api/v1/moderation')).body.total).to.equal(0);
    const list = (await request(site, 'GET', '/api/v1/feedback?search=keyboard')).body;
    expect(list.items.map((item: { id: string }) => item.id)).to.deep.equal([held[0]]);

    // Issue 49: the block is listed below the queue, and its Unblock button lifts it.
    const blocks = page.locator('#blocks [data-block]');
    expect(await blocks.count()).to.equal(1);
    expect(await blocks.first().innerText()).to.include('kb-spammer').and.include('until lifted').and.include('Spam by the bulk form');
    await page.getByRole('button', { name: 'Unblock kb-spammer', exact: true }).click();
    await page.waitForURL(/unblocked=1/);
    expect(await page.locator('p.notice[role="status"]').innerText()).to.equal('1 author unblocked: they may post again.');
    expect(await page.getByText('No author is blocked.').isVisible()).to.equal(true);
    await expectAccessible(page);
    const back = await request(site, 'POST', '/api/v1/feedback', { body: { title: 'Back after the block', endUser: { externalId: 'kb-spammer' } } });
    expect(back.status).to.equal(202);
  });

  it('when the decision is sent with nothing selected, then the Held view comes back (400) saying to select a post', async () => {
    const team = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
    expect((await request(team, 'PATCH', '/api/v1/board', { body: { moderation: 'all' } })).status).to.equal(200);
    const site = { url: server.url, apiKey: await server.newKey(undefined, 'public') };
    const res = await request(site, 'POST', '/api/v1/feedback', { body: { title: 'Left alone' } });
    expect(res.status).to.equal(202);
    const page = await signedIn();
    await page.goto(`${server.url}/team/held`);
    // The refused form's 400 is this test's point, not a console error.
    chrome.watched.expectRefusal(`${server.url}/team/held`);
    const [answer] = await Promise.all([page.waitForResponse((r) => r.url() === `${server.url}/team/held` && r.request().method() === 'POST'), page.getByRole('button', { name: 'Approve', exact: true }).click()]);
    expect(answer.status()).to.equal(400);
    expect(await page.locator('[data-error-summary]').innerText()).to.include('Select at least one post.');
    await expectAccessible(page);
    await request(team, 'POST', '/api/v1/moderation/reject', { body: { ids: [res.body.feedback.id] } });
  });
});
