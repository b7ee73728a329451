import type { FeedbackListItem } from '@feedbackd/sdk/contract';
import type { TeamAssetPaths } from '../team-assets.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import { filterForm, pagination, type ListFilters } from '../../kit/views/list-parts.js';
import { count, errorSummary, label, type Problem } from '../../kit/views/parts.js';
import { teamPage, teamPaths } from '../layout.js';
import type { StatusCounts } from '../status-counts.js';
import { banner, bulkBar, statusTabs } from './inbox-parts.js';
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
  /** This page's path and query (without the banner's): where the forms come back to, and the banner's Dismiss. */
  here: string;
  pageLink: (page: number) => string;
  /** This list at another status (empty: every status), the other filters kept. */
  statusLink: (status: string) => string;
  /** What the last change did, said once above the list in a banner. */
  notice?: string | undefined;
  /** The signed undo of that change (undo-token.ts), when it may still be undone. */
  undo?: string | undefined;
}

/**
 * GET /team: the project's items with the board's filters (the API's query names), newest `new`
 * first unless asked otherwise, under tabs by status. The list is one form: a checkbox per item,
 * and the bar above it (select all, the status, "Change status"), which posts the chosen ids and
 * the new status (POST /team/items/status).
 */
export function inboxPage(view: InboxView): SafeHtml {
  const { filters, list } = view;
  const body = html`<h1>Inbox</h1>
${errorSummary(view.problems)}
${view.notice && banner(view.notice, view.here, view.undo)}
${filterForm(teamPaths.inbox, filters)}
${view.counts && statusTabs(view.counts, filters.status, view.statusLink)}
${list && html`<p id="list-summary" aria-live="polite">${count(list.total, 'item')}${filters.status ? html` with status ${filters.status.split(',').map((status) => label(status)).join(' or ')}` : ''}${filters.search ? html` matching &ldquo;${isolated(filters.search)}&rdquo;` : ''}</p>
${list.items.length === 0
      ? html`<p class="empty">Nothing to triage here.</p>`
      : html`<form method="post" action="${teamPaths.bulkStatus}" class="bulk">
<input type="hidden" name="return" value="${view.here}">
${bulkBar()}
<ol class="items" aria-labelledby="list-summary">${list.items.map(row)}</ol>
</form>`}
${pagination(list, view.pageLink)}`}`;
  return teamPage({ title: view.problems.length > 0 ? 'Error: Inbox' : 'Inbox', assets: view.assets, project: view.project, inbox: true, body });
}

function row(item: FeedbackListItem): SafeHtml {
  const box = `select-${item.id}`;
  return html`<li class="item" data-item="${item.id}">
<input type="checkbox" name="id" value="${item.id}" id="${box}">
<input type="hidden" name="shown" value="${item.id}">
<div class="item-body">
<h2 class="item-title"><label for="${box}" class="visually-hidden">Select &ldquo;${isolated(item.title)}&rdquo;</label><a href="${teamPaths.item(item.id)}">${isolated(item.title)}</a></h2>
<ul class="meta">
<li class="tag"><span class="visually-hidden">Status: </span>${label(item.status)}</li>
<li class="tag"><span class="visually-hidden">Type: </span>${label(item.type)}</li>
<li>${count(item.voteCount, 'vote')}</li>
<li>${count(item.commentCount, 'comment')}</li>
<li><time datetime="${item.createdAt}">${item.createdAt.slice(0, 10)}</time></li>
</ul>
</div>
</li>`;
}

