import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { boardSignInLink } from '@feedbackd/sdk/board';
import { changeIdentitySecret } from '@feedbackd/server';
import type { Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite } from '../helpers/browser.js';
import { request, withServer, SHORT_BOARD_PROJECT_CACHE_TTL_MS } from '../helpers/test-server.js';

/**
 * Issue 37's findings on the pages, in Chromium: a return path that climbs out of the board (the
 * open redirect), and a name that ends in a right-to-left override (bidi isolation).
 */

/** Another origin (localhost, where the board is on 127.0.0.1) that counts the requests it gets. */
async function elsewhere(): Promise<{ origin: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const site: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><html lang="en"><title>Elsewhere</title><h1>Elsewhere</h1></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(site.address() as { port: number }).port}`,
    requests,
    close: () => new Promise((resolve) => site.close(() => resolve())),
  };
}

/** The left edge of each character of the first text node in `selector`, as laid out: increasing when it reads left to right. */
function characterLefts(page: Page, selector: string): Promise<number[]> {
  // A string, evaluated in the page: the tests are compiled without the DOM's types.
  return page.evaluate(`(() => {
    const text = document.querySelector(${JSON.stringify(selector)}).firstChild;
    const lefts = [];
    for (let i = 0; i < text.length; i++) {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      lefts.push(range.getBoundingClientRect().left);
    }
    return lefts;
  })()`) as Promise<number[]>;
}

const backend = oneBackend();

describe(`board edges in a browser (${backend.name})`, function () {
  const chrome = browserSuite();
  const server = withServer(backend, { boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });
  let site: Awaited<ReturnType<typeof elsewhere>>;

  before(async () => {
    site = await elsewhere();
  });
  after(async () => site?.close());

  async function item(title: string): Promise<string> {
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId: 'edges' } } });
    expect(created.status).to.equal(201);
    return created.body.feedback.id as string;
  }

  it("when a sign-in link's `to` is changed by hand to climb out of the board (`..`, `%2e%2e`), then Chromium lands on the board, on our origin, and the other site gets no request (issue 37: open redirect)", async () => {
    const made = (await changeIdentitySecret(server.server.orm.em.fork(), 'default', 'rotate')) as { secret: string };
    await server.boardSettingsSeen();
    const host = new URL(site.origin).host;
    const climbs = [`/b/default/../..//${host}/`, `/b/default/%2e%2e/%2E%2E//${host}/`, `/b/default/.%2e/%2e./%2f/${host}/`, `/b/default/..\\..\\/${host}/`];
    for (const [n, to] of climbs.entries()) {
      // The host app's user takes a fresh link of their own and changes `to`, which the token does not cover.
      const link = new URL(boardSignInLink({ serverUrl: server.url, project: 'default', secret: made.secret, user: { externalId: `climber-${n}` } }));
      link.searchParams.set('to', to);
      const page = await chrome.watched.newPage();
      await page.goto(link.toString());
      expect(new URL(page.url()).origin, to).to.equal(server.url);
      expect(new URL(page.url()).pathname, to).to.equal('/b/default');
      expect(await page.locator('.signed-in').textContent(), to).to.include(`climber-${n}`);
      await page.close();
    }
    expect(site.requests, 'the other site was never reached').to.deep.equal([]);
  });

  it("when a vote form's `return` is changed to climb out of the board, then Chromium comes back to the item, on our origin (issue 37: open redirect)", async () => {
    const id = await item('Vote that climbs');
    const page = await chrome.watched.newPage();
    await page.goto(`${server.url}/b/default/items/${id}`);
    const host = new URL(site.origin).host;
    // The form as a visitor's own browser could be made to send it: posted as a form (no script in between).
    await page.evaluate(`(() => {
      const form = document.querySelector('form[data-vote]');
      form.removeAttribute('data-vote');
      form.querySelector('input[name="return"]').value = '/b/default/%2e%2e/..//${host}/';
    })()`);
    // The page the browser loads after the vote's 303, wherever that is.
    const [landed] = await Promise.all([page.waitForResponse((r) => r.request().redirectedFrom()?.url().endsWith('/vote') === true), page.click('.vote-button')]);
    expect(landed.url()).to.equal(`${server.url}/b/default/items/${id}`);
    await page.waitForLoadState();
    expect(new URL(page.url()).origin).to.equal(server.url);
    expect(await page.locator('.vote-button').getAttribute('aria-pressed'), 'the vote was counted').to.equal('true');
    expect(site.requests).to.deep.equal([]);
  });

  it('when a commenter\'s name ends in U+202E (right-to-left override), then the date beside it still reads left to right, after the name (issue 37: bidi)', async () => {
    const id = await item('Bidi names');
    const commented = await request(server, 'POST', `/api/v1/feedback/${id}/comments`, {
      apiKey: await server.newKey(undefined, 'secret'),
      body: { content: 'Looks good\u202e', endUser: { externalId: 'mallory', name: 'Mallory\u202e' } },
    });
    expect(commented.status, JSON.stringify(commented.body)).to.equal(201);
    const page = await chrome.watched.newPage();
    await page.goto(`${server.url}/b/default/items/${id}`);
    const date = page.locator('.comment time').first();
    const text = (await date.textContent())!;
    // The date as English writes it ("Nov 27, 2026"), whole and after the name.
    expect(text).to.match(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    const lefts = await characterLefts(page, '.comment time');
    expect(lefts, `each character of ${text} right of the one before`).to.deep.equal([...lefts].sort((a, b) => a - b));
    expect(new Set(lefts).size, 'no two characters in one place').to.equal(text.length);
    const name = (await page.locator('.comment strong').first().boundingBox())!;
    const when = (await date.boundingBox())!;
    expect(when.x, 'the date is right of the name').to.be.greaterThan(name.x + name.width - 1);
  });
});
