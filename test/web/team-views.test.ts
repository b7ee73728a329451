import { expect } from 'chai';
import type { TeamProject } from '../../server/src/web/team/session.js';
import { teamErrorPage } from '../../server/src/web/team/layout.js';
import { inboxPage, type InboxView } from '../../server/src/web/team/views/inbox-page.js';
import { teamItemPage, type TeamItemView } from '../../server/src/web/team/views/item-page.js';
import { deletePage } from '../../server/src/web/team/views/remove-parts.js';
import { signInPage } from '../../server/src/web/team/views/sign-in-page.js';
import { ASSETS, HOSTILE, HOSTILE_ESCAPED, ITEM_ID, OTHER_ID, detail, expectEscaped, expectIsolated, expectLabelledControls, expectLandmarks, expectNoSummary, expectSummary, listItem, occurrences, titleOf } from './page-checks.js';

/** The team's pages rendered from fixtures: no server, no database, no browser. */

const project: TeamProject = { id: 'p1', slug: 'acme', name: HOSTILE, boardEnabled: true };

function inboxView(overrides: Partial<InboxView> = {}): InboxView {
  return {
    project,
    assets: ASSETS,
    filters: { status: 'new,under-review', search: HOSTILE },
    problems: [],
    list: { items: [listItem(), listItem({ id: OTHER_ID })], total: 2, page: 1, totalPages: 1 },
    here: '/team?status=new',
    pageLink: (n) => `/team?page=${n}`,
    ...overrides,
  };
}

function itemView(overrides: Partial<TeamItemView> = {}): TeamItemView {
  return {
    project,
    assets: ASSETS,
    item: { ...detail(), statusHistory: [{ from: 'new', to: 'in-progress', changedAt: '2026-05-06T07:08:09.000Z', keyId: 'k1', keyPrefix: 'sk_abcdef', actor: HOSTILE }] },
    values: {},
    problems: [],
    merge: { search: HOSTILE, items: [listItem({ id: OTHER_ID })] },
    ...overrides,
  };
}

