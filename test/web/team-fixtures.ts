import type { InboxView, TeamItemView, TeamProject } from '@feedbackd/server/testing';
import { ASSETS as BOARD_ASSETS, HOSTILE, OTHER_ID, detail, listItem } from './page-checks.js';

/** The team's views' fixtures (team-views tests, catalogue-pages.test.ts): what the routes would give them. */

/** The board's stylesheet, and the team's script and stylesheet. */
export const ASSETS = { ...BOARD_ASSETS, teamCss: '/team/assets/team.abc.css' };
export const COUNTS = { all: 21, new: 12, 'under-review': 3, planned: 0, 'in-progress': 1, completed: 5, closed: 0 };

export const project: TeamProject = { id: 'p1', slug: 'acme', name: HOSTILE, boardEnabled: true, locale: null };

export function inboxView(overrides: Partial<InboxView> = {}): InboxView {
  return {
    project,
    assets: ASSETS,
    filters: { status: 'new,under-review', search: HOSTILE },
    problems: [],
    list: { items: [listItem(), listItem({ id: OTHER_ID })], total: 2, page: 1, totalPages: 1 },
    here: '/team?status=new',
    pageLink: (n) => `/team?page=${n}`,
    statusLink: (status) => `/team?search=x&status=${status}`,
    ...overrides,
  };
}

export function itemView(overrides: Partial<TeamItemView> = {}): TeamItemView {
  return {
    project,
    assets: ASSETS,
    item: { ...detail(), statusHistory: [{ from: 'new', to: 'in-progress', changedAt: '2026-05-06T07:08:09.000Z', keyId: 'k1', keyPrefix: 'sk_abcdef', actor: HOSTILE }] },
    values: {},
    problems: [],
    merge: { search: HOSTILE, items: [listItem({ id: OTHER_ID })] },
    people: {
      submitter: { externalId: HOSTILE, name: HOSTILE, email: 'ann@example.com' },
      identified: 1,
      anonymous: 0,
      subscribers: 2,
      voters: [{ externalId: HOSTILE, name: HOSTILE, email: 'ann@example.com', votedAt: '2026-05-04T03:02:01.000Z' }],
      page: 1,
      pageSize: 20,
    },
    ...overrides,
  };
}
