import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { TeamAssetPaths } from '../team-assets.js';
import { html, isolated, type HtmlValue, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { filterForm, pagination, type ListFilters } from '../../kit/views/list-parts.js';
import { errorSummary, label, type Problem } from '../../kit/views/parts.js';
import { teamPage, teamPaths } from '../layout.js';
import type { StatusCounts } from '../status-counts.js';
import { banner, bulkBar, heldTabs, statusTabs } from './inbox-parts.js';
import { when } from './when.js';
import type { TeamProject } from '../session.js';

export interface InboxView {
  project: TeamProject;
  assets: TeamAssetPaths;
  /** The list's query as given, to fill the filter form again; `status` is `new` when none was given. */
  filters: ListFilters;
  problems: Problem[];
  list?: { items: FeedbackListItem[]; total: number; page: number; totalPages: number };
  /** How many items each status tab has, under the type and search filters. */
  counts?: StatusCounts | undefined;
  /** How many posts wait in the Held view (docs/moderation.md): its tab's count. */
  held?: number | undefined;
  /** This page's path and query (without the banner's): where the forms come back to, and the banner's Dismiss. */
  here: string;
  pageLink: (page: number) => string;
  /** This list at another status (empty: every status), the other filters kept. */
  statusLink: (status: string) => string;
  /** What the last change did, said once above the list in a banner (inbox-notices.ts). */
  notice?: HtmlValue;
  /** The signed undo of that change (undo-token.ts), when it may still be undone. */
  undo?: string | undefined;
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. */
  i18n?: I18n | undefined;
}

/**
 * GET /team: the project's items with the board's filters (the API's query names), newest `new`
 * first unless asked otherwise, under tabs by status. The list is one form: a checkbox per item,
 * and the bar above it (select all, the status, "Change status"), which posts the chosen ids and
 * the new status (POST /team/items/status).
 */
export function inboxPage(view: InboxView): SafeHtml {
  const { filters, list } = view;
  const i18n = view.i18n ?? ENGLISH;
  const { t } = i18n;
  const body = html`<h1>${t('team.inbox.title')}</h1>
${errorSummary(view.problems, i18n)}
${view.notice && banner(view.notice, view.here, view.undo, i18n)}
${filterForm(teamPaths.inbox, filters, i18n)}
${view.counts && statusTabs(view.counts, filters.status, view.statusLink, i18n)}
${view.held !== undefined && heldTabs(view.held, false, i18n)}
${list && html`<p id="list-summary" aria-live="polite">${summary(list.total, filters, i18n)}</p>
${list.items.length === 0
      ? html`<p class="empty">${t('team.inbox.empty')}</p>`
      : html`<form method="post" action="${teamPaths.bulkStatus}" class="bulk">
<input type="hidden" name="return" value="${view.here}">
${bulkBar(i18n)}
<ol class="items" aria-labelledby="list-summary">${list.items.map((item) => row(item, i18n))}</ol>
</form>`}
${pagination(list, view.pageLink, i18n)}`}`;
  return teamPage({ title: i18n.text(view.problems.length > 0 ? 'team.inbox.titleWithErrors' : 'team.inbox.title'), assets: view.assets, project: view.project, inbox: true, body, i18n, here: view.here });
}

/** "12 items with status New or Under review matching “export”": one message for each of the filters given, so each language orders its own sentence. */
function summary(total: number, filters: ListFilters, i18n: I18n): SafeHtml {
  const { t } = i18n;
  const statuses = filters.status ? filters.status.split(',').map((status) => label(status, i18n)) : [];
  // "A or B or C": each "or" is the language's own.
  const status = statuses.length === 0 ? undefined : statuses.slice(1).reduce<HtmlValue>((either, other) => t('team.inbox.either', { status: html`${either}`, other }), statuses[0]);
  const search = filters.search ? isolated(filters.search) : undefined;
  if (status !== undefined && search) return t('team.inbox.summaryStatusSearch', { count: total, status: html`${status}`, search });
  if (status !== undefined) return t('team.inbox.summaryStatus', { count: total, status: html`${status}` });
  if (search) return t('team.inbox.summarySearch', { count: total, search });
  return t('count.item', { count: total });
}

function row(item: FeedbackListItem, i18n: I18n): SafeHtml {
  const { t } = i18n;
  const box = `select-${item.id}`;
  return html`<li class="item" data-item="${item.id}">
<input type="checkbox" name="id" value="${item.id}" id="${box}">
<input type="hidden" name="shown" value="${item.id}">
<div class="item-body">
<h2 class="item-title"><label for="${box}" class="visually-hidden">${t('team.inbox.select', { title: isolated(item.title) })}</label><a href="${teamPaths.item(item.id)}">${isolated(item.title)}</a></h2>
<ul class="meta">
<li class="tag"><span class="visually-hidden">${t('meta.status')} </span>${label(item.status, i18n)}</li>
<li class="tag"><span class="visually-hidden">${t('meta.type')} </span>${label(item.type, i18n)}</li>
<li>${t('item.votes', { count: item.voteCount })}</li>
<li>${t('count.comment', { count: item.commentCount })}</li>
<li>${when(item.createdAt, i18n)}</li>
</ul>
</div>
</li>`;
}
