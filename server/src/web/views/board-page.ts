import { FEEDBACK_STATUSES, FEEDBACK_TYPES, SORT_ORDERS, type FeedbackListItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../assets.js';
import type { Visitor } from '../visitors.js';
import { html, type SafeHtml } from '../html.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { count, errorSummary, itemRow, label, options, type Problem } from './parts.js';

/** The list's query as the visitor gave it (text), to fill the filter form again. */
export interface ListFilters {
  status?: string | undefined;
  type?: string | undefined;
  search?: string | undefined;
  sortBy?: string | undefined;
}

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

const SORT_TEXT: Record<string, string> = { newest: 'Newest', oldest: 'Oldest', votes: 'Most votes', comments: 'Most comments' };

/** GET /b/:slug: the filter form (a GET form: the API's query names), the items, and the pages. */
export function boardPage(view: BoardView): SafeHtml {
  const { project, filters, list } = view;
  const body = html`<h1>Feedback</h1>
${errorSummary(view.problems)}
${filterForm(project.slug, filters)}
${list && html`<p id="list-summary" aria-live="polite">${count(list.total, 'item')}${filters.search ? html` matching &ldquo;${filters.search}&rdquo;` : ''}</p>
${list.items.length === 0
      ? html`<p class="empty">Nothing here yet. <a href="${boardPaths.submit(project.slug)}">Give feedback</a>.</p>`
      : html`<ol class="items" aria-labelledby="list-summary">${list.items.map((item) => itemRow(project.slug, item, view.voted.has(item.id), view.here))}</ol>`}
${pagination(view, list)}`}`;
  return page({ title: 'Feedback', assets: view.assets, project, visitor: view.visitor, section: 'board', body });
}

function filterForm(slug: string, filters: ListFilters): SafeHtml {
  const any = [{ value: '', text: 'Any' }];
  return html`<form method="get" action="${boardPaths.board(slug)}" class="filters" role="search" aria-label="Filter and sort">
<div class="field"><label for="search">Search</label><input type="search" id="search" name="search" value="${filters.search ?? ''}" maxlength="200"></div>
<div class="field"><label for="status">Status</label><select id="status" name="status">${options([...any, ...FEEDBACK_STATUSES.map((s) => ({ value: s, text: label(s) }))], filters.status)}</select></div>
<div class="field"><label for="type">Type</label><select id="type" name="type">${options([...any, ...FEEDBACK_TYPES.map((t) => ({ value: t, text: label(t) }))], filters.type)}</select></div>
<div class="field"><label for="sortBy">Sort by</label><select id="sortBy" name="sortBy">${options(SORT_ORDERS.map((s) => ({ value: s, text: SORT_TEXT[s] ?? s })), filters.sortBy ?? 'newest')}</select></div>
<button type="submit" class="button">Apply</button>
</form>`;
}

function pagination(view: BoardView, list: NonNullable<BoardView['list']>): SafeHtml | false {
  if (list.totalPages <= 1) return false;
  return html`<nav class="pagination" aria-label="Pages">
<p>Page ${list.page} of ${list.totalPages}</p>
<ul>
${list.page > 1 && html`<li><a href="${view.pageLink(list.page - 1)}" rel="prev">Previous page</a></li>`}
${list.page < list.totalPages && html`<li><a href="${view.pageLink(list.page + 1)}" rel="next">Next page</a></li>`}
</ul>
</nav>`;
}
