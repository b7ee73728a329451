import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, watchedContext } from '../helpers/browser.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, withServer, locationOf } from '../helpers/test-server.js';

/** Triage in headless Chromium (docs/triage.md): sign in by a link from `feedback open`, the inbox and its bulk change, sign-out, refusals. */
const backend = oneBackend();

describe(`triage in a browser (${backend.name})`, function () {
  // First, so that without Chromium the suite is skipped before its server starts.
  const chrome = browserSuite();
  const server = withServer(backend);
  let secretKey: string;

  before(async () => {
    secretKey = await server.newKey(undefined, 'secret');
  });


  /** The link `feedback open --print` prints for the test server, on its database. */
  async function printedLink(): Promise<string> {
    const run = await inProcess(['open', '--print', '--url', server.url, ...locationOf(server)]);
    expect(run.code, run.stderr).to.equal(0);
    return run.stdout.trim();
  }

  async function signIn(page: Page): Promise<void> {
    await page.goto(await printedLink());
    expect(new URL(page.url()).pathname).to.equal('/team');
  }

  async function submitApi(title: string): Promise<string> {
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId: 'triage-test' } } });
    expect(created.status).to.equal(201);
    return created.body.feedback.id as string;
  }

  it('when a member opens the link `feedback open --print` printed, then the inbox shows, and the same link opened again is refused with a page that says how to get another', async () => {
    const link = await printedLink();
    const page = await chrome.watched.newPage();
    await page.goto(link);
    expect(new URL(page.url()).pathname).to.equal('/team');
    expect(await page.locator('h1').textContent()).to.equal('Inbox');
    expect(await page.locator('#status').inputValue(), 'new items first').to.equal('new');
    await expectAccessible(page);

    const other = await watchedContext(chrome.browser);
    try {
      const second = await other.newPage();
      other.expectRefusal(link);
      const response = await second.goto(link);
      expect(response?.status()).to.equal(410);
      expect(await second.locator('h1').textContent()).to.equal('This sign-in link no longer works');
      expect(await second.locator('main').textContent()).to.include('feedback open');
      await expectAccessible(second);
      expect(other.errors).to.deep.equal([]);
    } finally {
      await other.close();
    }
  });

  it('when a member selects several items and changes their status, then the API and the public board show the new status at once', async () => {
    const marker = `Triage ${Date.now()}`;
    const first = await submitApi(`${marker} first`);
    const second = await submitApi(`${marker} second`);
    const third = await submitApi(`${marker} third`);
    const page = await chrome.watched.newPage();
    await signIn(page);
    await page.fill('#search', marker);
    await page.click('button:has-text("Apply")');
    expect(await page.locator('.item-title a').allTextContents()).to.deep.equal([`${marker} third`, `${marker} second`, `${marker} first`]);
    await page.check(`#select-${first}`);
    await page.getByLabel(`Select “${marker} second”`).check();
    await page.selectOption('#new-status', 'planned');
    await page.click('button:has-text("Change status")');
    await page.waitForSelector('.notice');
    expect(await page.locator('.notice').textContent()).to.equal('2 items moved to Planned.');
    expect(await page.locator('.item-title a').allTextContents(), 'the inbox still lists the new ones').to.deep.equal([`${marker} third`]);
    await expectAccessible(page);

    for (const id of [first, second]) {
      const item = await request(server, 'GET', `/api/v1/feedback/${id}`, { apiKey: secretKey });
      expect(item.body.feedback.status).to.equal('planned');
      expect(item.body.feedback.statusHistory.at(-1).actor).to.match(/^team session [0-9a-f-]{36}$/);
    }
    expect((await request(server, 'GET', `/api/v1/feedback/${third}`)).body.feedback.status).to.equal('new');
    const board = await chrome.watched.newPage();
    await board.goto(`${server.url}/b/default/roadmap`);
    const planned = await board.locator('section.column[aria-labelledby="column-planned"]').textContent();
    expect(planned).to.include(`${marker} first`).and.include(`${marker} second`).and.not.include(`${marker} third`);
  });

  it('when a member opens an item, changes its status with a comment and replies, then the public board and the API show both at once', async () => {
    const id = await submitApi('Item view in a browser');
    const page = await chrome.watched.newPage();
    await signIn(page);
    await page.fill('#search', 'Item view in a browser');
    await page.click('button:has-text("Apply")');
    await page.click('a:has-text("Item view in a browser")');
    expect(new URL(page.url()).pathname).to.equal(`/team/items/${id}`);
    await expectAccessible(page);
    await page.selectOption('#status', 'planned');
    await page.fill('#comment', 'Planned for the spring.');
    await page.click('button:has-text("Save status")');
    expect(await page.locator('.notice').textContent()).to.equal('Saved: the status is Planned.');
    expect(await page.locator('.timeline').textContent()).to.include('Moved from New to Planned');
    await page.fill('#reply', 'We will write here when it ships.');
    await page.click('button:has-text("Post reply")');
    expect(await page.locator('.notice').textContent()).to.equal('Your reply is posted.');
    await expectAccessible(page);

    const api = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
    expect(api.status).to.equal('planned');
    expect(api.comments.map((c: { content: string }) => c.content)).to.deep.equal(['Planned for the spring.', 'We will write here when it ships.']);
    await page.click('a:has-text("See it on the public board")');
    expect(new URL(page.url()).pathname).to.equal(`/b/default/items/${id}`);
    expect(await page.locator('.comment.team').count()).to.equal(2);
    expect(await page.locator('.meta').first().textContent()).to.include('Planned');
  });

  it('when a member merges a duplicate found by search and deletes another item after confirming, then the counts are the API\'s and the items are gone', async () => {
    const marker = `Merge ${Date.now()}`;
    const original = await submitApi(`${marker} original`);
    const duplicate = (await request(server, 'POST', '/api/v1/feedback', { body: { title: `${marker} duplicate`, endUser: { externalId: 'someone-else' } } })).body.feedback.id as string;
    const doomed = await submitApi(`${marker} to delete`);
    const page = await chrome.watched.newPage();
    await signIn(page);
    await page.goto(`${server.url}/team/items/${duplicate}`);
    await page.fill('#merge-search', `${marker} original`);
    await page.click('button:has-text("Find")');
    await page.getByLabel(`${marker} original`).check();
    await expectAccessible(page);
    await page.click('button:has-text("Merge this item into the chosen one")');
    expect(new URL(page.url()).pathname).to.equal(`/team/items/${original}`);
    expect(await page.locator('.notice').textContent()).to.include('Merged');
    const target = (await request(server, 'GET', `/api/v1/feedback/${original}`)).body.feedback;
    expect(target.voteCount, 'two different voters').to.equal(2);
    expect(await page.locator('.hint').first().textContent()).to.include(`${target.voteCount} votes`);
    expect((await request(server, 'GET', `/api/v1/feedback/${duplicate}`)).status).to.equal(404);

    await page.goto(`${server.url}/team/items/${doomed}`);
    await page.click('a:has-text("Delete this item")');
    expect(await page.locator('h1').textContent()).to.equal(`Delete “${marker} to delete”?`);
    await expectAccessible(page);
    expect((await request(server, 'GET', `/api/v1/feedback/${doomed}`)).status, 'not before the confirmation').to.equal(200);
    await page.click('button:has-text("Delete for good")');
    expect(new URL(page.url()).pathname).to.equal('/team');
    expect(await page.locator('.notice').textContent()).to.equal('The item was deleted.');
    expect((await request(server, 'GET', `/api/v1/feedback/${doomed}`)).status).to.equal(404);
  });

  it('when a member triages by keyboard, then j/k move, x selects, s reaches the status, r and m reach the reply and the merge, and ? lists them all', async () => {
    const marker = `Keys ${Date.now()}`;
    const first = await submitApi(`${marker} one`);
    const second = await submitApi(`${marker} two`);
    const third = await submitApi(`${marker} three`);
    const page = await chrome.watched.newPage();
    await signIn(page);
    await page.goto(`${server.url}/team?search=${encodeURIComponent(marker)}`);
    expect(await page.locator('[data-shortcuts-hint]').isVisible(), 'the hint shows where the script runs').to.equal(true);

    await page.keyboard.press('?');
    const dialog = page.locator('dialog#shortcuts');
    expect(await dialog.isVisible()).to.equal(true);
    expect(await dialog.textContent()).to.include('Next item').and.include('Merge into another item');
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).to.equal(false);

    // Newest first: three, two, one. Select three and one.
    for (const key of ['j', 'x', 'j', 'j', 'x', 'k']) await page.keyboard.press(key);
    expect(await page.evaluate('document.activeElement?.textContent')).to.equal(`${marker} two`);
    expect(await page.isChecked(`#select-${third}`)).to.equal(true);
    expect(await page.isChecked(`#select-${second}`)).to.equal(false);
    expect(await page.isChecked(`#select-${first}`)).to.equal(true);
    await page.keyboard.press('s');
    expect(await page.evaluate('document.activeElement?.id')).to.equal('new-status');
    await page.selectOption('#new-status', 'closed');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.notice');
    expect(await page.locator('.notice').textContent()).to.equal('2 items moved to Closed.');
    for (const [id, status] of [[first, 'closed'], [second, 'new'], [third, 'closed']] as const) {
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.status, id).to.equal(status);
    }

    await page.keyboard.press('j');
    await page.keyboard.press('r');
    await page.waitForURL((url) => url.pathname === `/team/items/${second}`);
    await page.locator('#reply:focus').waitFor();
    await page.keyboard.type('Typed without a mouse.');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.notice');
    expect((await request(server, 'GET', `/api/v1/feedback/${second}`)).body.feedback.comments[0].content).to.equal('Typed without a mouse.');
    await page.keyboard.press('m');
    expect(await page.evaluate('document.activeElement?.id')).to.equal('merge-search');
    await page.keyboard.press('Escape');
    await page.locator('h1').click();
    await page.keyboard.press('s');
    expect(await page.evaluate('document.activeElement?.id'), 'on an item page, its own status').to.equal('status');
  });

  it('when another site\'s page posts a status change to the team\'s pages of a signed-in member, then it is refused with a 403 page and nothing changes', async () => {
    const id = await submitApi('Forged triage');
    const page = await chrome.watched.newPage();
    await signIn(page);
    const evil: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html lang="en"><title>Elsewhere</title><form method="post" action="${server.url}/team/items/status"><input type="hidden" name="id" value="${id}"><input type="hidden" name="status" value="closed"><button>Win a prize</button></form></html>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    try {
      const port = (evil.address() as { port: number }).port;
      chrome.watched.expectRefusal(`${server.url}/team/items/status`);
      await page.goto(`http://127.0.0.1:${port}/`);
      const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/team/items/status')), page.click('button')]);
      expect(response.status()).to.equal(403);
      await page.waitForLoadState();
      expect(await page.locator('h1').textContent()).to.equal('This form cannot be sent from there');
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.status).to.equal('new');
    } finally {
      await new Promise((resolve) => evil.close(resolve));
    }
  });

  it('when a member signs out, then the session is ended on the server: its cookie, put back, no longer opens the inbox', async () => {
    const page = await chrome.watched.newPage();
    await signIn(page);
    const [cookie] = await chrome.watched.context.cookies(server.url + '/team');
    expect(cookie).to.include({ name: 'feedback_team', httpOnly: true, sameSite: 'Lax', path: '/team' });
    await page.click('button:has-text("Sign out")');
    await page.waitForURL((url) => url.pathname === '/team/sign-in');
    expect(await page.locator('.notice').textContent()).to.equal('You have signed out.');
    await expectAccessible(page);
    await chrome.watched.context.addCookies([cookie!]);
    await page.goto(`${server.url}/team`);
    expect(new URL(page.url()).pathname).to.equal('/team/sign-in');
    expect(await page.locator('.notice').textContent()).to.include('Your session has ended');
  });

  it('when a member signs in with a secret key and that key is revoked, then the next page is the sign-in page; a public key is refused and never shown back', async () => {
    const key = await server.newKey(undefined, 'secret');
    const page = await chrome.watched.newPage();
    await page.goto(`${server.url}/team/sign-in`);
    await expectAccessible(page);
    chrome.watched.expectRefusal(`${server.url}/team/sign-in`);
    await page.fill('#key', server.apiKey);
    await page.click('button:has-text("Sign in")');
    expect(await page.locator('.error-summary').textContent()).to.include('public key');
    expect(await page.inputValue('#key'), 'the key is not filled back in').to.equal('');
    expect(await page.content()).not.to.include(server.apiKey.slice(3));
    await expectAccessible(page);

    await page.fill('#key', key);
    await page.click('button:has-text("Sign in")');
    expect(new URL(page.url()).pathname).to.equal('/team');
    expect(await page.content(), 'no part of the key on the inbox').not.to.include(key.slice(3, 12));
    const revoked = await inProcess(['keys', 'revoke', key, ...locationOf(server)]);
    expect(revoked.code, revoked.stderr).to.equal(0);
    await page.reload();
    expect(new URL(page.url()).pathname).to.equal('/team/sign-in');
    expect(await page.locator('.notice').textContent()).to.include('its key was revoked');
  });
});