describe('team views', () => {
  it('when the inbox is rendered, then its items are text, each checkbox is labelled, the bulk form comes back here, and the header signs out', () => {
    const page = inboxPage(inboxView({ notice: HOSTILE }));
    expectLandmarks(page, 'Team');
    expectEscaped(page);
    expectLabelledControls(page);
    expectNoSummary(page);
    expectIsolated(page);
    expect(titleOf(page)).to.equal(`&#x2068;Inbox&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069; &ndash; Team`);
    expect(page.text).to.include('<a href="/team" aria-current="page">Inbox</a>');
    expect(page.text).to.include('<li><a href="/b/acme">Public board</a></li>');
    expect(page.text).to.include('<form method="post" action="/team/sign-out">');
    expect(page.text).to.include('<form method="post" action="/team/items/status" class="bulk">');
    expect(page.text).to.include('<input type="hidden" name="return" value="/team?status=new">');
    expect(occurrences(page, /<input type="checkbox" name="id"/)).to.equal(2);
    expect(page.text).to.include(`2 items with status New or Under review matching &ldquo;<bdi>${HOSTILE_ESCAPED}</bdi>&rdquo;`);
    expect(page.text).to.include(`<p class="notice" role="status">${HOSTILE_ESCAPED}</p>`);
    // The shortcuts overlay is there for the script, and only signed in.
    expect(page.text).to.include('<dialog id="shortcuts" aria-labelledby="shortcuts-title">');
  });

  it('when a bulk change is refused, then the summary links its problems to the status control and the title says Error', () => {
    const problems = [
      { field: 'new-status', message: 'Select at least one item, then choose Change status' },
      { field: 'new-status', message: 'Choose one of the statuses' },
    ];
    const page = inboxPage(inboxView({ problems }));
    expectLandmarks(page, 'Team');
    expectSummary(page, problems);
    expect(titleOf(page)).to.equal(`&#x2068;Error: Inbox&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069; &ndash; Team`);
  });

  it("when a project's board is off, then the team's navigation does not link to it", () => {
    const page = inboxPage(inboxView({ project: { ...project, boardEnabled: false } }));
    expect(page.text).not.to.include('Public board');
  });

  it('when an item is rendered, then its title, comments, history and merge search are text, and each form is labelled', () => {
    const page = teamItemPage(itemView({ notice: 'Saved: the status is In progress.' }));
    expectLandmarks(page, 'Team');
    expectEscaped(page);
    expectLabelledControls(page);
    expectNoSummary(page);
    expectIsolated(page);
    expect(titleOf(page)).to.equal(`&#x2068;${HOSTILE_ESCAPED}&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069; &ndash; Team`);
    expect(page.text).to.include(`<h1><bdi>${HOSTILE_ESCAPED}</bdi></h1>`);
    expect(page.text).to.include(`<a href="/b/acme/items/${ITEM_ID}">See it on the public board</a>`);
    expect(page.text).to.include(`<form method="post" action="/team/items/${ITEM_ID}/status" novalidate>`);
    expect(page.text).to.include(`<form method="post" action="/team/items/${ITEM_ID}/comments" novalidate>`);
    expect(page.text).to.include(`<form method="post" action="/team/items/${ITEM_ID}/merge" novalidate>`);
    expect(page.text).to.include('<option value="in-progress" selected>In progress</option>');
    expect(page.text).to.include(`, by <bdi>${HOSTILE_ESCAPED}</bdi></li>`);
    // No part of a key is shown on a team page.
    expect(page.text).not.to.include('sk_abcdef');
    expect(page.text).to.include(`<a class="button secondary" href="/team/items/${ITEM_ID}/delete">`);
  });

  it('when a status change and a reply are refused, then the summary links each problem to its textarea, which says it and keeps the text typed', () => {
    const problems = [
      { field: 'status', message: 'Choose one of the statuses' },
      { field: 'comment', message: 'Content must be at most 10000 characters' },
      { field: 'reply', message: 'Content is required' },
    ];
    const page = teamItemPage(itemView({ problems, values: { status: 'nonsense', comment: HOSTILE } }));
    expectSummary(page, problems);
    expect(titleOf(page)).to.equal(`Error: &#x2068;${HOSTILE_ESCAPED}&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069; &ndash; Team`);
    expect(page.text).to.match(/<textarea id="comment" name="comment" rows="3" maxlength="\d+" aria-describedby="comment-hint comment-error" aria-invalid="true">/);
    expect(page.text).to.include(`aria-invalid="true">${HOSTILE_ESCAPED}</textarea>`);
    expect(page.text).to.include('<p class="field-error" id="reply-error"><span class="visually-hidden">Error: </span>Content is required</p>');
  });

  it('when a merge is refused, then the summary links to the first choice, whose fieldset says why', () => {
    const page = teamItemPage(itemView({ mergeProblem: 'Choose the item to merge this one into' }));
    expectSummary(page, [{ field: 'intoId', message: 'Choose the item to merge this one into' }]);
    expect(page.text).to.include('<fieldset class="field invalid" aria-describedby="intoId-error">');
    expect(page.text).to.include(`<input type="radio" name="intoId" value="${OTHER_ID}" id="intoId">`);
    expect(page.text).to.include(`<input type="hidden" name="merge" value="${HOSTILE_ESCAPED}">`);
  });

  it('when the delete confirmation is rendered, then it names the item as text and posts to delete it, with a way to keep it', () => {
    const page = deletePage(project, ASSETS, listItem());
    expectLandmarks(page, 'Team');
    expectEscaped(page);
    expectIsolated(page);
    expect(page.text).to.include(`<h1>Delete “<bdi>${HOSTILE_ESCAPED}</bdi>”?</h1>`);
    expect(page.text).to.include(`<form method="post" action="/team/items/${ITEM_ID}/delete">`);
    expect(page.text).to.include(`<a href="/team/items/${ITEM_ID}">Cancel, keep it</a>`);
  });

  it('when the sign-in form is refused, then the summary links to the key, the name typed is kept, and the key never is', () => {
    const problems = [{ field: 'key', message: 'Enter a secret key' }];
    const page = signInPage({ assets: ASSETS, problems, name: HOSTILE });
    expectLandmarks(page);
    expectEscaped(page);
    expectLabelledControls(page);
    expectSummary(page, problems);
    expect(titleOf(page)).to.equal('Error: Sign in &ndash; Team');
    expect(page.text).to.include('<input type="password" id="key" name="key" autocomplete="off" spellcheck="false" required aria-describedby="key-hint key-error" aria-invalid="true">');
    expect(page.text).to.include(`value="${HOSTILE_ESCAPED}"`);
    expect(page.text).not.to.include('<dialog');
    const fresh = signInPage({ assets: ASSETS, notice: 'You have signed out.' });
    expectNoSummary(fresh);
    expect(titleOf(fresh)).to.equal('Sign in &ndash; Team');
  });

  it("when a refusal is rendered, then the team's heading and the reason show, with the way back in (the inbox signed in, else sign-in)", () => {
    const signedOut = teamErrorPage(401, HOSTILE, ASSETS);
    expectLandmarks(signedOut);
    expectEscaped(signedOut);
    expect(signedOut.text).to.include('<h1>You are not signed in</h1>');
    expect(signedOut.text).to.include('<a href="/team/sign-in">Sign in</a>');
    const signedIn = teamErrorPage(404, 'There is no page at this address.', ASSETS, project);
    expectLandmarks(signedIn, 'Team');
    expect(titleOf(signedIn)).to.equal(`&#x2068;Page not found&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069; &ndash; Team`);
    expect(signedIn.text).to.include('<a href="/team">Go to the inbox</a>');
  });
});
