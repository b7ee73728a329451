import { expect } from 'chai';
import { deletePage, inboxPage, signInPage, teamErrorPage, teamItemPage } from '@feedbackd/server/testing';
import { HOSTILE, HOSTILE_ESCAPED, ITEM_ID, OTHER_ID, expectEscaped, expectIsolated, expectLabelledControls, expectLandmarks, expectNoSummary, expectSummary, listItem, occurrences, titleOf } from './page-checks.js';
import { ASSETS, COUNTS, inboxView, itemView, project } from './team-fixtures.js';

/** The team's pages rendered from fixtures: no server, no database, no browser. */

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
    expect(page.text).to.include('<dialog id="shortcuts" class="shortcuts-dialog" aria-labelledby="shortcuts-title">');
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
    expect(page.text).to.include(`Moved from New to In progress by <bdi>${HOSTILE_ESCAPED}</bdi></span>`);
    // No part of a key is shown on a team page.
    expect(page.text).not.to.include('sk_abcdef');
    expect(page.text).to.include(`<a class="button secondary" href="/team/items/${ITEM_ID}/delete">`);
  });

  it('when an item is rendered, then a side column (an aside after the description) holds the status, the merge, the submitter\'s external id and email, the voters and delete; the main column the history, comments and reply', () => {
    const page = teamItemPage(itemView());
    const at = (needle: string) => {
      const index = page.text.indexOf(needle);
      expect(index, needle).to.be.greaterThan(-1);
      return index;
    };
    const aside = at('<aside class="item-side" aria-label="Triage">');
    const asideEnd = at('</aside>');
    expect(at('<h1>')).to.be.lessThan(aside);
    for (const part of ['id="status-title"', 'id="merge-title"', 'id="submitter-title"', 'id="voters-title"', 'id="delete-title"']) {
      expect(at(part), part).to.be.within(aside, asideEnd);
    }
    for (const part of ['id="history-title"', 'id="comments-title"', 'id="reply-title"']) expect(at(part), part).to.be.greaterThan(asideEnd);
    expect(page.text).to.include(`<dt>External ID</dt><dd><code><bdi>${HOSTILE_ESCAPED}</bdi></code></dd>`);
    expect(page.text).to.include('<dt>Email</dt><dd><a href="mailto:ann@example.com"><bdi>ann@example.com</bdi></a></dd>');
    expect(page.text).to.match(/<span class="avatar avatar-[0-7]" aria-hidden="true">/);
    const anonymous = teamItemPage(itemView({ people: { submitter: null, identified: 0, anonymous: 3, subscribers: 0, voters: [], page: 1, pageSize: 20 } }));
    expect(anonymous.text).to.include('Posted without an end user: there is nobody to contact.');
    expect(anonymous.text).to.include('0 identified voters<br>3 anonymous votes<br><span data-subscribers>0 subscribers</span>');
    expect(anonymous.text).to.include('No identified person has voted.');
  });

  it('when an item has more identified voters than a page, then the side column lists a page of 20 with their names, external ids and emails, and links to the pages around it', () => {
    const voters = Array.from({ length: 20 }, (_, i) => ({ externalId: `user-${i}`, name: i === 0 ? null : `Voter ${i}`, email: i % 2 ? `v${i}@example.com` : null, votedAt: '2026-05-04T03:02:01.000Z' }));
    const page = teamItemPage(itemView({ people: { submitter: null, identified: 45, anonymous: 7, subscribers: 46, voters, page: 2, pageSize: 20 } }));
    expectEscaped(page);
    expectLabelledControls(page);
    expect(occurrences(page, /<li><span class="person">/)).to.equal(20);
    expect(page.text).to.include('45 identified voters<br>7 anonymous votes');
    expect(page.text).to.include('<code><bdi>user-0</bdi></code>');
    expect(page.text).to.include('<span class="person-name">Anonymous</span>');
    expect(page.text).to.include('<bdi>v1@example.com</bdi>');
    expect(page.text).to.include(`<a href="/team/items/${ITEM_ID}?voters=2" aria-label="Page 2" aria-current="page">2</a>`);
    expect(page.text).to.include(`<a href="/team/items/${ITEM_ID}?voters=1" rel="prev">Previous</a>`);
    expect(page.text).to.include(`<a href="/team/items/${ITEM_ID}?voters=3" rel="next">Next</a>`);
    const one = teamItemPage(itemView());
    expect(one.text, 'one page of voters: no page links').not.to.include('class="pagination"');
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
    expect(page.text).to.include(`<h1>Delete &ldquo;<bdi>${HOSTILE_ESCAPED}</bdi>&rdquo;?</h1>`);
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

  it('when the inbox has counts, then a tab per status (and All) links to it with its count, and only the status asked for is current', () => {
    const page = inboxPage(inboxView({ counts: COUNTS, filters: { status: 'under-review', search: HOSTILE } }));
    expectLabelledControls(page);
    expect(page.text).to.include('<nav class="status-tabs" aria-label="Statuses">');
    const tabs = [...page.text.matchAll(/<li><a href="([^"]*)"( aria-current="page")?><span class="tab-label">([^<]*)<\/span> <span class="tab-count" aria-hidden="true">(\d+)<\/span><span class="visually-hidden">([^<]*)<\/span><\/a><\/li>/g)].map((m) => [m[1], Boolean(m[2]), m[3], Number(m[4]), m[5]]);
    expect(tabs).to.deep.equal([
      ['/team?search=x&amp;status=', false, 'All', 21, '21 items'],
      ['/team?search=x&amp;status=new', false, 'New', 12, '12 items'],
      ['/team?search=x&amp;status=under-review', true, 'Under review', 3, '3 items'],
      ['/team?search=x&amp;status=planned', false, 'Planned', 0, '0 items'],
      ['/team?search=x&amp;status=in-progress', false, 'In progress', 1, '1 item'],
      ['/team?search=x&amp;status=completed', false, 'Completed', 5, '5 items'],
      ['/team?search=x&amp;status=closed', false, 'Closed', 0, '0 items'],
    ]);
    expect(occurrences(inboxPage(inboxView({ counts: COUNTS, filters: { status: '' } })), /<a href="\/team\?search=x&amp;status=" aria-current="page">/), 'any status: All').to.equal(1);
    expect(occurrences(inboxPage(inboxView({ counts: COUNTS, filters: { status: 'new,planned' } })), /aria-current="page"><span class="tab-label">/), 'several statuses: no tab').to.equal(0);
    expect(inboxPage(inboxView()).text, 'no counts (a refused query): no tabs').not.to.include('status-tabs');
  });

  it('when the inbox lists items, then the bar above them holds "Select all on this page" as a real checkbox, the status and the button, and each row says it was shown', () => {
    const page = inboxPage(inboxView());
    const form = page.text.slice(page.text.indexOf('<form method="post" action="/team/items/status" class="bulk">'));
    expect(form.indexOf('<fieldset class="bulk-bar">'), 'the bar comes before the list').to.be.greaterThan(0).and.lessThan(form.indexOf('<ol class="items"'));
    expect(form).to.include('<input type="checkbox" id="select-all" name="all" value="page" data-select-all><label for="select-all">Select all on this page</label>');
    // The script's count, a form per plural category of the page's language (English has two).
    expect(form).to.include('data-plural-one="{count} item selected" data-plural-other="{count} items selected" hidden></output>');
    expect(form).to.include('<select id="new-status" name="status">');
    expect(occurrences(page, /<input type="hidden" name="shown" value="[0-9a-f-]{36}">/)).to.equal(2);
    expect(page.text).to.include(`<input type="hidden" name="shown" value="${OTHER_ID}">`);
    expect(inboxPage(inboxView({ list: { items: [], total: 0, page: 1, totalPages: 0 } })).text, 'nothing to select: no bar').not.to.include('select-all');
  });

  it('when a bulk change has just been made, then a banner says it, with Undo (the signed token, back here) only when given one, and Dismiss links here without it', () => {
    const token = `1999999999~planned~new_${ITEM_ID}~sig"<x>`;
    const page = inboxPage(inboxView({ notice: '12 items moved to Planned.', undo: token }));
    expectEscaped(page);
    expectLabelledControls(page);
    expect(page.text).to.include('<div class="banner" data-banner>\n<p class="notice" role="status">12 items moved to Planned.</p>');
    expect(page.text).to.include('<form method="post" action="/team/items/status/undo">\n<input type="hidden" name="return" value="/team?status=new">');
    expect(page.text).to.include(`<input type="hidden" name="undo" value="1999999999~planned~new_${ITEM_ID}~sig&quot;&lt;x&gt;">`);
    expect(page.text).to.include('<button type="submit" class="button secondary">Undo</button>');
    expect(page.text).to.include('<a class="banner-close" href="/team?status=new" data-dismiss-banner>Dismiss</a>');
    const plain = inboxPage(inboxView({ notice: 'The item was deleted.' }));
    expect(plain.text).to.include('data-dismiss-banner>Dismiss</a>');
    expect(plain.text).not.to.include('/team/items/status/undo');
    expect(inboxPage(inboxView()).text).not.to.include('data-banner');
  });

  it('when the shortcuts overlay is in a page, then it is a dialog with a heading, a close button and a table of each key with what it does', () => {
    const page = inboxPage(inboxView());
    expect(page.text).to.include('<link rel="stylesheet" href="/team/assets/team.abc.css">');
    const dialog = page.text.slice(page.text.indexOf('<dialog'), page.text.indexOf('</dialog>'));
    expect(dialog).to.include('<h2 id="shortcuts-title">Keyboard shortcuts</h2>');
    expect(dialog).to.include('<button type="button" class="button secondary" data-close-shortcuts>Close</button>');
    expect(dialog).to.include('<thead><tr><th scope="col">Key</th><th scope="col">What it does</th></tr></thead>');
    // j, k, x, s, r, m, o, ?, and the Held view's a and r (docs/moderation.md).
    expect(occurrences(page, /<tr><th scope="row"><kbd>[^<]+<\/kbd><\/th><td>[^<]+<\/td><\/tr>/)).to.equal(10);
    expect(dialog).to.include('<tr><th scope="row"><kbd>a</kbd></th><td>Held: approve the selected posts (or the current one)</td></tr>');
    expect(dialog).to.include('<tr><th scope="row"><kbd>?</kbd></th><td>Show these shortcuts</td></tr>');
  });
});
