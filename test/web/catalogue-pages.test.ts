import { expect } from 'chai';
import {
  boardPage,
  type BoardProject,
  type BoardView,
  changelogPage,
  errorPage,
  html,
  type I18n,
  i18nFor,
  initials,
  itemPage,
  page,
  parseListQuery,
  problemsOf,
  roadmapColumnPage,
  roadmapPage,
  type SafeHtml,
  signInPage,
  submitPage,
  teamErrorPage,
  teamPage,
  toValidationDetails,
} from '@feedbackd/server/testing';
import { expectAllInCatalogue, PSEUDO, textsForPeople } from '../helpers/pseudo-locale.js';
import { ASSETS, detail, HOSTILE, listItem, OTHER_ID } from './page-checks.js';
import { CreateFeedbackRequestSchema } from '@feedbackd/sdk/contract';
import { TEAM_PAGES, TEAM_DATA } from './team-pages.js';

const TEAM_ASSETS = { ...ASSETS, teamCss: '/team/assets/team.abc.css' };

/*
 * Every page converted to the message catalogue, rendered in the pseudo-locale: no English may be
 * left outside it (test/helpers/pseudo-locale.ts). A converted view joins PAGES with the data its
 * fixture gives it (what people wrote, which is no message).
 */

const project: BoardProject = { id: 'p1', slug: 'acme', name: HOSTILE, voterSalt: 'salt', identitySecret: null, frameOrigins: [], origin: 'https://feedback.example.com' };
const teamProject = { id: 'p1', slug: 'acme', name: HOSTILE, boardEnabled: true, locale: null };
const visitor = { endUserId: 'u1', externalId: 'ext-1', name: HOSTILE };
const REASON = 'A reason from the server';
/** What the fixtures give the views as people's text or the server's reasons, and what is made of it (a name's initials); and the submit form's second button's value, a name for the server. */
const DATA = [HOSTILE, REASON, 'A title of the fixture', 'Thanks', 'Acme', initials(HOSTILE), initials('Acme'), 'similar', ...TEAM_DATA];

/** The board's list in a state: its filters, its list (none for a refused query), its problems. */
function boardIn(i18n: I18n, state: Partial<BoardView>): SafeHtml {
  return boardPage({ project, assets: ASSETS, visitor, filters: {}, problems: [], voted: new Set([OTHER_ID]), here: '/b/acme', pageLink: (n) => `/b/acme?page=${n}`, i18n, ...state });
}
const twoItems = { items: [listItem(), listItem({ id: OTHER_ID, voteCount: 1234, commentCount: 1, status: 'planned', type: 'bug' })], total: 41, page: 2, totalPages: 3 };
const empty = { items: [], total: 0, page: 1, totalPages: 0 };
/** A refused submission's problems, as the contract words them (a title missing, a type not offered, a description too long). */
const refused = problemsOf(toValidationDetails(CreateFeedbackRequestSchema.safeParse({ title: ' ', type: 'wish', description: 'x'.repeat(100_001) }).error!), new Set(['title', 'description', 'type']));
const history = [
  { from: 'new', to: 'under-review', changedAt: '2026-05-05T01:00:00.000Z' },
  { from: 'under-review', to: 'planned', changedAt: '2026-05-06T01:00:00.000Z' },
];

