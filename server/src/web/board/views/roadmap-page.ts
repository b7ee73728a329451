import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, type SafeHtml } from '../../kit/html.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { itemRow, label } from '../../kit/views/parts.js';

/** The roadmap's columns, in the order work moves through them. */
export const ROADMAP_STATUSES = ['planned', 'in-progress', 'completed'] as const;

export interface RoadmapView {
  project: BoardProject;
  assets: AssetPaths;
  /** The identified visitor, named in the header; none for an anonymous one. */
  visitor?: Visitor | undefined;
  columns: { status: (typeof ROADMAP_STATUSES)[number]; items: FeedbackListItem[]; total: number }[];
  voted: ReadonlySet<string>;
}

/** GET /b/:slug/roadmap: a column per status, each ordered by votes. */
export function roadmapPage(view: RoadmapView): SafeHtml {
  const { project } = view;
  const here = boardPaths.roadmap(project.slug);
  const body = html`<h1>Roadmap</h1>
<div class="roadmap">
${view.columns.map(
    (column) => html`<section class="column" aria-labelledby="column-${column.status}">
<h2 id="column-${column.status}">${label(column.status)} <span class="hint">(${column.total})</span></h2>
${column.items.length === 0
        ? html`<p class="empty">Nothing yet.</p>`
        : html`<ol class="items">${column.items.map((item) => itemRow(project.slug, item, view.voted.has(item.id), here, { heading: 'h3' }))}</ol>`}
${column.total > column.items.length && html`<p><a href="${boardPaths.board(project.slug)}?status=${column.status}&amp;sortBy=votes">All ${column.total} ${label(column.status).toLowerCase()} items</a></p>`}
</section>`,
  )}
</div>`;
  return page({ title: 'Roadmap', assets: view.assets, project, visitor: view.visitor, section: 'roadmap', path: boardPaths.roadmap(project.slug), body });
}
