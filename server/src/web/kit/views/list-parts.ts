import { FEEDBACK_STATUSES, FEEDBACK_TYPES, SORT_ORDERS, type FeedbackDetail } from '@feedbackd/sdk/contract';
import { html, isolated, type SafeHtml } from '../html.js';
import { count, label, options } from './parts.js';

/*
 * The parts a list of items and an item are made of, the same on the public board and on the
 * team's pages: the filter form (the API's list query), the pages, and an item's comments.
 */

/** The list's query as it was given (text), to fill the filter form again. */
export interface ListFilters {
  status?: string | undefined;
  type?: string | undefined;
  search?: string | undefined;
  sortBy?: string | undefined;
}

/** A page of a list, as far as its page links need to know. */
export interface ListPage {
  page: number;
  totalPages: number;
}

const SORT_TEXT: Record<string, string> = { newest: 'Newest', oldest: 'Oldest', votes: 'Most votes', comments: 'Most comments' };

/** The filter form: a GET form to `action` with the API's query names, so a filtered list is a link. */
export function filterForm(action: string, filters: ListFilters): SafeHtml {
  const any = [{ value: '', text: 'Any' }];
  return html`<form method="get" action="${action}" class="filters" role="search" aria-label="Filter and sort">
<div class="field"><label for="search">Search</label><input type="search" id="search" name="search" value="${filters.search ?? ''}" maxlength="200"></div>
<div class="field"><label for="status">Status</label><select id="status" name="status">${options([...any, ...FEEDBACK_STATUSES.map((s) => ({ value: s, text: label(s) }))], filters.status)}</select></div>
<div class="field"><label for="type">Type</label><select id="type" name="type">${options([...any, ...FEEDBACK_TYPES.map((t) => ({ value: t, text: label(t) }))], filters.type)}</select></div>
<div class="field"><label for="sortBy">Sort by</label><select id="sortBy" name="sortBy">${options(SORT_ORDERS.map((s) => ({ value: s, text: SORT_TEXT[s] ?? s })), filters.sortBy ?? 'newest')}</select></div>
<button type="submit" class="button">Apply</button>
</form>`;
}

/** Where the list stands, and links to the pages before and after it; nothing for a list of one page. */
export function pagination(list: ListPage, pageLink: (page: number) => string): SafeHtml | false {
  if (list.totalPages <= 1) return false;
  return html`<nav class="pagination" aria-label="Pages">
<p>Page ${list.page} of ${list.totalPages}</p>
<ul>
${list.page > 1 && html`<li><a href="${pageLink(list.page - 1)}" rel="prev">Previous page</a></li>`}
${list.page < list.totalPages && html`<li><a href="${pageLink(list.page + 1)}" rel="next">Next page</a></li>`}
</ul>
</nav>`;
}

/** An item's comments, oldest first, the team's marked; each one's time as `when` shows it (the date by default). */
export function commentsSection(comments: FeedbackDetail['comments'], when: (iso: string) => SafeHtml = date): SafeHtml {
  return html`<section aria-labelledby="comments-title">
<h2 id="comments-title">${count(comments.length, 'comment')}</h2>
${comments.length === 0
    ? html`<p class="empty">No comments yet.</p>`
    : html`<ol class="comments">${comments.map(
        (c) => html`<li class="comment${c.author?.isTeam ? ' team' : ''}">
<p><strong>${c.author?.name ? isolated(c.author.name) : 'Anonymous'}</strong>${c.author?.isTeam ? html` <span class="team-badge">Team</span>` : ''} <span class="hint">${when(c.createdAt)}</span></p>
<p>${isolated(c.content)}</p>
</li>`,
      )}</ol>`}
</section>`;
}

/** A timestamp of the API (ISO 8601, UTC) as a <time> that reads as a date. */
export function date(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;
}

/** A timestamp of the API as a <time> that reads as a date and a time of day, in UTC. */
export function dateTime(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}