const PAGES: [name: string, render: (i18n: I18n) => SafeHtml][] = [
  ['the board frame, signed in (header, navigation, footer, switcher)', (i18n) => page({ title: 'A title of the fixture', assets: ASSETS, project, visitor, section: 'roadmap', path: '/b/acme/roadmap', body: html`<h1>${HOSTILE}</h1>`, i18n })],
  ['the board frame of a board without a description', (i18n) => page({ title: 'A title of the fixture', assets: ASSETS, project: { ...project, description: null }, body: html`<h1>${HOSTILE}</h1>`, i18n })],
  ['the board refusal page, on a board', (i18n) => errorPage(429, REASON, ASSETS, 'acme', { i18n })],
  ['the board refusal page, signed out', (i18n) => errorPage(401, REASON, ASSETS, 'acme', { i18n })],
  ['the board refusal page, on no board', (i18n) => errorPage(404, REASON, ASSETS, undefined, { i18n })],
  ['the board list, a middle page with a search', (i18n) => boardIn(i18n, { filters: { search: HOSTILE, sortBy: 'votes' }, list: twoItems })],
  ['the board list without a search', (i18n) => boardIn(i18n, { list: { ...twoItems, page: 1, total: 1 } })],
  ['the board list refused (a bad query)', (i18n) => boardIn(i18n, { filters: { status: 'nope', sortBy: 'x' }, problems: parseListQuery({ status: 'nope,', type: 'wish', sortBy: 'x', page: '0', search: 'x'.repeat(201) }).problems! })],
  ['the board list, empty', (i18n) => boardIn(i18n, { list: empty })],
  ['the board list, a search that finds nothing', (i18n) => boardIn(i18n, { filters: { search: HOSTILE }, list: empty })],
  ['the board list, filters that find nothing', (i18n) => boardIn(i18n, { filters: { status: 'closed' }, list: empty })],
  ['the board list, a page past the end', (i18n) => boardIn(i18n, { list: { items: [], total: 5, page: 9, totalPages: 1 } })],
  ['an item page with comments and a history', (i18n) => itemPage({ project, assets: ASSETS, visitor, item: detail(), voted: true, history, i18n })],
  ['an item page, anonymous, no description, no comments, no history', (i18n) => itemPage({ project, assets: ASSETS, item: detail({ endUser: null, description: null, comments: [] }), voted: false, history: [], i18n })],
  ['an item page shipped in two changelog entries', (i18n) => itemPage({ project, assets: ASSETS, item: detail(), voted: false, history: [], shippedIn: [{ id: OTHER_ID, title: HOSTILE }, { id: 'e2', title: 'A title of the fixture' }], i18n })],
  ['the changelog, a middle page with an entry and its items', (i18n) => changelogPage({ project, assets: ASSETS, visitor, page: 2, totalPages: 3, pageLink: (n) => `/b/acme/changelog?page=${n}`, i18n, entries: [
    { id: OTHER_ID, title: HOSTILE, body: '## Thanks\n\n**Thanks**', state: 'published', publishedAt: '2026-05-06T01:00:00.000Z', createdAt: '2026-05-05T01:00:00.000Z', updatedAt: '2026-05-06T01:00:00.000Z', items: [{ id: listItem().id, title: HOSTILE, status: 'completed' }] },
    { id: 'e2', title: 'A title of the fixture', body: '', state: 'published', publishedAt: '2026-05-05T01:00:00.000Z', createdAt: '2026-05-05T01:00:00.000Z', updatedAt: '2026-05-05T01:00:00.000Z', items: [] },
  ] })],
  ['the changelog, empty', (i18n) => changelogPage({ project, assets: ASSETS, entries: [], page: 1, totalPages: 0, pageLink: (n) => `/b/acme/changelog?page=${n}`, i18n })],
  ['the submit form', (i18n) => submitPage({ project, assets: ASSETS, values: {}, problems: [], i18n })],
  ['the submit form refused', (i18n) => submitPage({ project, assets: ASSETS, visitor, values: { title: HOSTILE, description: HOSTILE, type: 'wish' }, problems: refused, i18n })],
  ['the submit form with similar items', (i18n) => submitPage({ project, assets: ASSETS, values: { title: HOSTILE }, problems: [], similar: { items: [{ ...listItem(), userHasVoted: false, similarity: 0.5 }], voted: new Set([listItem().id]) }, i18n })],
  ['the submit form, similar asked with no title', (i18n) => submitPage({ project, assets: ASSETS, values: {}, problems: [], similar: 'no-title', i18n })],
  ['the submit form, nothing similar', (i18n) => submitPage({ project, assets: ASSETS, values: { title: HOSTILE }, problems: [], similar: { items: [], voted: new Set() }, i18n })],
  ['the roadmap, a full column, a short one and an empty one', (i18n) => roadmapPage({ project, assets: ASSETS, visitor, voted: new Set([OTHER_ID]), i18n, columns: [
    { status: 'planned', items: Array.from({ length: 10 }, (_, n) => listItem({ id: `00000000-0000-4000-8000-0000000000${10 + n}`, status: 'planned' })), total: 23 },
    { status: 'in-progress', items: [listItem({ id: OTHER_ID, status: 'in-progress', voteCount: 1 })], total: 1 },
    { status: 'completed', items: [], total: 0 },
  ] })],
  ['a roadmap column, a middle page', (i18n) => roadmapColumnPage({ project, assets: ASSETS, visitor, status: 'planned', list: { ...twoItems, total: 41 }, problems: [], voted: new Set(), here: '/b/acme/roadmap/planned?page=2', pageLink: (n) => `/b/acme/roadmap/planned?page=${n}`, i18n })],
  ['a roadmap column refused (a bad page)', (i18n) => roadmapColumnPage({ project, assets: ASSETS, status: 'completed', problems: parseListQuery({ page: '0' }).problems!, voted: new Set(), here: '/b/acme/roadmap/completed?page=0', pageLink: (n) => `/b/acme/roadmap/completed?page=${n}`, i18n })],
  ['a roadmap column, empty, and a page past its end', (i18n) => html`${roadmapColumnPage({ project, assets: ASSETS, status: 'in-progress', list: empty, problems: [], voted: new Set(), here: '/b/acme/roadmap/in-progress', pageLink: (n) => `/b/acme/roadmap/in-progress?page=${n}`, i18n })}${roadmapColumnPage({ project, assets: ASSETS, status: 'in-progress', list: { items: [], total: 3, page: 4, totalPages: 1 }, problems: [], voted: new Set(), here: '/b/acme/roadmap/in-progress?page=4', pageLink: (n) => `/b/acme/roadmap/in-progress?page=${n}`, i18n })}`],
  ['the team frame, signed in (navigation, shortcuts, footer)', (i18n) => teamPage({ title: 'A title of the fixture', assets: TEAM_ASSETS, project: teamProject, inbox: true, body: html`<h1>${HOSTILE}</h1>`, i18n })],
  ['the team refusal page, signed in', (i18n) => teamErrorPage(404, REASON, TEAM_ASSETS, teamProject, i18n)],
  ['the team refusal page, signed out', (i18n) => teamErrorPage(401, REASON, TEAM_ASSETS, undefined, i18n)],
  ['the team sign-in page', (i18n) => signInPage({ assets: TEAM_ASSETS, name: HOSTILE, notice: REASON, i18n })],
  ...TEAM_PAGES,
];

describe('pages in the message catalogue', () => {
  for (const [name, render] of PAGES) {
    it(`when ${name} is rendered in the pseudo-locale, then every text for people is a message or the fixture's data`, () => {
      expectAllInCatalogue(render(PSEUDO), DATA);
    });
  }

  it('when a page has English written in a view, then the check finds it (in text, a title or an aria-label)', () => {
    for (const stray of [html`<p>Hello there</p>`, html`<a title="Hello there" href="/">⟦x⟧</a>`, html`<nav aria-label="Hello there"></nav>`, html`<button value="Hello there">⟦x⟧</button>`]) {
      expect(() => expectAllInCatalogue(stray, DATA), stray.text).to.throw(/outside the message catalogue/);
    }
    expect(textsForPeople(html`<p>⟦a⟧ <code>feedback open</code></p>`)).to.deep.equal(['⟦a⟧']);
  });

  it('when a page is rendered in Arabic, then the document is right to left, and every page above is in Arabic and not in English', () => {
    const arabic = i18nFor('ar');
    for (const [name, render] of PAGES) {
      const text = render(arabic).text;
      expect(text, name).to.match(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
      expect(text, name).to.include('الانتقال إلى المحتوى الرئيسي');
    }
  });
});
