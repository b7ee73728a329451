import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, type SafeHtml } from '../../kit/html.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { pagination } from '../../kit/views/list-parts.js';
import { count, errorSummary, itemRow, label, type Problem } from '../../kit/views/parts.js';
import type { RoadmapStatus } from './roadmap-page.js';

export interface RoadmapColumnView {
  project: BoardProject;
  assets: AssetPaths;
  /** The identified visitor, named in the header; none for an anonymous one. */
  visitor?: Visitor | undefined;
  status: RoadmapStatus;
  /** The page asked for, by votes; none when the query was refused (`problems`). */
  list?: { items: FeedbackListItem[]; total: number; page: number; totalPages: number };
  problems: Problem[];
  voted: ReadonlySet<string>;
  /** This page's path and query: where a vote comes back to. */
  here: string;
  /** The path of another page of the column. */
  pageLink: (page: number) => string;
}

/**
 * GET /b/:slug/roadmap/:status: one column of the roadmap, all of it, a page at a time by votes,
 * with numbered pages. The heading names the status, so the rows do not repeat it.
 */
export function roadmapColumnPage(view: RoadmapColumnView): SafeHtml {
  const { project, list } = view;
  const name = label(view.status);
  const body = html`<p class="back-link"><a href="${boardPaths.roadmap(project.slug)}">Back to the roadmap</a></p>
<h1>${name}</h1>
${errorSummary(view.problems)}
${list && html`<p id="list-summary">${count(list.total, 'item')}, most votes first</p>
${list.items.length > 0
      ? html`<ol class="items" aria-labelledby="list-summary">${list.items.map((item) => itemRow(project.slug, item, view.voted.has(item.id), view.here, { showStatus: false }))}</ol>`
      : list.total === 0
        ? html`<p class="empty">Nothing yet.</p>`
        : html`<p class="empty">There is nothing on this page. <a href="${view.pageLink(1)}">Go to the first page</a>.</p>`}
${pagination(list, view.pageLink)}`}`;
  return page({ title: `Roadmap: ${name}`, assets: view.assets, project, visitor: view.visitor, section: 'roadmap', path: boardPaths.roadmapColumn(project.slug, view.status), body });
}
