import { expect } from 'chai';
import { CreateFeedbackRequestSchema } from '@feedbackd/sdk/contract';
import {
  boardTab,
  changesTab,
  errorPanel,
  feedbackTab,
  html,
  type I18n,
  i18nFor,
  mineTab,
  type MyRequest,
  panelPage,
  type PanelState,
  problemsOf,
  type SafeHtml,
  type Tab,
  toValidationDetails,
} from '@feedbackd/server/testing';
import { expectAllInCatalogue, PSEUDO } from '../helpers/pseudo-locale.js';
import { HOSTILE, HOSTILE_ESCAPED, listItem, OTHER_ID } from './page-checks.js';

/*
 * The widget's panel (web/widget/views/) rendered without a server: every text for people is a
 * message of the catalogue (the pseudo-locale check), what people wrote is escaped, and the
 * Arabic panel is right to left.
 */

const ASSETS = { css: '/w/assets/panel.abc.css', js: '/w/assets/panel.abc.js' };
const state: PanelState = { base: '/w/acme', origin: 'https://app.example.com', theme: 'dark', lang: undefined };
const visitor = { endUserId: 'u1', externalId: 'ext-1', name: HOSTILE };
const DATA = [HOSTILE, 'A reason from the server', 'similar', 'send', 'Shipped'];
const refused = problemsOf(toValidationDetails(CreateFeedbackRequestSchema.safeParse({ title: ' ' }).error!), new Set(['title', 'description', 'type']));
const mine: MyRequest[] = [
  { id: 'a', title: HOSTILE, status: 'planned', voteCount: 3, submitted: true, voted: true, unreadStatus: true, unreadReply: true },
  { id: 'b', title: HOSTILE, status: 'new', voteCount: 1, submitted: false, voted: true, unreadStatus: null, unreadReply: false },
];
const entry = { id: 'e1', title: HOSTILE, body: '**Shipped**', state: 'published' as const, publishedAt: '2026-05-06T01:00:00.000Z', createdAt: '2026-05-05T01:00:00.000Z', updatedAt: '2026-05-06T01:00:00.000Z', items: [] };

function panel(i18n: I18n, tab: Tab, body: SafeHtml): SafeHtml {
  return panelPage({ state, assets: ASSETS, projectName: HOSTILE, tab, visitor, i18n, body });
}

const PANELS: [name: string, render: (i18n: I18n) => SafeHtml][] = [
  ['Give feedback, sent', (i18n) => panel(i18n, 'feedback', feedbackTab(state, { values: {}, problems: [], sent: true }, i18n))],
  ['Give feedback, refused, with similar items', (i18n) => panel(i18n, 'feedback', feedbackTab(state, { values: { title: HOSTILE }, problems: refused, similar: { items: [{ ...listItem(), score: 0.5 } as never], voted: new Set() } }, i18n))],
  ['Give feedback, nothing similar', (i18n) => panel(i18n, 'feedback', feedbackTab(state, { values: {}, problems: [], similar: { items: [], voted: new Set() } }, i18n))],
  ['Board', (i18n) => panel(i18n, 'board', boardTab(state, [listItem(), listItem({ id: OTHER_ID, title: HOSTILE })], new Set([OTHER_ID]), i18n))],
  ['Board, empty', (i18n) => panel(i18n, 'board', boardTab(state, [], new Set(), i18n))],
  ["What's new", (i18n) => panel(i18n, 'changes', changesTab([entry], i18n))],
  ["What's new, empty", (i18n) => panel(i18n, 'changes', changesTab([], i18n))],
  ['My requests with unread changes', (i18n) => panel(i18n, 'mine', mineTab(mine, i18n))],
  ['My requests, signed out', (i18n) => panel(i18n, 'mine', mineTab(undefined, i18n))],
  ['My requests, empty', (i18n) => panel(i18n, 'mine', mineTab([], i18n))],
  ['the refused panel', (i18n) => errorPanel(403, 'A reason from the server', ASSETS, i18n)],
];

describe('the widget panel in the message catalogue', () => {
  for (const [name, render] of PANELS) {
    it(`when the panel's ${name} is rendered in the pseudo-locale, then every text for people is a message or the fixture's data`, () => {
      expectAllInCatalogue(render(PSEUDO), DATA);
    });
  }

  it('when what people wrote is in the panel, then it is escaped, and the panel loads nothing inline', () => {
    const page = panel(i18nFor('en'), 'board', boardTab(state, [listItem({ title: HOSTILE })], new Set(), i18nFor('en'))).text;
    expect(page).to.include(HOSTILE_ESCAPED);
    expect(page).not.to.include('<script>alert');
    expect(page).not.to.match(/<script>|<style|style="/);
    expect(page).to.include('data-theme="dark"');
  });

  it('when the panel is rendered in Arabic, then it is right to left and its tabs are in Arabic', () => {
    const page = panel(i18nFor('ar'), 'mine', mineTab(mine, i18nFor('ar'))).text;
    expect(page).to.match(/<html lang="ar" dir="rtl"/);
    expect(page).to.include('طلباتي');
  });
});
