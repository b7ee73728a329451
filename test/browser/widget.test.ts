import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { signBoardToken } from '@feedbackd/sdk/board';
import { changeIdentitySecret, setWidget } from '@feedbackd/server';
import type { Frame, Page } from 'playwright-core';
import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot, waitInPage } from '../helpers/browser.js';
import { request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/**
 * Chromium's switch that blocks third-party cookies as it will by default: the panel (on
 * localhost) inside the host page (on 127.0.0.1) is cross-site, so no cookie of ours would reach it.
 */
const BLOCK_THIRD_PARTY_COOKIES = '--test-third-party-cookie-phaseout';

interface Host {
  origin: string;
  /** How many tokens the host's backend was asked for. */
  tokens: number;
  close(): Promise<void>;
}

/**
 * A host app of our own on 127.0.0.1, with a strict CSP: scripts and frames of the feedback
 * server only, nothing inline, no style at all; `/token` signs its user's token as a host
 * backend would (none when `user` is not given).
 */
async function hostApp(feedback: string, secret: () => string | undefined, user?: { externalId: string; name: string }, loader = 'data-label="Feedback"', content = ''): Promise<Host> {
  let tokens = 0;
  const page: Server = createServer((req, res) => {
    if (req.url === '/token') {
      tokens += 1;
      const key = secret();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ token: user && key ? signBoardToken({ project: 'default', secret: key, user }) : '' }));
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src ${feedback}; frame-src ${feedback}; connect-src 'self'; base-uri 'none'`,
    });
    res.end(`<!doctype html><html lang="en"><head><title>Host app</title></head><body><main><h1>Host app</h1><p id="content">The host's own page.</p><a href="#content" id="before">A link of the host</a>${content}</main>
<script src="${feedback}/w/loader.js" data-project="default" data-token-url="/token" ${loader}></script></body></html>`);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(page.address() as { port: number }).port}`,
    get tokens() {
      return tokens;
    },
    close: () => new Promise((resolve) => page.close(() => resolve())),
  };
}

/** The widget in headless Chromium, the host on one origin and the panel on another (docs/widget.md). */
const backend = oneBackend();

