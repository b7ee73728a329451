import { deletePage, type I18n, inboxPage, initials, Messages, noticeOf, type SafeHtml, teamItemPage } from '@feedbackd/server/testing';
import { HOSTILE, ITEM_ID, listItem } from './page-checks.js';
import { ASSETS, COUNTS, inboxView, itemView, project } from './team-fixtures.js';

/*
 * The team's pages for the catalogue's check (catalogue-pages.test.ts): each with the parts that
 * have words of their own shown (tabs, banner, the empty list, refused forms, the side column,
 * merge and delete), in the language given.
 */

/**
 * What the fixtures give the team's views as people's text (comments, an email, voters' ids), the
 * avatars' initials made of it, and a date alone (the language's Intl writes it, not a message).
 */
export const TEAM_DATA = ['Thanks', 'Acme', 'ann@example.com', 'user-1', 'Voter 1', 'v1@example.com', initials(HOSTILE), initials('Voter 1'), new Messages('en').date('2026-05-04T03:02:01.000Z')];

const UNDO = `1999999999~planned~new_${ITEM_ID}~sig`;
const voters = [{ externalId: 'user-1', name: 'Voter 1', email: 'v1@example.com', votedAt: '2026-05-04T03:02:01.000Z' }];

export const TEAM_PAGES: [name: string, render: (i18n: I18n) => SafeHtml][] = [
  [
    'the inbox with its tabs, the banner after a bulk change (moved, missing) with Undo, and its items',
    (i18n) => inboxPage({ ...inboxView({ counts: COUNTS, filters: { status: 'new,under-review,planned', search: HOSTILE } }), notice: noticeOf(new URLSearchParams('changed=12&to=planned&missing=2'), i18n), undo: UNDO, i18n }),
  ],
  ['the inbox after an undo (restored, kept)', (i18n) => inboxPage({ ...inboxView({ counts: COUNTS, filters: { status: 'planned' } }), notice: noticeOf(new URLSearchParams('restored=3&kept=1'), i18n), i18n })],
  ['the inbox, an empty list after a delete', (i18n) => inboxPage({ ...inboxView({ counts: COUNTS, filters: {}, list: { items: [], total: 0, page: 1, totalPages: 0 } }), notice: noticeOf(new URLSearchParams('deleted=1'), i18n), i18n })],
  ['the inbox with a refused bulk change (every team problem)', (i18n) => inboxPage({ ...inboxView({ counts: COUNTS, filters: { search: HOSTILE } }), problems: [{ field: 'new-status', message: i18n.text('team.problem.selectItems') }, { message: i18n.text('team.problem.undoGone') }], i18n })],
  [
    'an item with its side column (status, merge candidates, submitter, voters, delete), history, comments and a notice',
    (i18n) => teamItemPage({ ...itemView({ notice: i18n.t('team.item.saved', { status: 'x' }) }), people: { submitter: { externalId: HOSTILE, name: HOSTILE, email: 'ann@example.com' }, identified: 25, anonymous: 3, subscribers: 26, voters, page: 2, pageSize: 20 }, i18n }),
  ],
  [
    'an item refused (a reply and a merge), posted anonymously, without a description, no voters, merge searched for nothing',
    (i18n) =>
      teamItemPage({
        ...itemView({ item: { ...itemView().item, description: null, endUser: null }, merge: { search: HOSTILE, items: [] } }),
        problems: [{ field: 'reply', message: i18n.text('team.problem.status') }],
        mergeProblem: i18n.text('team.problem.mergeOther'),
        people: { submitter: null, identified: 0, anonymous: 0, subscribers: 0, voters: [], page: 1, pageSize: 20 },
        i18n,
      }),
  ],
  ['an item with no merge candidate like its title', (i18n) => teamItemPage({ ...itemView({ merge: { search: undefined, items: [] } }), people: { submitter: { externalId: HOSTILE, name: null, email: null }, identified: 2, anonymous: 0, subscribers: 3, voters: [], page: 3, pageSize: 1 }, i18n })],
  ['an item with merge candidates like its title', (i18n) => teamItemPage({ ...itemView({ merge: { search: undefined, items: [listItem()] } }), i18n })],
  ['the delete confirmation', (i18n) => deletePage(project, ASSETS, listItem({ voteCount: 3, commentCount: 1 }), i18n)],
];
