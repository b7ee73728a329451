import { FEEDBACK_STATUSES, type FeedbackListItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import { filterForm, pagination, type ListFilters } from '../../kit/views/list-parts.js';
import { count, errorSummary, label, options, type Problem } from '../../kit/views/parts.js';
import { teamPage, teamPaths } from '../layout.js';
import type { TeamProject } from '../session.js';

export interface InboxView {
  project: TeamProject;
  assets: AssetPaths;
  /** The list's query as given, to fill the filter form again; `status` is `new` when none was given. */
  filters: ListFilters;
  problems: Problem[];
  list?: { items: FeedbackListItem[]; total: number; page: number; totalPages: number };
  /** This page's path and query: where the bulk form comes back to. */
  here: string;
  pageLink: (page: number) => string;
  /** What the last bulk change did, said once above the list. */
  notice?: string | undefined;
}

/**
 * GET /team: the project's items with the board's filters (the API's query names), newest `new`
 * first unless asked otherwise. The list is one form: a checkbox per item, and "Change status"
 * below it, which posts the chosen ids and the new status (POST /team/items/status).
 */
export function inboxPage(view: InboxView): SafeHtml {
  const { filters, list } = view;
  const body = html`<h1>Inbox</h1>
${errorSummary(view.problems)}
${view.notice && html`<p class="notice" role="status">${view.notice}</p>`}
${filterForm(teamPaths.inbox, filters)}
${list && html`<p id="list-summary" aria-live="polite">${count(list.total, 'item')}${filters.status ? html` with status ${filters.status.split(',').map(label).join(' or ')}` : ''}${filters.search ? html` matching &ldquo;${isolated(filters.search)}&rdquo;` : ''}</p>
${list.items.length === 0
      ? html`<p class="empty">Nothing to triage here.</p>`
      : html`<form method="post" action="${teamPaths.bulkStatus}" class="bulk">
<input type="hidden" name="return" value="${view.here}">
<ol class="items" aria-labelledby="list-summary">${list.items.map(row)}</ol>
<fieldset class="bulk-actions filters">
<legend class="visually-hidden">Change the selected items</legend>
<div class="field"><label for="new-status">New status for the selected items</label><select id="new-status" name="status">${options(FEEDBACK_STATUSES.map((s) => ({ value: s, text: label(s) })), 'under-review')}</select></div>
<button type="submit" class="button">Change status</button>
</fieldset>
</form>`}
${pagination(list, view.pageLink)}`}`;
  return teamPage({ title: view.problems.length > 0 ? 'Error: Inbox' : 'Inbox', assets: view.assets, project: view.project, inbox: true, body });
}

function row(item: FeedbackListItem): SafeHtml {
  const box = `select-${item.id}`;
  return html`<li class="item" data-item="${item.id}">
<input type="checkbox" name="id" value="${item.id}" id="${box}">
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

