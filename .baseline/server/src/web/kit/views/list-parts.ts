import { FEEDBACK_STATUSES, FEEDBACK_TYPES, SORT_ORDERS, type FeedbackDetail } from '@feedbackd/sdk/contract';
import type { MessageKey } from '../../../i18n/index.js';
import { html, isolated, type SafeHtml } from '../html.js';
import { ENGLISH, type I18n } from '../i18n.js';
import { label, options } from './parts.js';

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

const SORT_TEXT: Readonly<Record<string, MessageKey>> = { newest: 'sort.newest', oldest: 'sort.oldest', votes: 'sort.votes', comments: 'sort.comments' };

/** The filter form: a GET form to `action` with the API's query names, so a filtered list is a link. */
export function filterForm(action: string, filters: ListFilters, i18n: I18n = ENGLISH): SafeHtml {
  const { t } = i18n;
  const any = [{ value: '', text: i18n.text('filters.any') }];
  const sortText = (s: string) => (SORT_TEXT[s] ? i18n.text(SORT_TEXT[s]) : s);
  return html`<form method="get" action="${action}" class="filters" role="search" aria-label="${t('filters.label')}">
<div class="field"><label for="search">${t('filters.search')}</label><input type="search" id="search" name="search" value="${filters.search ?? ''}" maxlength="200"></div>
<div class="field"><label for="status">${t('filters.status')}</label><select id="status" name="status">${options([...any, ...FEEDBACK_STATUSES.map((s) => ({ value: s, text: label(s, i18n) }))], filters.status)}</select></div>
<div class="field"><label for="type">${t('filters.type')}</label><select id="type" name="type">${options([...any, ...FEEDBACK_TYPES.map((type) => ({ value: type, text: label(type, i18n) }))], filters.type)}</select></div>
<div class="field"><label for="sortBy">${t('filters.sortBy')}</label><select id="sortBy" name="sortBy">${options(SORT_ORDERS.map((s) => ({ value: s, text: sortText(s) })), filters.sortBy ?? 'newest')}</select></div>
<button type="submit" class="button">${t('filters.apply')}</button>
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
export function pagination(list: ListPage, pageLink: (page: number) => string, i18n: I18n = ENGLISH): SafeHtml | false {
  const { page, totalPages } = list;
  if (totalPages <= 1) return false;
  const { t } = i18n;
  return html`<nav class="pagination" aria-label="${t('pages.label')}">
<ul>
${page > 1 && html`<li class="page-step"><a href="${pageLink(Math.min(page - 1, totalPages))}" rel="prev">${t('pages.previous')}</a></li>`}
${pageNumbers(page, totalPages).map((n) =>
    n === 'gap'
      ? html`<li class="page-gap">&hellip;</li>`
      : html`<li><a href="${pageLink(n)}" aria-label="${t('pages.page', { page: n })}"${n === page ? html` aria-current="page"` : ''}>${i18n.number(n)}</a></li>`,
  )}
${page < totalPages && html`<li class="page-step"><a href="${pageLink(page + 1)}" rel="next">${t('pages.next')}</a></li>`}
</ul>
</nav>`;
}

/** An item's comments, oldest first, the team's marked; each one's time as `when` shows it (the date by default). */
export function commentsSection(comments: FeedbackDetail['comments'], when?: (iso: string) => SafeHtml, i18n: I18n = ENGLISH): SafeHtml {
  const { t } = i18n;
  const at = when ?? ((iso: string) => date(iso, i18n));
  return html`<section aria-labelledby="comments-title">
<h2 id="comments-title">${t('count.comment', { count: comments.length })}</h2>
${comments.length === 0
    ? html`<p class="empty">${t('comments.none')}</p>`
    : html`<ol class="comments">${comments.map(
        (c) => html`<li class="comment${c.author?.isTeam ? ' team' : ''}">
<p><strong>${c.author?.name ? isolated(c.author.name) : t('person.anonymous')}</strong>${c.author?.isTeam ? html` <span class="team-badge">${t('comments.team')}</span>` : ''} <span class="hint">${at(c.createdAt)}</span></p>
<p>${isolated(c.content)}</p>
</li>`,
      )}</ol>`}
</section>`;
}

/** A timestamp of the API (ISO 8601, UTC) as a <time> that reads as a date, as the page's language writes one (its day in UTC). */
export function date(iso: string, i18n: I18n = ENGLISH): SafeHtml {
  return html`<time datetime="${iso}">${i18n.t('date.day', { when: new Date(iso) })}</time>`;
}

/**
 * A timestamp of the API as a <time> that reads as a date and a time of day, in UTC (a reader's
 * time zone is unknown without script). The time is the 24-hour clock that every language reads.
 */
export function dateTime(iso: string, i18n: I18n = ENGLISH): SafeHtml {
  return html`<time datetime="${iso}">${i18n.t('date.dateTime', { date: i18n.t('date.day', { when: new Date(iso) }), time: iso.slice(11, 16) })}</time>`;
}
