import { expect } from 'chai';
import type { BoardProject } from '../../server/src/web/board/projects.js';
import { page } from '../../server/src/web/board/layout.js';
import { errorPage } from '../../server/src/web/board/views/error-page.js';
import { html, type SafeHtml } from '../../server/src/web/kit/html.js';
import { teamErrorPage, teamPage } from '../../server/src/web/team/layout.js';
import { signInPage } from '../../server/src/web/team/views/sign-in-page.js';
import { i18nFor, type I18n } from '../../server/src/web/kit/i18n.js';
import { expectAllInCatalogue, PSEUDO, textsForPeople } from '../helpers/pseudo-locale.js';
import { ASSETS, HOSTILE } from './page-checks.js';
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
/** What the fixtures give the views as people's text or the server's reasons. */
const REASON = 'A reason from the server';
const DATA = [HOSTILE, REASON, 'A title of the fixture', ...TEAM_DATA];

const PAGES: [name: string, render: (i18n: I18n) => SafeHtml][] = [
  ['the board frame, signed in (header, navigation, footer, switcher)', (i18n) => page({ title: 'A title of the fixture', assets: ASSETS, project, visitor, section: 'roadmap', path: '/b/acme/roadmap', body: html`<h1>${HOSTILE}</h1>`, i18n })],
  ['the board frame of a board without a description', (i18n) => page({ title: 'A title of the fixture', assets: ASSETS, project: { ...project, description: null }, body: html`<h1>${HOSTILE}</h1>`, i18n })],
  ['the board refusal page, on a board', (i18n) => errorPage(429, REASON, ASSETS, 'acme', { i18n })],
  ['the board refusal page, signed out', (i18n) => errorPage(401, REASON, ASSETS, 'acme', { i18n })],
  ['the board refusal page, on no board', (i18n) => errorPage(404, REASON, ASSETS, undefined, { i18n })],
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
