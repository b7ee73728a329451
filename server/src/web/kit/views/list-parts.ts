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

/** Pages shown on each side of the current one; the first and the last are always shown. */
const PAGE_WINDOW = 2;

/**
 * The page numbers a list's pagination shows, and `'gap'` where it skips some: the first, the
 * last, and the current one with two on each side (1 … 4 5 6 7 8 … 51). A gap that would hide a
 * single page shows that page instead, which takes no more room than the ellipsis.
 */
export function pageNumbers(current: number, totalPages: number): (number | 'gap')[] {
  const at = Math.min(Math.max(current, 1), totalPages);
  // Only the pages that may show are visited: a list of 100,000 items has 5,000 pages.
  const candidates = [1];
  for (let n = Math.max(2, at - PAGE_WINDOW); n <= Math.min(totalPages - 1, at + PAGE_WINDOW); n++) candidates.push(n);
  if (totalPages > 1) candidates.push(totalPages);
  const shown: (number | 'gap')[] = [];
  let last = 0;
  for (const n of candidates) {
    if (n - last === 2) shown.push(n - 1);
    else if (n - last > 2) shown.push('gap');
    shown.push(n);
    last = n;
  }
  return shown;
}

/**
 * Numbered pages (GOV.UK's pagination): "Previous", the numbers of pageNumbers() with the current
 * one marked `aria-current="page"`, an ellipsis for each gap, "Next"; nothing for a list of one
 * page. A page past the end (a link kept after items went) marks none, and "Previous" goes to the last.
 */
export function pagination(list: ListPage, pageLink: (page: number) => string): SafeHtml | false {
  const { page, totalPages } = list;
  if (totalPages <= 1) return false;
  return html`<nav class="pagination" aria-label="Pages">
<ul>
${page > 1 && html`<li class="page-step"><a href="${pageLink(Math.min(page - 1, totalPages))}" rel="prev">Previous</a></li>`}
${pageNumbers(page, totalPages).map((n) =>
    n === 'gap'
      ? html`<li class="page-gap">&hellip;</li>`
      : html`<li><a href="${pageLink(n)}" aria-label="Page ${n}"${n === page ? html` aria-current="page"` : ''}>${n}</a></li>`,
  )}
${page < totalPages && html`<li class="page-step"><a href="${pageLink(page + 1)}" rel="next">Next</a></li>`}
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
