import { expect } from 'chai';
import { boardSignInLink } from '@feedbackd/sdk/board';
import { changeIdentitySecret, setAnonymousComments } from '@feedbackd/server';

import { oneBackend } from '../helpers/backends.js';
import { browserSuite, expectAccessible, screenshot, watchedContext } from '../helpers/browser.js';
import { inProcess } from '../helpers/cli-process.js';
import { locationOf, request, withServer, type TestServer, SHORT_BOARD_PROJECT_CACHE_TTL_MS } from '../helpers/test-server.js';

/** The conversation on an item (docs/board.md, "Conversation"; docs/triage.md) in headless Chromium, with and without JavaScript. */

async function newItem(server: TestServer, title: string): Promise<string> {
  const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, description: 'Numbers in the report should add up.', endUser: { externalId: 'thread-submitter', name: 'Sam Submitter' } } });
  expect(created.status).to.equal(201);
  return created.body.feedback.id as string;
}

async function commentsOf(server: TestServer, id: string): Promise<{ id: string; content: string; parentId: string | null; isPinned?: boolean }[]> {
  return (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments;
}

const backend = oneBackend();

describe(`board conversation in a browser (${backend.name})`, function () {
  // First, so that without Chromium the suite is skipped before its server starts.
  const chrome = browserSuite();
  const server = withServer(backend, { boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });
  let secretKey: string;
  let identity: string;

  before(async () => {
    secretKey = await server.newKey(undefined, 'secret');
    identity = ((await changeIdentitySecret(server.server.orm.em.fork(), 'default', 'rotate')) as { secret: string }).secret;
    await setAnonymousComments(server.server.orm.em.fork(), 'default', true);
    await server.boardSettingsSeen();
  });

  const signInUrl = (externalId: string, name: string, id: string) =>
    boardSignInLink({ serverUrl: server.url, project: 'default', secret: identity, user: { externalId, name }, returnTo: `/b/default/items/${id}` });

  it('when a visitor comments and replies with JavaScript, then each appears in place without a reload, threaded, and the page passes axe', async () => {
    const id = await newItem(server, 'Totals in the monthly report');
    const page = await chrome.watched.newPage();
    await page.goto(`${server.url}/b/default/items/${id}`);
    await page.evaluate('window.notReloaded = true');
    await page.fill('#comment-content', 'The totals are off by one cent.');
    await page.click('button:has-text("Post comment")');
    const added = page.locator('[data-comments] > li.comment');
    await added.first().waitFor();
    expect(await added.first().locator('.comment-text').textContent()).to.equal('The totals are off by one cent.');
    expect(await page.locator('#comments-title').textContent()).to.equal('1 comment');
    expect(await page.inputValue('#comment-content'), 'the form is emptied').to.equal('');
    const [top] = await commentsOf(server, id);
    await page.locator(`#comment-${top!.id} summary:has-text("Reply")`).click();
    await page.fill(`#reply-${top!.id}`, 'Same here, in euros.');
    await page.locator(`#comment-${top!.id} button:has-text("Post reply")`).click();
    await page.locator(`[data-replies="${top!.id}"] > li.comment`).waitFor();
    expect(await page.locator(`[data-replies="${top!.id}"] .comment-text`).textContent()).to.equal('Same here, in euros.');
    expect(await page.evaluate('window.notReloaded'), 'no reload').to.equal(true);
    expect((await commentsOf(server, id)).map((c) => c.parentId)).to.deep.equal([null, top!.id]);
    await expectAccessible(page);
  });

  it('when a visitor posts two comments in a row with JavaScript (issue 49: a stamp is spent by its post), then both appear in place: each answer gives the form its next stamp', async () => {
    const id = await newItem(server, 'Two comments in a row');
    const page = await chrome.watched.newPage();
    await page.goto(`${server.url}/b/default/items/${id}`);
    await page.evaluate('window.notReloaded = true');
    const stamp = () => page.inputValue('form:has(#comment-content) input[name="shown"]');
    const first = await stamp();
    for (const text of ['First of two.', 'Second of two.']) {
      await page.fill('#comment-content', text);
      await page.click('button:has-text("Post comment")');
      await page.locator('[data-comments] > li.comment .comment-text', { hasText: text }).waitFor();
    }
    expect(await stamp(), 'the form holds a new stamp').to.not.equal(first);
    expect(await page.locator('form:has(#comment-content) [data-form-problem]').textContent()).to.equal('');
    expect(await page.evaluate('window.notReloaded'), 'no reload').to.equal(true);
    expect((await commentsOf(server, id)).map((c) => c.content)).to.deep.equal(['First of two.', 'Second of two.']);
  });

  it('when an identified visitor comments, replies, edits and deletes without JavaScript, then each posts and comes back to the item at the comment, and the thread looks right in light and dark', async () => {
    const id = await newItem(server, 'Export the totals as CSV');
    const noScript = await watchedContext(chrome.browser, { javaScriptEnabled: false });
    try {
      const page = await noScript.newPage();
      page.setDefaultTimeout(8000);
      await page.goto(signInUrl('thread-ann', 'Ann Lee', id));
      await page.fill('#comment-content', 'Could the CSV include the currency?');
      await page.click('button:has-text("Post comment")');
      const [top] = await commentsOf(server, id);
      expect(new URL(page.url()).hash).to.equal(`#comment-${top!.id}`);
      expect(await page.locator(`#comment-${top!.id} .avatar`).textContent()).to.equal('AL');
      await page.locator(`#comment-${top!.id} summary:has-text("Reply")`).first().click();
      await page.fill(`#reply-${top!.id}`, 'And the date format, please.');
      await page.locator(`#comment-${top!.id} button:has-text("Post reply")`).click();
      const reply = (await commentsOf(server, id)).find((c) => c.parentId === top!.id)!;
      expect(new URL(page.url()).hash).to.equal(`#comment-${reply.id}`);
      await page.locator(`#comment-${reply.id} summary:has-text("Edit")`).click();
      await page.fill(`#edit-${reply.id}`, 'And the date format (ISO), please.');
      await page.locator(`#comment-${reply.id} button:has-text("Save")`).click();
      expect(await page.locator(`#comment-${reply.id} .comment-text`).textContent()).to.equal('And the date format (ISO), please.');
      expect(await page.locator(`#comment-${reply.id} .hint`).textContent()).to.include('edited');

      // The team answers and pins its answer: it comes first, marked, and Ann's question is no longer hers to change.
      const answer = await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { apiKey: secretKey, body: { content: 'Both are planned for the next release.', team: { name: 'Acme team' }, parentId: top!.id } });
      await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { apiKey: secretKey, body: { content: 'The CSV export ships in 4.2 with currency and ISO dates.', team: { name: 'Acme team' }, pin: true } });
      expect(answer.status).to.equal(201);
      await page.reload();
      const first = page.locator('[data-comments] > li').first();
      expect(await first.getAttribute('class')).to.equal('comment team pinned');
      expect(await first.locator('.pinned-badge').textContent()).to.equal('Official answer');
      expect(await page.locator(`#comment-${top!.id} summary:has-text("Edit")`).count(), 'answered: no edit').to.equal(0);
      // axe runs in the page, which needs its script: the same page, with the same session, where script runs.
      await chrome.watched.context.addCookies(await noScript.context.cookies());
      const seen = await chrome.watched.newPage();
      await seen.goto(`${server.url}/b/default/items/${id}`);
      await seen.setViewportSize({ width: 1280, height: 900 });
      await expectAccessible(seen);
      await screenshot(seen, 'item-thread-light-1280');
      await seen.emulateMedia({ colorScheme: 'dark' });
      await expectAccessible(seen);
      await screenshot(seen, 'item-thread-dark-1280');
      await seen.emulateMedia({ colorScheme: 'light' });
      await seen.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(seen);
      await screenshot(seen, 'item-thread-light-390');

      // A comment of her own that nobody answered is hers to delete.
      await page.fill('#comment-content', 'Never mind this one.');
      await page.click('button:has-text("Post comment")');
      const own = (await commentsOf(server, id)).find((c) => c.content === 'Never mind this one.')!;
      await page.locator(`#comment-${own.id} button:has-text("Delete")`).click();
      expect(new URL(page.url()).hash).to.equal('#comments-title');
      expect(await page.locator(`#comment-${own.id}`).count()).to.equal(0);
      expect(noScript.errors).to.deep.equal([]);
    } finally {
      await noScript.close();
    }
  });

  it('when a bot fills the honeypot, then the comment is refused with the reason in an alert and the text kept, with and without JavaScript', async () => {
    const id = await newItem(server, 'Honeypot on the comment form');
    const page = await chrome.watched.newPage();
    page.setDefaultTimeout(8000);
    chrome.watched.expectRefusal(`${server.url}/b/default/items/${id}/comments`);
    await page.goto(`${server.url}/b/default/items/${id}`);
    expect(await page.locator('.form-trap').getAttribute('aria-hidden')).to.equal('true');
    expect(await page.locator('#website-comment').getAttribute('tabindex')).to.equal('-1');
    expect(await page.locator('#website-comment').getAttribute('autocomplete')).to.equal('off');
    await page.fill('#comment-content', 'Cheap watches here');
    await page.locator('#website-comment').fill('https://spam.example', { force: true });
    await page.click('button:has-text("Post comment")');
    const alert = page.locator('form[data-comment-form] [role="alert"]').last();
    await page.locator('[data-form-problem]:not(:empty)').first().waitFor();
    expect(await alert.textContent()).to.include('a field that must stay empty was filled in');
    expect(await page.inputValue('#comment-content')).to.equal('Cheap watches here');
    await expectAccessible(page);

    const noScript = await watchedContext(chrome.browser, { javaScriptEnabled: false });
    try {
      noScript.expectRefusal(`${server.url}/b/default/items/${id}/comments`);
      const plain = await noScript.newPage();
      await plain.goto(`${server.url}/b/default/items/${id}`);
      await plain.fill('#comment-content', 'Cheap watches, no script');
      await plain.locator('#website-comment').fill('https://spam.example', { force: true });
      await plain.click('button:has-text("Post comment")');
      expect(await plain.locator('[data-form-problem][role="alert"]').first().textContent()).to.include('a field that must stay empty was filled in');
      expect(await plain.inputValue('#comment-content')).to.equal('Cheap watches, no script');
    } finally {
      await noScript.close();
    }
    expect(await commentsOf(server, id)).to.deep.equal([]);
  });

  it('when a member replies to a comment, pins the team\'s answer and writes an internal note on the team\'s item page without JavaScript, then the board shows the pinned reply first and never the note', async () => {
    const id = await newItem(server, 'Team conversation');
    await request(server, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'When will this ship?', endUser: { externalId: 'asker', name: 'Asker' } } });
    const [question] = await commentsOf(server, id);
    const run = await inProcess(['open', '--print', '--url', server.url, ...locationOf(server)]);
    expect(run.code, run.stderr).to.equal(0);
    const noScript = await watchedContext(chrome.browser, { javaScriptEnabled: false });
    try {
      const page = await noScript.newPage();
      page.setDefaultTimeout(8000);
      await page.goto(run.stdout.trim());
      await page.goto(`${server.url}/team/items/${id}`);
      await page.locator(`#comment-${question!.id} summary:has-text("Reply")`).click();
      await page.fill(`#reply-${question!.id}`, 'In the spring release.');
      await page.locator(`#comment-${question!.id} button:has-text("Send reply")`).click();
      expect(await page.locator('.notice').textContent()).to.equal('Your reply is posted.');
      const reply = (await commentsOf(server, id)).find((c) => c.parentId === question!.id)!;
      await page.locator(`#comment-${reply.id} button:has-text("Pin as the official answer")`).click();
      expect(await page.locator('.notice').textContent()).to.include('Pinned');
      expect(await page.locator('[data-comments] > li').first().getAttribute('id')).to.equal(`comment-${reply.id}`);
      await page.fill('#reply', 'PRIVATE: customer X asked twice.');
      await page.check('#internal');
      await page.click('button:has-text("Post reply")');
      expect(await page.locator('.notice').textContent()).to.include('internal note is saved');
      const note = page.locator('li.comment.internal');
      expect(await note.locator('.internal-badge').textContent()).to.equal('Private note: only the team sees it');
      expect(noScript.errors).to.deep.equal([]);
      await chrome.watched.context.addCookies(await noScript.context.cookies());
      const seen = await chrome.watched.newPage();
      await seen.setViewportSize({ width: 1280, height: 900 });
      await seen.goto(`${server.url}/team/items/${id}`);
      await expectAccessible(seen);
      await screenshot(seen, 'team-item-thread-1280');
    } finally {
      await noScript.close();
    }
    const board = await (await fetch(`${server.url}/b/default/items/${id}`)).text();
    expect(board).not.to.include('customer X asked twice');
    expect(board).to.include('In the spring release.');
    const pinned = (await commentsOf(server, id)).find((c) => c.isPinned);
    expect(pinned?.content).to.equal('In the spring release.');
  });
});

describe(`board forms' fill time in a browser (${backend.name})`, function () {
  const chrome = browserSuite();
  const server = withServer(backend, { boardMinFillMs: 60_000, boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });

  it('when the submit form is sent sooner than a person fills it, then it comes back with the reason in an alert and everything typed kept', async () => {
    const page = await chrome.watched.newPage();
    chrome.watched.expectRefusal(`${server.url}/b/default/new`);
    await page.goto(`${server.url}/b/default/new`);
    await page.fill('#title', 'Typed by a script');
    await page.fill('#description', 'Very quickly');
    await page.selectOption('#type', 'bug');
    await page.click('button:has-text("Send feedback")');
    expect(await page.locator('.error-summary[role="alert"]').textContent()).to.include('faster than a person types');
    expect(await page.inputValue('#title')).to.equal('Typed by a script');
    expect(await page.inputValue('#description')).to.equal('Very quickly');
    expect(await page.inputValue('#type')).to.equal('bug');
    await expectAccessible(page);
    await screenshot(page, 'submit-too-fast-1280');
    expect((await request(server, 'GET', '/api/v1/feedback?search=Typed')).body.total).to.equal(0);
  });
});

