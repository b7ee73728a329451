import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { filterForm, pagination, type ListFilters } from '../../kit/views/list-parts.js';
import { count, errorSummary, itemRow, type Problem } from '../../kit/views/parts.js';

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
}

/** GET /b/:slug: the filter form (a GET form: the API's query names), the items, and the pages. */
export function boardPage(view: BoardView): SafeHtml {
  const { project, filters, list } = view;
  const body = html`<h1>Feedback</h1>
${errorSummary(view.problems)}
${filterForm(boardPaths.board(project.slug), filters)}
${list && html`<p id="list-summary" aria-live="polite">${count(list.total, 'item')}${filters.search ? html` matching &ldquo;${isolated(filters.search)}&rdquo;` : ''}</p>
${list.items.length === 0
      ? emptyList(view, list)
      : html`<ol class="items" aria-labelledby="list-summary">${list.items.map((item) => itemRow(project.slug, item, view.voted.has(item.id), view.here))}</ol>`}
${pagination(list, view.pageLink)}`}`;
  return page({ title: 'Feedback', assets: view.assets, project, visitor: view.visitor, section: 'board', path: boardPaths.board(project.slug), body });
}

/**
 * What a list with no items on this page says, honestly: a search or a filter that matches
 * nothing says so and offers to clear them (the order is kept: it hides nothing); a page past the
 * end of the list leads back to its first page; only a board with nothing on it at all is
 * "Nothing here yet", with the way to give the first feedback.
 */
function emptyList(view: BoardView, list: { total: number }): SafeHtml {
  const { project, filters } = view;
  if (list.total > 0) return html`<p class="empty">This page is past the end of the list. <a href="${view.pageLink(1)}">Go to the first page</a>.</p>`;
  const clear = boardPaths.board(project.slug) + (filters.sortBy ? `?sortBy=${encodeURIComponent(filters.sortBy)}` : '');
  if (filters.search) return html`<p class="empty">No feedback matches &ldquo;${isolated(filters.search)}&rdquo;. <a href="${clear}">Clear the search and filters</a>.</p>`;
  if (filters.status || filters.type) return html`<p class="empty">No feedback matches these filters. <a href="${clear}">Clear the filters</a>.</p>`;
  return html`<p class="empty">Nothing here yet. <a href="${boardPaths.submit(project.slug)}">Give feedback</a>.</p>`;
}
