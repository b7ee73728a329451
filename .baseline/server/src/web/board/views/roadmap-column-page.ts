import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { pagination } from '../../kit/views/list-parts.js';
import { errorSummary, itemRow, label, type Problem } from '../../kit/views/parts.js';
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
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. */
  i18n?: I18n | undefined;
}

/**
 * GET /b/:slug/roadmap/:status: one column of the roadmap, all of it, a page at a time by votes,
 * with numbered pages. The heading names the status, so the rows do not repeat it.
 */
export function roadmapColumnPage(view: RoadmapColumnView): SafeHtml {
  const { project, list } = view;
  const i18n = view.i18n ?? ENGLISH;
  const name = label(view.status, i18n);
  const body = html`<p class="back-link"><a href="${boardPaths.roadmap(project.slug)}">${i18n.t('roadmap.back')}</a></p>
<h1>${name}</h1>
${errorSummary(view.problems, i18n)}
${list && html`<p id="list-summary">${i18n.t('roadmap.columnSummary', { count: list.total })}</p>
${list.items.length > 0
      ? html`<ol class="items" aria-labelledby="list-summary">${list.items.map((item) => itemRow(project.slug, item, view.voted.has(item.id), view.here, { showStatus: false, i18n }))}</ol>`
      : list.total === 0
        ? html`<p class="empty">${i18n.t('roadmap.empty')}</p>`
        : html`<p class="empty">${i18n.t('board.empty.pastEnd', { link: html`<a href="${view.pageLink(1)}">${i18n.t('board.empty.firstPage')}</a>` })}</p>`}
${pagination(list, view.pageLink, i18n)}`}`;
  return page({ title: i18n.text('roadmap.columnTitle', { status: name }), assets: view.assets, project, visitor: view.visitor, section: 'roadmap', path: boardPaths.roadmapColumn(project.slug, view.status), body, i18n });
}
