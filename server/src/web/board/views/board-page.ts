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
      ? html`<p class="empty">Nothing here yet. <a href="${boardPaths.submit(project.slug)}">Give feedback</a>.</p>`
      : html`<ol class="items" aria-labelledby="list-summary">${list.items.map((item) => itemRow(project.slug, item, view.voted.has(item.id), view.here))}</ol>`}
${pagination(list, view.pageLink)}`}`;
  return page({ title: 'Feedback', assets: view.assets, project, visitor: view.visitor, section: 'board', path: boardPaths.board(project.slug), body });
}
