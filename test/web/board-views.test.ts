import { expect } from 'chai';
import {
  boardPage,
  type BoardProject,
  type BoardView,
  errorPage,
  excerpt,
  EXCERPT_LENGTH,
  grouped,
  itemMeta,
  itemPage,
  itemRow,
  pageNumbers,
  pagination,
  roadmapColumnPage,
  roadmapPage,
  type SafeHtml,
  submitPage,
} from '@feedbackd/server/testing';
import { ASSETS, HOSTILE, HOSTILE_ESCAPED, ITEM_ID, OTHER_ID, detail, expectEscaped, expectIsolated, expectLabelledControls, expectLandmarks, expectNoSummary, expectSummary, listItem, occurrences, titleOf } from './page-checks.js';

/** The board's pages rendered from fixtures: no server, no database, no browser. */

const project: BoardProject = { id: 'p1', slug: 'acme', name: HOSTILE, voterSalt: 'salt', identitySecret: null, frameOrigins: [] };
const visitor = { endUserId: 'u1', externalId: 'ext-1', name: HOSTILE };

function boardView(overrides: Partial<BoardView> = {}): BoardView {
  return {
    project,
    assets: ASSETS,
    filters: { search: HOSTILE, status: 'in-progress' },
    problems: [],
    list: { items: [listItem()], total: 41, page: 2, totalPages: 3 },
    voted: new Set([ITEM_ID]),
    here: `/b/acme?search=${encodeURIComponent(HOSTILE)}`,
    pageLink: (n) => `/b/acme?page=${n}&search=<x>`,
    ...overrides,
  };
}

