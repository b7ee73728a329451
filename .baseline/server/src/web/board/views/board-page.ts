import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { filterForm, pagination, type ListFilters } from '../../kit/views/list-parts.js';
import { errorSummary, itemRow, type Problem } from '../../kit/views/parts.js';

export type { ListFilters } from '../../kit/views/list-parts.js';

export interface BoardView {
  project: BoardProject;
  assets: AssetPaths;
  /** The identified visitor, named in the header; none for an anonymous one. */
  visitor?: Visitor | undefined;
  filters: ListFilters;
  /** The query's problems (the contract's messages); no list is shown with them. */
  problems: Problem[];
  list?: { items: FeedbackListItem[]; total: number; page: number; totalPages: number };
  /** Ids of the listed items this visitor votes for. */
  voted: ReadonlySet<string>;
  /** This page's path and query: where a vote comes back to. */
  here: string;
  /** The path of another page of the same list. */
  pageLink: (page: number) => string;
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. */
  i18n?: I18n | undefined;
}

/** GET /b/:slug: the filter form (a GET form: the API's query names), the items, and the pages. */
export function boardPage(view: BoardView): SafeHtml {
  const { project, filters, list } = view;
  const i18n = view.i18n ?? ENGLISH;
  const { t } = i18n;
  const body = html`<h1>${t('board.list.heading')}</h1>
${errorSummary(view.problems, i18n)}
${filterForm(boardPaths.board(project.slug), filters, i18n)}
${list && html`<p id="list-summary" aria-live="polite">${listSummary(list.total, filters.search, i18n)}</p>
${list.items.length === 0
      ? emptyList(view, list, i18n)
      : html`<ol class="items" aria-labelledby="list-summary">${list.items.map((item) => itemRow(project.slug, item, view.voted.has(item.id), view.here, { i18n }))}</ol>`}
${pagination(list, view.pageLink, i18n)}`}`;
  return page({ title: i18n.text('board.list.heading'), assets: view.assets, project, visitor: view.visitor, section: 'board', path: boardPaths.board(project.slug), body, i18n });
}

/** How many items the list holds, and what they match: one sentence, so a language orders it as it must. */
function listSummary(total: number, search: string | undefined, i18n: I18n): SafeHtml {
  return search ? i18n.t('board.list.summarySearch', { count: total, search: isolated(search) }) : i18n.t('board.list.summary', { count: total });
}

/**
 * What a list with no items on this page says, honestly: a search or a filter that matches
 * nothing says so and offers to clear them (the order is kept: it hides nothing); a page past the
 * end of the list leads back to its first page; only a board with nothing on it at all is
 * "Nothing here yet", with the way to give the first feedback.
 */
function emptyList(view: BoardView, list: { total: number }, i18n: I18n): SafeHtml {
  const { project, filters } = view;
  const { t } = i18n;
  const link = (href: string, text: SafeHtml) => html`<a href="${href}">${text}</a>`;
  if (list.total > 0) return html`<p class="empty">${t('board.empty.pastEnd', { link: link(view.pageLink(1), t('board.empty.firstPage')) })}</p>`;
  const clear = boardPaths.board(project.slug) + (filters.sortBy ? `?sortBy=${encodeURIComponent(filters.sortBy)}` : '');
  if (filters.search) return html`<p class="empty">${t('board.empty.search', { search: isolated(filters.search), link: link(clear, t('board.empty.clearSearch')) })}</p>`;
  if (filters.status || filters.type) return html`<p class="empty">${t('board.empty.filters', { link: link(clear, t('board.empty.clearFilters')) })}</p>`;
  return html`<p class="empty">${t('board.empty.nothing', { link: link(boardPaths.submit(project.slug), t('board.nav.submit')) })}</p>`;
}