describe(`widget in a browser (${backend.name})`, function () {
  const chrome = browserSuite([BLOCK_THIRD_PARTY_COOKIES]);
  const server = withServer(backend);
  let feedback: string;
  let secret: string | undefined;
  let secretKey: string;
  const hosts: Host[] = [];

  before(async () => {
    // The panel's origin: another name for the test server, so host and panel are different sites.
    feedback = server.url.replace('127.0.0.1', 'localhost');
    secretKey = await server.newKey(undefined, 'secret');
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });

  /** A host app allowed to show the widget (and the panel's cache turned over to see it). */
  async function allowedHost(user?: { externalId: string; name: string }, loader?: string, content?: string): Promise<Host> {
    const host = await hostApp(feedback, () => secret, user, loader, content);
    hosts.push(host);
    await setWidget(server.server.orm.em.fork(), 'default', true, [host.origin]);
    await until(async () => (await fetch(`${server.url}/w/default?origin=${encodeURIComponent(host.origin)}`)).status === 200);
    return host;
  }

  async function openByKeyboard(page: Page): Promise<Frame> {
    await page.focus('#before');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).to.equal('Feedback');
    await page.keyboard.press('Enter');
    const frame = await frameOf(page);
    await frame.waitForSelector('[data-main] h1');
    return frame;
  }

  async function frameOf(page: Page): Promise<Frame> {
    await page.waitForSelector('iframe');
    await until(() => page.frames().some((frame) => frame.url().startsWith(`${feedback}/w/default`)), 10_000, 'the panel frame');
    return page.frames().find((frame) => frame.url().startsWith(`${feedback}/w/default`))!;
  }

  it('when the host page has a strict CSP, then the loader alone is fetched until the button is used, the panel opens and closes by keyboard with focus moved in and back, and nothing shifts', async () => {
    const host = await allowedHost();
    const page = await chrome.watched.newPage();
    const fetched: string[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith(feedback)) fetched.push(new URL(req.url()).pathname);
    });
    await page.goto(host.origin);
    await page.waitForSelector('button[aria-haspopup="dialog"]');
    const before = await page.evaluate('JSON.stringify(document.getElementById("content").getBoundingClientRect())');
    expect(fetched, 'only the loader before a click').to.deep.equal(['/w/loader.js']);
    await expectAccessible(page);

    const frame = await openByKeyboard(page);
    expect(await page.getAttribute('button[aria-haspopup="dialog"]', 'aria-expanded')).to.equal('true');
    await until(async () => (await frame.evaluate('document.activeElement && document.activeElement.getAttribute("data-tab")')) === 'feedback', 5_000, 'focus on the panel\'s current tab');
    expect(await page.evaluate('JSON.stringify(document.getElementById("content").getBoundingClientRect())'), 'no layout shift').to.equal(before);
    await screenshot(page, 'widget-open');
    // A message that is not the panel's (here the host page's own, to itself) does not close it.
    // (The test's listener, added after the loader's, runs after it: once it has, the loader has seen the message.)
    await page.evaluate('new Promise((resolve) => { window.addEventListener("message", () => resolve(), { once: true }); window.postMessage({ type: "feedback:close" }, "*"); })');
    expect(await page.isVisible('iframe'), 'a message from elsewhere is ignored').to.equal(true);

    await page.keyboard.press('Escape');
    await until(async () => (await page.evaluate('document.activeElement.textContent')) === 'Feedback', 5_000, 'focus back on the button');
    expect(await page.isVisible('iframe')).to.equal(false);
    expect(await page.getAttribute('button[aria-haspopup="dialog"]', 'aria-expanded')).to.equal('false');
  });

  it('when a visitor types a title like an existing item, then the hint offers to vote instead; and a new title is sent; and the board\'s vote toggles; and every tab passes axe', async () => {
    const existing = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Widget browser: offline mode', endUser: { externalId: 'widget-browser' } } });
    await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Widget browser: a board item', endUser: { externalId: 'widget-browser-2' } } });
    const host = await allowedHost();
    const page = await chrome.watched.newPage();
    await page.goto(host.origin);
    const frame = await openByKeyboard(page);
    await expectAccessible(frame);

    await frame.fill('#title', 'offline mode');
    const similarVote = frame.locator('[data-similar] .vote-button');
    await similarVote.waitFor();
    expect(await frame.textContent('[data-similar]')).to.include('Widget browser: offline mode');
    await similarVote.click();
    await until(async () => (await similarVote.getAttribute('aria-pressed')) === 'true', 5_000, 'the vote instead');
    const item = await request(server, 'GET', `/api/v1/feedback/${existing.body.feedback.id}`);
    expect(item.body.feedback.voteCount).to.equal(2);

    await frame.fill('#title', 'Widget browser: a keyboard shortcut to send');
    await frame.click('button[value="send"]');
    await frame.waitForSelector('.notice');
    expect(await frame.textContent('.notice')).to.include('Thank you');
    const listed = await request(server, 'GET', `/api/v1/feedback?search=${encodeURIComponent('keyboard shortcut to send')}`);
    expect(listed.body.total).to.equal(1);

    await frame.click('[data-tab="board"]');
    await frame.waitForSelector('[data-tab="board"][aria-current="page"]');
    // The item sent above is voted for already (a submitter votes for their own): another one is voted here.
    expect(await frame.locator('.items li', { hasText: 'a keyboard shortcut to send' }).locator('.vote-button').getAttribute('aria-pressed')).to.equal('true');
    const row = frame.locator('.items li', { hasText: 'a board item' });
    await row.locator('.vote-button').click();
    await until(async () => (await row.locator('.vote-button').getAttribute('aria-pressed')) === 'true', 5_000, 'the board vote');
    expect((await row.locator('[data-count]').textContent())?.trim()).to.equal('2');
    await expectAccessible(frame);
    await screenshot(page, 'widget-board');
    for (const tab of ['changes', 'mine']) {
      await frame.click(`[data-tab="${tab}"]`);
      await frame.waitForSelector(`[data-tab="${tab}"][aria-current="page"]`);
      await expectAccessible(frame);
    }
  });

  it("when a bot fills the widget's honeypot (issue 49: the widget's form had no bot defences), then the post is refused with the reason and everything typed kept; the form as a person sends it goes out, twice in a row", async () => {
    const host = await allowedHost();
    const page = await chrome.watched.newPage();
    chrome.watched.expectRefusal(`${feedback}/w/default/new`);
    await page.goto(host.origin);
    const frame = await openByKeyboard(page);
    const trap = await frame.locator('input[name="website"]').boundingBox();
    expect(trap!.x + trap!.width, 'the honeypot is off screen (not display:none, which some bots skip)').to.be.at.most(0);
    await frame.fill('#title', 'Widget browser: bot bait');
    await frame.fill('#description', 'Cheap things');
    await frame.evaluate('document.querySelector(\'input[name="website"]\').value = "https://spam.example"');
    await frame.click('button[value="send"]');
    await frame.waitForSelector('.error-summary, [role="alert"]');
    expect(await frame.textContent('[data-main]')).to.include('a field that must stay empty was filled in');
    expect(await frame.inputValue('#title')).to.equal('Widget browser: bot bait');
    expect(await frame.inputValue('#description')).to.equal('Cheap things');
    expect((await request(server, 'GET', `/api/v1/feedback?search=${encodeURIComponent('bot bait')}`)).body.total).to.equal(0);

    // The form came back with an empty honeypot and a new stamp: sent as it is, it goes out.
    await frame.click('button[value="send"]');
    await frame.waitForSelector('.notice');
    expect(await frame.textContent('.notice')).to.include('Thank you');
    await frame.fill('#title', 'Widget browser: a second idea in a row');
    await frame.click('button[value="send"]');
    await until(async () => (await request(server, 'GET', `/api/v1/feedback?search=${encodeURIComponent('second idea in a row')}`)).body.total === 1, 10_000, 'the second post, on the next stamp');
    expect((await request(server, 'GET', `/api/v1/feedback?search=${encodeURIComponent('bot bait')}`)).body.total).to.equal(1);
  });

  it('when an identified visitor opens the widget with third-party cookies blocked, then My requests shows their items and marks a status change since their last visit', async () => {
    secret = ((await changeIdentitySecret(server.server.orm.em.fork(), 'default', 'rotate')) as { secret: string }).secret;
    const host = await allowedHost({ externalId: 'widget-browser-ada', name: 'Ada' });
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Widget browser: Ada\'s request', endUser: { externalId: 'widget-browser-ada' } } });
    const page = await chrome.watched.newPage();
    await page.goto(host.origin);
    const frame = await openByKeyboard(page);
    await frame.waitForSelector('text=Signed in as Ada');
    await frame.click('[data-tab="mine"]');
    await frame.waitForSelector('[data-tab="mine"][aria-current="page"]');
    expect(await frame.textContent('[data-main]')).to.include('Widget browser: Ada\'s request');
    expect(await frame.locator('.unread').count(), 'nothing new yet').to.equal(0);
    expect(await page.context().cookies(feedback), 'the panel holds no cookie').to.deep.equal([]);

    expect((await request(server, 'PATCH', `/api/v1/feedback/${created.body.feedback.id}`, { apiKey: secretKey, body: { status: 'in-progress' } })).status).to.equal(200);
    await frame.click('[data-tab="board"]');
    await frame.waitForSelector('[data-tab="board"][aria-current="page"]');
    await frame.click('[data-tab="mine"]');
    await frame.waitForSelector('.unread');
    expect(await frame.textContent('.unread')).to.include('New: now In progress');
    await expectAccessible(frame);
    await screenshot(page, 'widget-mine');

    // Renewal: the panel asks the loader (as it does a minute before its session ends), the loader asks the host's backend again, and the new session still names Ada.
    const spent = async () => Number((await server.sql<{ n: string }>('select count(*) as n from board_spent_tokens'))[0]!.n);
    const [asked, exchanged] = [host.tokens, await spent()];
    await frame.evaluate(`parent.postMessage({ type: 'feedback:token-needed' }, ${JSON.stringify(host.origin)})`);
    await until(() => host.tokens === asked + 1, 5_000, 'a second token from the host');
    await until(async () => (await spent()) === exchanged + 1, 5_000, 'the panel exchanging the new token');
    await frame.waitForSelector('text=Signed in as Ada');
  });

  it('when the host names its own trigger, a dark theme and French, then no button is added, and the panel opens from that element, dark and in French, and passes axe', async () => {
    const host = await allowedHost(undefined, 'data-trigger="#help" data-theme="dark" data-locale="fr"', '<button id="help" type="button">Help and feedback</button>');
    const page = await chrome.watched.newPage();
    await page.goto(host.origin);
    await waitInPage(page, () => (globalThis as unknown as { FeedbackWidget?: unknown }).FeedbackWidget !== undefined, 'the widget loaded');
    expect(await page.locator('button').count(), 'the host\'s button only').to.equal(1);
    await page.focus('#help');
    await page.keyboard.press('Enter');
    const frame = await frameOf(page);
    await frame.waitForSelector('[data-main] h1');
    expect(await frame.getAttribute('html', 'data-theme')).to.equal('dark');
    expect(await frame.getAttribute('html', 'lang')).to.equal('fr');
    expect(await frame.textContent('[data-tab="feedback"]')).to.equal('Donner un avis');
    expect(await frame.evaluate('getComputedStyle(document.body).backgroundColor')).to.equal('rgb(13, 17, 23)');
    await expectAccessible(frame);
    await screenshot(page, 'widget-dark-fr');
    await page.keyboard.press('Escape');
    await until(async () => (await page.evaluate('document.activeElement.id')) === 'help', 5_000, 'focus back on the host\'s trigger');
  });

  it('when a host origin the operator did not allow frames the panel, then the browser refuses it and no visitor data is shown', async () => {
    await allowedHost();
    const stranger = await hostApp(feedback, () => secret, { externalId: 'widget-browser-ada', name: 'Ada' });
    hosts.push(stranger);
    const page = await chrome.watched.newPage();
    await page.goto(stranger.origin);
    await page.click('button[aria-haspopup="dialog"]');
    await until(() => page.frames().length > 1, 5_000, 'the frame');
    const framed = page.frames().find((frame) => frame !== page.mainFrame())!;
    await until(() => framed.url() === 'chrome-error://chromewebdata/', 5_000, 'Chromium refusing the frame');
    expect(await framed.content()).not.to.include('Signed in as Ada');
    const blocked = chrome.watched.errors.filter((e) => e.includes('frame-ancestors'));
    expect(blocked, 'Chromium refused the frame for its CSP').to.have.length.greaterThan(0);
    // The refusal itself, seen in the console: the CSP's and the 403 of the panel asked for by that origin.
    const refusal = (e: string) => e.includes('frame-ancestors') || (e.includes('status of 403') && e.includes('chrome-error://'));
    chrome.watched.errors.splice(0, chrome.watched.errors.length, ...chrome.watched.errors.filter((e) => !refusal(e)));
  });
});