describe('board views', () => {
  it('when the list is rendered with hostile titles, names and a search, then all of it is text, under one h1 with the board navigation', () => {
    const page = boardPage(boardView({ visitor }));
    expectLandmarks(page, 'Board');
    expectEscaped(page);
    expectLabelledControls(page);
    expectNoSummary(page);
    expectIsolated(page);
    expect(titleOf(page)).to.equal(`&#x2068;Feedback&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069;`);
    expect(page.text).to.include('<a href="/b/acme" aria-current="page">Feedback</a>');
    expect(page.text).to.include(`Signed in as <strong><bdi>${HOSTILE_ESCAPED}</bdi></strong>`);
    // The search is in the filter form's value and in the summary, escaped in both.
    expect(page.text).to.include(`value="${HOSTILE_ESCAPED}"`);
    expect(page.text).to.include(`41 items matching &ldquo;<bdi>${HOSTILE_ESCAPED}</bdi>&rdquo;`);
    expect(page.text).to.include('<form method="get" action="/b/acme" class="filters" role="search" aria-label="Filter and sort">');
    // The vote button says this visitor votes for the item, and the pages link both ways.
    expect(page.text).to.include('aria-pressed="true"');
    expect(page.text).to.include('<a href="/b/acme?page=1&amp;search=&lt;x&gt;" rel="prev">Previous</a>');
    expect(page.text).to.include('<a href="/b/acme?page=2&amp;search=&lt;x&gt;" aria-label="Page 2" aria-current="page">2</a>');
    expect(page.text).to.include('<a href="/b/acme?page=3&amp;search=&lt;x&gt;" rel="next">Next</a>');
    // The row: its status tag in its colour (with its word), and its description's first line, isolated.
    expect(page.text).to.include('<li class="tag status status-in-progress"><span class="visually-hidden">Status: </span>In progress</li>');
    expect(page.text).to.include(`<p class="excerpt"><bdi>${HOSTILE_ESCAPED}</bdi></p>`);
  });

  it('when the list query is refused, then the summary links each problem to its control, the form is kept and no list is shown', () => {
    const problems = [{ field: 'status', message: 'Status must be one of: new' }, { message: `Something about ${HOSTILE}` }];
    const page = boardPage(boardView({ problems, list: undefined }));
    expectLandmarks(page, 'Board');
    expectSummary(page, [problems[0]!, { message: `Something about ${HOSTILE_ESCAPED}` }]);
    expect(page.text).not.to.include('class="items"');
  });

  it('when an empty list is rendered, then it says so and links to the form, without pages', () => {
    const page = boardPage(boardView({ filters: {}, list: { items: [], total: 0, page: 1, totalPages: 0 } }));
    expect(page.text).to.include('<p class="empty">Nothing here yet. <a href="/b/acme/new">Give feedback</a>.</p>');
    expect(page.text).not.to.include('class="pagination"');
  });

  it('when a search matches nothing, then it says no feedback matches the search (escaped, isolated) and links to clear it, keeping the order', () => {
    const page = boardPage(boardView({ filters: { search: HOSTILE, status: 'planned', sortBy: 'votes' }, list: { items: [], total: 0, page: 1, totalPages: 0 } }));
    expectEscaped(page);
    expectIsolated(page);
    expect(page.text).to.include(`<p class="empty">No feedback matches &ldquo;<bdi>${HOSTILE_ESCAPED}</bdi>&rdquo;. <a href="/b/acme?sortBy=votes">Clear the search and filters</a>.</p>`);
    expect(page.text).not.to.include('Nothing here yet');
  });

  it('when a filter without a search matches nothing, then it says so and links to the whole list, not to the form', () => {
    const page = boardPage(boardView({ filters: { type: 'bug' }, list: { items: [], total: 0, page: 1, totalPages: 0 } }));
    expect(page.text).to.include('<p class="empty">No feedback matches these filters. <a href="/b/acme">Clear the filters</a>.</p>');
    expect(page.text).not.to.include('Nothing here yet');
  });

  it('when a page past the end of the list is asked, then it says so and links to the first page, and the pages mark none as current', () => {
    const page = boardPage(boardView({ filters: {}, list: { items: [], total: 41, page: 9, totalPages: 3 } }));
    expect(page.text).to.include('<p class="empty">This page is past the end of the list. <a href="/b/acme?page=1&amp;search=&lt;x&gt;">Go to the first page</a>.</p>');
    const pages = page.text.slice(page.text.indexOf('<nav class="pagination"'));
    expect(pages).to.include('aria-label="Page 3">3</a>');
    expect(pages).not.to.include('aria-current');
    expect(page.text, 'Previous goes to the last page').to.include('<a href="/b/acme?page=3&amp;search=&lt;x&gt;" rel="prev">Previous</a>');
    expect(page.text).not.to.include('rel="next"');
  });

  it('when an item is rendered, then its title is the h1 and the page title, its comments are text, the team marked, the vote form posts to the item', () => {
    const page = itemPage({ project, assets: ASSETS, item: detail(), voted: false, history: [] });
    expectLandmarks(page, 'Board');
    expectEscaped(page);
    expectIsolated(page);
    expect(titleOf(page)).to.equal(`&#x2068;${HOSTILE_ESCAPED}&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069;`);
    expect(page.text).to.include(`<h1><bdi>${HOSTILE_ESCAPED}</bdi></h1>`);
    expect(page.text).to.include(`<form method="post" action="/b/acme/items/${ITEM_ID}/vote" class="vote" data-vote>`);
    expect(page.text).to.include(`<input type="hidden" name="return" value="/b/acme/items/${ITEM_ID}">`);
    expect(page.text).to.include('aria-pressed="false"');
    expect(occurrences(page, /<li class="comment team" id="comment-[^"]+">/)).to.equal(1);
    expect(page.text).to.include('<h2 id="comments-title">2 comments</h2>');
    expect(page.text).not.to.include('Signed in as');
  });

  it('when a name or a title ends in U+202E (right-to-left override), then it is isolated in <bdi>, so the date beside it is not reversed (issue 37: bidi)', () => {
    const item = detail({
      title: 'Export\u202e',
      endUser: { name: 'Mallory\u202e', avatarUrl: null },
      comments: [{ id: 'c1', content: 'Same\u202e', createdAt: '2026-05-04T04:00:00.000Z', author: { name: 'Eve\u202e' } }],
    });
    const page = itemPage({ project: { ...project, name: 'Acme\u202e' }, assets: ASSETS, item, voted: false, visitor: { ...visitor, name: 'Ann\u202e' }, history: [] });
    expect(page.text).to.include('<span class="person-name"><bdi>Mallory\u202e</bdi></span></span> <span class="hint"><time datetime="2026-05-04T03:02:01.000Z">Posted on May 4, 2026</time></span>');
    expect(page.text).to.include('<strong><bdi>Eve\u202e</bdi></strong> <span class="hint"><time datetime="2026-05-04T04:00:00.000Z">May 4, 2026</time></span></p>');
    expect(page.text).to.include('<p class="comment-text"><bdi>Same\u202e</bdi></p>');
    expect(page.text).to.include('<h1><bdi>Export\u202e</bdi></h1>');
    expect(page.text).to.include('Signed in as <strong><bdi>Ann\u202e</bdi></strong>');
    expect(page.text).to.include('<a class="brand" href="/b/acme"><bdi>Acme\u202e</bdi></a>');
    expect(titleOf(page)).to.equal('&#x2068;Export\u202e&#x2069; &ndash; &#x2068;Acme\u202e&#x2069;');
    // No U+202E outside an isolate: every one is inside a <bdi>, or between U+2068 and U+2069 in the title.
    const outside = page.text.replace(/<bdi>[^<]*<\/bdi>/g, '').replace(/&#x2068;[^&]*&#x2069;/g, '');
    expect(outside).not.to.include('\u202e');
  });

  it('when a branded board is rendered, then its head has the meta description and Open Graph tags (hostile text escaped and isolated), the accent\'s style, and the header the logo and description', () => {
    const branded: BoardProject = {
      ...project,
      description: HOSTILE,
      logo: { path: '/b/acme/logo/abcdefghijklmnopqrstuv', width: 300, height: 100 },
      accent: { style: ':root{--accent:#0a6640}', hash: "'sha256-x'" },
      origin: 'https://feedback.example.com',
    };
    const page = boardPage(boardView({ project: branded }));
    const head = page.text.slice(0, page.text.indexOf('</head>'));
    expectEscaped(page);
    expectIsolated(page);
    expect(head).to.include(`<meta name="description" content="&#x2068;${HOSTILE_ESCAPED}&#x2069;">`);
    expect(head).to.include(`<meta property="og:title" content="&#x2068;Feedback&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069;">`);
    expect(head).to.include(`<meta property="og:description" content="&#x2068;${HOSTILE_ESCAPED}&#x2069;">`);
    expect(head).to.include('<meta property="og:url" content="https://feedback.example.com/b/acme">');
    expect(head).to.include('<meta property="og:image" content="https://feedback.example.com/b/acme/logo/abcdefghijklmnopqrstuv">');
    expect(head).to.include('<style>:root{--accent:#0a6640}</style>');
    expect(page.text, 'the logo keeps its proportions at 32 px high, and its alt is empty beside the name').to.include('<img src="/b/acme/logo/abcdefghijklmnopqrstuv" alt="" width="96" height="32">');
    expect(page.text).to.include(`<p class="tagline"><bdi>${HOSTILE_ESCAPED}</bdi></p>`);

    const plain = submitPage({ project: { ...project, name: 'Acme' }, assets: ASSETS, values: {}, problems: [] });
    expect(plain.text, 'without a description, the pages still describe themselves').to.include('<meta name="description" content="&#x2068;Share feedback on &#x2068;Acme&#x2069;, vote on ideas and follow the roadmap.&#x2069;">');
    expect(plain.text, 'no origin known: no og:url').not.to.match(/og:url|og:image|<style|class="tagline"/);
  });

  it('when the submit form is refused, then the title says Error, the summary links to each field, and each field says its message and is marked invalid', () => {
    const problems = [{ field: 'title', message: 'Title is required' }, { field: 'type', message: 'Type must be one of: bug, idea, question, other' }];
    const page = submitPage({ project, assets: ASSETS, visitor, values: { title: HOSTILE, description: HOSTILE, type: 'bug' }, problems });
    expectLandmarks(page, 'Board');
    expectEscaped(page);
    expectLabelledControls(page);
    expectSummary(page, problems);
    expectIsolated(page);
    expect(titleOf(page)).to.equal(`&#x2068;Error: Give feedback&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069;`);
    expect(page.text).to.include('aria-describedby="title-hint title-error" aria-invalid="true"');
    expect(page.text).to.include('<p class="field-error" id="type-error"><span class="visually-hidden">Error: </span>Type must be one of: bug, idea, question, other</p>');
    expect(page.text).to.include(`<textarea id="description" name="description" rows="6">${HOSTILE_ESCAPED}</textarea>`);
    expect(page.text).to.include('<option value="bug" selected>Bug</option>');
    expect(page.text).to.include('<a href="/b/acme/new" aria-current="page">Give feedback</a>');
  });

  it('when the submit form is shown with similar items, then each links to its item with its status and a vote button whose form (after the submit form) comes back with the title; with none asked, the live region is empty', () => {
    const similar = { items: [{ ...listItem({ status: 'planned', voteCount: 500 }), userHasVoted: false, similarity: 1 }], voted: new Set([ITEM_ID]) };
    const asked = submitPage({ project, assets: ASSETS, values: { title: 'Dark mode & more' }, problems: [], similar });
    expectNoSummary(asked);
    expectIsolated(asked);
    expectEscaped(asked);
    expect(titleOf(asked)).to.equal(`&#x2068;Give feedback&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069;`);
    expect(asked.text).to.include(`<a href="/b/acme/items/${ITEM_ID}"><bdi>${HOSTILE_ESCAPED}</bdi></a>`);
    expect(asked.text).to.include('<span class="visually-hidden">Status: </span>Planned</span>');
    expect(asked.text).to.include(`<button type="submit" form="vote-${ITEM_ID}" class="vote-button" aria-pressed="true">`);
    expect(asked.text).to.include('<span class="vote-count" data-count>500</span>');
    // Forms cannot nest: the vote form is after the submit form, and comes back to it with the title.
    const submitEnd = asked.text.indexOf('</form>', asked.text.indexOf('action="/b/acme/new"'));
    const voteForm = asked.text.indexOf(`<form id="vote-${ITEM_ID}" method="post" action="/b/acme/items/${ITEM_ID}/vote" class="vote" data-vote>`);
    expect(voteForm, 'the vote form follows the submit form').to.be.greaterThan(submitEnd);
    expect(asked.text).to.include('<input type="hidden" name="return" value="/b/acme/new?title=Dark%20mode%20%26%20more">');
    const fresh = submitPage({ project, assets: ASSETS, values: {}, problems: [] });
    expect(fresh.text).to.include('<section class="similar" aria-live="polite" data-similar="/b/acme/similar" data-return="/b/acme/new">\n\n\n\n</section>');
    expect(fresh.text).to.include('<div data-similar-forms></div>');
  });

  it('when similar feedback is asked for with an empty title, then the form asks for a title instead of saying nothing is like it', () => {
    const page = submitPage({ project, assets: ASSETS, values: { title: '' }, problems: [], similar: 'no-title' });
    expect(page.text).to.include('<p>Type a title first: similar feedback is looked for by its title.</p>');
    expect(page.text).not.to.include('Nothing like it yet');
    const none = submitPage({ project, assets: ASSETS, values: { title: 'Unheard of' }, problems: [], similar: { items: [], voted: new Set() } });
    expect(none.text).to.include('<p>Nothing like it yet: go ahead and send it.</p>');
  });

  it('when an item is rendered, then its submitter is named beside a circle of their initials hidden from screen readers, or Anonymous, and never by email or external id', () => {
    const named = itemPage({ project, assets: ASSETS, item: detail({ endUser: { name: 'Ann <Lee>', avatarUrl: 'https://x.example/a.png' } }), voted: false, history: [] });
    expect(named.text).to.match(/<span class="avatar avatar-[0-7]" aria-hidden="true">AL<\/span><span class="person-name"><bdi>Ann &lt;Lee&gt;<\/bdi><\/span>/);
    expect(named.text, 'no image is loaded from the avatar URL').not.to.include('a.png');
    const anonymous = itemPage({ project, assets: ASSETS, item: detail({ endUser: null }), voted: false, history: [] });
    expect(anonymous.text).to.include('<span class="avatar avatar-none" aria-hidden="true">?</span><span class="person-name">Anonymous</span>');
  });

  it('when an item has status changes, then its timeline says each as a sentence with its date, oldest first, after its posting', () => {
    const history = [
      { from: 'new', to: 'under-review', changedAt: '2026-05-05T01:00:00.000Z' },
      { from: 'under-review', to: 'planned', changedAt: '2026-05-06T01:00:00.000Z' },
    ];
    const page = itemPage({ project, assets: ASSETS, item: detail({ status: 'planned' }), voted: false, history });
    const timeline = page.text.slice(page.text.indexOf('<ol class="timeline">'), page.text.indexOf('</ol>', page.text.indexOf('<ol class="timeline">')));
    expect(timeline.match(/<span class="timeline-what">[^<]*<\/span>/g)).to.deep.equal([
      '<span class="timeline-what">Posted as New</span>',
      '<span class="timeline-what">Moved from New to Under review</span>',
      '<span class="timeline-what">Moved from Under review to Planned</span>',
    ]);
    expect(timeline).to.include('<time datetime="2026-05-06T01:00:00.000Z">May 6, 2026</time>');
    const still = itemPage({ project, assets: ASSETS, item: detail({ status: 'closed' }), voted: false, history: [] });
    expect(still.text, 'an item imported closed, never changed, was posted as it is').to.include('Posted as Closed');
    expect(still.text).to.include('The status has not changed since the item was posted.');
  });

  it('when the pages are numbered, then the first, the last and two on each side of the current show, with an ellipsis for each gap of two or more', () => {
    expect(pageNumbers(6, 51)).to.deep.equal([1, 'gap', 4, 5, 6, 7, 8, 'gap', 51]);
    expect(pageNumbers(1, 51)).to.deep.equal([1, 2, 3, 'gap', 51]);
    expect(pageNumbers(51, 51)).to.deep.equal([1, 'gap', 49, 50, 51]);
    expect(pageNumbers(5, 51), 'a gap of one page shows the page').to.deep.equal([1, 2, 3, 4, 5, 6, 7, 'gap', 51]);
    expect(pageNumbers(4, 7)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    expect(pageNumbers(2, 2)).to.deep.equal([1, 2]);
    expect(pageNumbers(1, 1)).to.deep.equal([1]);
    expect(pageNumbers(3, 5)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(pageNumbers(80, 51), 'past the end: around the last').to.deep.equal([1, 'gap', 49, 50, 51]);
  });

  it('when page 6 of 51 is shown, then it reads Previous 1 … 4 5 6 7 8 … 51 Next, with 6 marked as the current page; the first page has no Previous, the last no Next', () => {
    const link = (n: number) => `/b/acme?page=${n}`;
    const middle = pagination({ page: 6, totalPages: 51 }, link) as SafeHtml;
    const words = middle.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
    expect(words).to.equal('Previous 1 &hellip; 4 5 6 7 8 &hellip; 51 Next');
    expect(occurrences(middle, /aria-current="page"/)).to.equal(1);
    expect(middle.text).to.include('<a href="/b/acme?page=6" aria-label="Page 6" aria-current="page">6</a>');
    expect(middle.text).to.include('<a href="/b/acme?page=5" rel="prev">Previous</a>');
    expect(middle.text).to.include('<a href="/b/acme?page=7" rel="next">Next</a>');
    expect(occurrences(middle, /<li class="page-gap">&hellip;<\/li>/)).to.equal(2);
    const first = (pagination({ page: 1, totalPages: 3 }, link) as SafeHtml).text;
    expect(first).not.to.include('rel="prev"');
    expect(first).to.include('rel="next"');
    expect((pagination({ page: 3, totalPages: 3 }, link) as SafeHtml).text).not.to.include('rel="next"');
    expect(pagination({ page: 1, totalPages: 1 }, link), 'one page: no pagination').to.equal(false);
  });

  it('when a description is long or blank, then the row shows its first 160 characters ending in an ellipsis, never half a surrogate pair, and no line for a blank one', () => {
    const long = `${'a'.repeat(EXCERPT_LENGTH - 1)}\u{1F600}${'b'.repeat(5000)}`;
    const row = itemRow('acme', listItem({ description: long }), false, '/b/acme').text;
    expect(row).to.include(`<p class="excerpt"><bdi>${'a'.repeat(EXCERPT_LENGTH - 1)}&hellip;</bdi></p>`);
    expect(row).not.to.include('b'.repeat(10));
    const exact = 'c'.repeat(EXCERPT_LENGTH);
    expect(itemRow('acme', listItem({ description: exact }), false, '/b/acme').text, 'short enough: whole, no ellipsis').to.include(`<bdi>${exact}</bdi>`);
    const cut = excerpt('<'.repeat(EXCERPT_LENGTH + 50));
    expect(typeof cut === 'string' ? cut : cut.text, 'cut, then escaped').to.equal(`${'&lt;'.repeat(EXCERPT_LENGTH)}&hellip;`);
    for (const description of [null, '', '  \n ']) expect(itemRow('acme', listItem({ description }), false, '/b/acme').text).not.to.include('class="excerpt"');
  });

  it('when a row is drawn with options, then its heading level and status follow them, and the vote count is grouped in thousands, in ASCII', () => {
    const row = itemRow('acme', listItem({ voteCount: 1234567, description: null, title: 'Dark mode' }), false, '/b/acme', { heading: 'h3', showStatus: false }).text;
    expect(row).to.include('<h3 class="item-title">');
    expect(row).not.to.include('Status: ');
    expect(row).to.include('<li class="tag"><span class="visually-hidden">Type: </span>Idea</li>');
    expect(row).to.include('<span class="vote-count" data-count>1,234,567</span></span><span class="vote-label" data-count-label>votes</span>');
    expect(row).to.match(/^[\x00-\x7f]*$/);
    expect(itemRow('acme', listItem({ voteCount: 1 }), false, '/b/acme').text).to.include('<h2 class="item-title">').and.to.include('data-count>1</span></span><span class="vote-label" data-count-label>vote<');
    expect([0, 999, 1000, 12345, 1234567].map(grouped)).to.deep.equal(['0', '999', '1,000', '12,345', '1,234,567']);
    expect(itemMeta(listItem({ status: 'completed' })).text).to.include('<li class="tag status status-completed">');
    expect(itemMeta(listItem(), { showStatus: false }).text).not.to.include('status');
  });

  it('when the roadmap is rendered with full columns, then each is a labelled section of at most 10 h3 cards without their status, and a full column links to its own pages', () => {
    const many = Array.from({ length: 25 }, (_, i) => listItem({ id: `0190f1a2-3b4c-7d5e-8f60-${String(i).padStart(12, '0')}`, status: 'planned', type: 'bug' }));
    const page = roadmapPage({
      project,
      assets: ASSETS,
      columns: [
        { status: 'planned', items: many, total: 60 },
        { status: 'in-progress', items: [listItem()], total: 1 },
        { status: 'completed', items: [], total: 0 },
      ],
      voted: new Set(),
    });
    expectLandmarks(page, 'Board');
    expectEscaped(page);
    expectIsolated(page);
    expect(occurrences(page, /<section class="column" aria-labelledby="column-[a-z-]+">/)).to.equal(3);
    expect(occurrences(page, /<h3 class="item-title">/), '10 planned and 1 in progress').to.equal(11);
    expect(occurrences(page, /<h2 class="item-title">/)).to.equal(0);
    // The column's heading says the status once; a card keeps only its type and comments.
    expect(page.text).not.to.include('Status: ');
    expect(occurrences(page, /<span class="visually-hidden">Type: <\/span>Bug/)).to.equal(10);
    expect(page.text).to.include('<h2 id="column-planned">Planned <span class="hint">(60)</span></h2>');
    expect(page.text).to.include('<p class="column-more"><a href="/b/acme/roadmap/planned">Show all 60 in this column</a></p>');
    expect(occurrences(page, /class="column-more"/), 'a column that shows all it has links nowhere').to.equal(1);
    expect(page.text).to.include('<p class="empty">Nothing yet.</p>');
  });

  it('when a roadmap column page is rendered, then it names the status once in its h1, lists the rows without their status, and numbers its pages around this one', () => {
    const page = roadmapColumnPage({
      project,
      assets: ASSETS,
      status: 'in-progress',
      list: { items: [listItem(), listItem({ id: OTHER_ID, voteCount: 3 })], total: 200, page: 5, totalPages: 10 },
      problems: [],
      voted: new Set([ITEM_ID]),
      here: '/b/acme/roadmap/in-progress?page=5',
      pageLink: (n) => `/b/acme/roadmap/in-progress?page=${n}`,
    });
    expectLandmarks(page, 'Board');
    expectEscaped(page);
    expectIsolated(page);
    expectNoSummary(page);
    expect(titleOf(page)).to.equal(`&#x2068;Roadmap: In progress&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069;`);
    expect(page.text).to.include('<h1>In progress</h1>');
    expect(page.text).to.include('<a href="/b/acme/roadmap">Back to the roadmap</a>');
    expect(page.text).to.include('<p id="list-summary">200 items, most votes first</p>');
    expect(occurrences(page, /<h2 class="item-title">/)).to.equal(2);
    expect(page.text).not.to.include('Status: ');
    expect(page.text, 'a vote comes back to this page').to.include('name="return" value="/b/acme/roadmap/in-progress?page=5"');
    const numbers = [...page.text.matchAll(/<a href="[^"]*" aria-label="Page (\d+)"/g)].map((m) => Number(m[1]));
    expect(numbers, 'the numbered pages: the list\'s own pagination').to.deep.equal(pageNumbers(5, 10).filter((n) => n !== 'gap'));
    expect(occurrences(page, /class="page-gap"/)).to.equal(1);
    expect(page.text).to.include('<a href="/b/acme/roadmap/in-progress?page=5" aria-label="Page 5" aria-current="page">5</a>');
    expect(page.text).to.include('<a href="/b/acme/roadmap/in-progress?page=4" rel="prev">Previous</a>');
    expect(page.text).to.include('<a href="/b/acme/roadmap/in-progress?page=6" rel="next">Next</a>');
  });

  it('when a roadmap column page is past its last page or its query is refused, then it says so and links back instead of listing', () => {
    const base = { project, assets: ASSETS, status: 'planned' as const, voted: new Set<string>(), here: '/b/acme/roadmap/planned?page=9', pageLink: (n: number) => `/b/acme/roadmap/planned?page=${n}` };
    const past = roadmapColumnPage({ ...base, problems: [], list: { items: [], total: 30, page: 9, totalPages: 2 } });
    // The board's own words for a page past the end (board.empty.pastEnd).
    expect(past.text).to.include('<p class="empty">This page is past the end of the list. <a href="/b/acme/roadmap/planned?page=1">Go to the first page</a>.</p>');
    expect(past.text).to.include('<a href="/b/acme/roadmap/planned?page=2" rel="prev">Previous</a>');
    const refused = roadmapColumnPage({ ...base, problems: [{ message: 'page must be a whole number' }] });
    expectSummary(refused, [{ message: 'page must be a whole number' }]);
    expect(refused.text).not.to.include('class="items"');
  });

  it('when a refusal is rendered, then it has the heading for people, the reason as text, and the way back (to the board, or the start page for none)', () => {
    const onBoard = errorPage(429, HOSTILE, ASSETS, 'acme');
    expectLandmarks(onBoard);
    expectEscaped(onBoard);
    expect(titleOf(onBoard)).to.equal('Too many requests');
    expect(onBoard.text).to.include('<h1>Too many requests</h1>');
    expect(onBoard.text).to.include('<p>Wait a minute, then try again.</p>');
    expect(onBoard.text).to.include('<a href="/b/acme">Go to the board</a>');
    const nowhere = errorPage(404, 'There is no board at this address.', ASSETS);
    expect(nowhere.text).to.include('<h1>Page not found</h1>');
    expect(nowhere.text).to.include('<a href="/">Go to the start page</a>');
    expect(errorPage(401, 'x', ASSETS, 'acme').text).to.include('Go to the board without signing in');
    expect(errorPage(418, 'x', ASSETS).text).to.include('<h1>Sorry, something went wrong</h1>');
  });
});
