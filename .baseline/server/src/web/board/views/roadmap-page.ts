import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { itemRow, label } from '../../kit/views/parts.js';

/** The roadmap's columns, in the order work moves through them. */
export const ROADMAP_STATUSES = ['planned', 'in-progress', 'completed'] as const;
export type RoadmapStatus = (typeof ROADMAP_STATUSES)[number];

/**
 * Cards per column; past that, the column links to its own pages (roadmap-column-page.ts). Ten
 * keep the roadmap quick to load and to read: three columns of fifty were 2,600 elements and
 * 7,600 px on a desktop.
 */
export const ROADMAP_COLUMN_SIZE = 10;

/** A roadmap status named by a path, or undefined when it names none of the columns. */
export function roadmapStatus(value: string | undefined): RoadmapStatus | undefined {
  return ROADMAP_STATUSES.find((status) => status === value);
}

export interface RoadmapView {
  project: BoardProject;
  assets: AssetPaths;
  /** The identified visitor, named in the header; none for an anonymous one. */
  visitor?: Visitor | undefined;
  /** Each column's most-voted items (the first ROADMAP_COLUMN_SIZE are shown), and how many it has in all. */
  columns: { status: RoadmapStatus; items: FeedbackListItem[]; total: number }[];
  voted: ReadonlySet<string>;
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. */
  i18n?: I18n | undefined;
}

/**
 * GET /b/:slug/roadmap: a column per status, each its few most-voted items, and a link to the
 * column's own pages when it has more. A card leaves out its status: its column says it once.
 */
export function roadmapPage(view: RoadmapView): SafeHtml {
  const { project } = view;
  const i18n = view.i18n ?? ENGLISH;
  const here = boardPaths.roadmap(project.slug);
  const body = html`<h1>${i18n.t('roadmap.heading')}</h1>
<div class="roadmap">
${view.columns.map(
    (column) => html`<section class="column" aria-labelledby="column-${column.status}">
<h2 id="column-${column.status}">${label(column.status, i18n)} <span class="hint">(${i18n.number(column.total)})</span></h2>
${column.items.length === 0
        ? html`<p class="empty">${i18n.t('roadmap.empty')}</p>`
        : html`<ol class="items">${column.items.slice(0, ROADMAP_COLUMN_SIZE).map((item) => itemRow(project.slug, item, view.voted.has(item.id), here, { heading: 'h3', showStatus: false, i18n }))}</ol>`}
${column.total > ROADMAP_COLUMN_SIZE && html`<p class="column-more"><a href="${boardPaths.roadmapColumn(project.slug, column.status)}">${i18n.t('roadmap.showAll', { count: column.total })}</a></p>`}
</section>`,
  )}
</div>`;
  return page({ title: i18n.text('roadmap.heading'), assets: view.assets, project, visitor: view.visitor, section: 'roadmap', path: here, body, i18n });
}
