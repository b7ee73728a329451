import { expect } from 'chai';
import type { BoardProject } from '../../server/src/web/board/projects.js';
import { boardPage, type BoardView } from '../../server/src/web/board/views/board-page.js';
import { errorPage } from '../../server/src/web/board/views/error-page.js';
import { itemPage } from '../../server/src/web/board/views/item-page.js';
import { roadmapPage } from '../../server/src/web/board/views/roadmap-page.js';
import { roadmapColumnPage } from '../../server/src/web/board/views/roadmap-column-page.js';
import { pageNumbers } from '../../server/src/web/kit/views/page-numbers.js';
import { submitPage } from '../../server/src/web/board/views/submit-page.js';
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
    expect(page.text).to.include('<a href="/b/acme?page=1&amp;search=&lt;x&gt;" rel="prev">Previous page</a>');
    expect(page.text).to.include('rel="next"');
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

  it('when an item is rendered, then its title is the h1 and the page title, its comments are text, the team marked, the vote form posts to the item', () => {
    const page = itemPage({ project, assets: ASSETS, item: detail(), voted: false });
    expectLandmarks(page, 'Board');
    expectEscaped(page);
    expectIsolated(page);
    expect(titleOf(page)).to.equal(`&#x2068;${HOSTILE_ESCAPED}&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069;`);
    expect(page.text).to.include(`<h1><bdi>${HOSTILE_ESCAPED}</bdi></h1>`);
    expect(page.text).to.include(`<form method="post" action="/b/acme/items/${ITEM_ID}/vote" class="vote" data-vote>`);
    expect(page.text).to.include(`<input type="hidden" name="return" value="/b/acme/items/${ITEM_ID}">`);
    expect(page.text).to.include('aria-pressed="false"');
    expect(occurrences(page, /<li class="comment team">/)).to.equal(1);
    expect(page.text).to.include('<h2 id="comments-title">2 comments</h2>');
    expect(page.text).not.to.include('Signed in as');
  });

  it('when a name or a title ends in U+202E (right-to-left override), then it is isolated in <bdi>, so the date beside it is not reversed (issue 37: bidi)', () => {
    const item = detail({
      title: 'Export\u202e',
      endUser: { name: 'Mallory\u202e', avatarUrl: null },
      comments: [{ id: 'c1', content: 'Same\u202e', createdAt: '2026-05-04T04:00:00.000Z', author: { name: 'Eve\u202e' } }],
    });
    const page = itemPage({ project: { ...project, name: 'Acme\u202e' }, assets: ASSETS, item, voted: false, visitor: { ...visitor, name: 'Ann\u202e' } });
    expect(page.text).to.include('<p class="hint">Posted <time datetime="2026-05-04T03:02:01.000Z">2026-05-04</time> by <bdi>Mallory\u202e</bdi></p>');
    expect(page.text).to.include('<p><strong><bdi>Eve\u202e</bdi></strong> <span class="hint"><time datetime="2026-05-04T04:00:00.000Z">2026-05-04</time></span></p>');
    expect(page.text).to.include('<p><bdi>Same\u202e</bdi></p>');
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
    expect(plain.text, 'without a description, the pages still describe themselves').to.include('<meta name="description" content="&#x2068;Share feedback on Acme, vote on ideas and follow the roadmap.&#x2069;">');
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

  it('when the submit form is shown with similar items, then they link to the items; with none asked, the live region is empty', () => {
    const similar = [{ ...listItem(), userHasVoted: false, similarity: 0.5 }];
    const asked = submitPage({ project, assets: ASSETS, values: {}, problems: [], similar });
    expectNoSummary(asked);
    expectIsolated(asked);
    expect(titleOf(asked)).to.equal(`&#x2068;Give feedback&#x2069; &ndash; &#x2068;${HOSTILE_ESCAPED}&#x2069;`);
    expect(asked.text).to.include(`<li><a href="/b/acme/items/${ITEM_ID}"><bdi>${HOSTILE_ESCAPED}</bdi></a>`);
    const fresh = submitPage({ project, assets: ASSETS, values: {}, problems: [] });
    expect(fresh.text).to.include('<section class="similar" aria-live="polite" data-similar="/b/acme/similar" data-board="/b/acme">\n\n\n</section>');
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
    const numbers = [...page.text.matchAll(/aria-label="Page (\d+)"(?: aria-current="page")?>|aria-current="page" aria-label="Page (\d+)">/g)].map((m) => Number(m[1] ?? m[2]));
    expect(numbers, 'the first, the pages around this one, the last').to.deep.equal([1, 4, 5, 6, 10]);
    expect(page.text).to.include('<a href="/b/acme/roadmap/in-progress?page=5" aria-current="page" aria-label="Page 5">5</a>');
    expect(occurrences(page, /class="gap" aria-hidden="true"/)).to.equal(2);
    expect(page.text).to.include('<a href="/b/acme/roadmap/in-progress?page=4" rel="prev">Previous page</a>');
    expect(page.text).to.include('<a href="/b/acme/roadmap/in-progress?page=6" rel="next">Next page</a>');
  });

  it('when pages are numbered near either end, then a gap of one page is that page\'s link instead of an ellipsis', () => {
    expect(pageNumbers(1, 1)).to.deep.equal([1]);
    expect(pageNumbers(1, 5)).to.deep.equal([1, 2, 'gap', 5]);
    expect(pageNumbers(3, 5)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(pageNumbers(4, 9)).to.deep.equal([1, 2, 3, 4, 5, 'gap', 9]);
    expect(pageNumbers(9, 9)).to.deep.equal([1, 'gap', 8, 9]);
  });

  it('when a roadmap column page is past its last page or its query is refused, then it says so and links back instead of listing', () => {
    const base = { project, assets: ASSETS, status: 'planned' as const, voted: new Set<string>(), here: '/b/acme/roadmap/planned?page=9', pageLink: (n: number) => `/b/acme/roadmap/planned?page=${n}` };
    const past = roadmapColumnPage({ ...base, problems: [], list: { items: [], total: 30, page: 9, totalPages: 2 } });
    expect(past.text).to.include('<p class="empty">There is nothing on this page. <a href="/b/acme/roadmap/planned?page=1">Go to the first page</a>.</p>');
    expect(past.text).to.include('<a href="/b/acme/roadmap/planned?page=2" rel="prev">Previous page</a>');
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
