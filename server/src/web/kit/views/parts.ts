import type { FeedbackListItem, ValidationDetails } from '@feedbackd/sdk/contract';
import type { MessageKey } from '../../../i18n/index.js';
import { contractMessage } from '../contract-messages.js';
import { html, isolated, type SafeHtml } from '../html.js';
import { ENGLISH, type I18n } from '../i18n.js';
import { boardPaths } from '../../../board-paths.js';

/**
 * How a status or a type reads (the catalogue's `status.*` and `type.*`), as text: for an option,
 * a tag, or a sentence's value. A value the catalogue does not know (a status added to the
 * contract before its message) reads as its words, capitalised.
 */
export function label(value: string, i18n: I18n = ENGLISH): string {
  const key = LABELS[value];
  if (key) return i18n.text(key);
  const words = value.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
const LABELS: Readonly<Record<string, MessageKey>> = {
  new: 'status.new',
  'under-review': 'status.under-review',
  planned: 'status.planned',
  'in-progress': 'status.in-progress',
  completed: 'status.completed',
  closed: 'status.closed',
  bug: 'type.bug',
  idea: 'type.idea',
  question: 'type.question',
  other: 'type.other',
};

/** What the pages count, each a plural message of the catalogue (`count.*`). */
export type Counted = 'item' | 'comment' | 'vote' | 'identified voter' | 'anonymous vote';
const COUNTS: Readonly<Record<Counted, MessageKey>> = {
  item: 'count.item',
  vote: 'item.votes',
  comment: 'count.comment',
  'identified voter': 'count.identifiedVoter',
  'anonymous vote': 'count.anonymousVote',
};

/** `n` and the noun, as the language says it (its plural forms: Arabic has six), as text. */
export function count(n: number, noun: Counted, i18n: I18n = ENGLISH): string {
  return i18n.text(COUNTS[noun], { count: n });
}

/**
 * A count as the vote button shows it in English, its thousands grouped with commas ("1,234"), as
 * board.js writes it after a vote (`toLocaleString` in the page's language). Written by hand rather
 * than with Intl: the same ASCII on every Node build, and no Intl call on every row of a list.
 */
export function grouped(n: number): string {
  const digits = String(n);
  return n < 1000 ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A vote count in the page's language: its digits and grouping (Arabic's own digits). */
function voteNumber(n: number, i18n: I18n): string | SafeHtml {
  return i18n.locale === 'en' ? grouped(n) : i18n.number(n);
}

/**
 * The vote button: a form that posts (and comes back to `returnTo`); the board's script sends it
 * in place. `aria-pressed` says whether this visitor votes for the item. Its symbols are written
 * as entities: a page all of ASCII is turned into bytes several times faster than one with a few
 * other characters (measured: the encoding was 7% of a board page's time), and a list repeats
 * this button on every row. The stylesheet gives it one width whatever the count, so the titles
 * beside it line up from row to row.
 */
export function voteForm(slug: string, item: Pick<FeedbackListItem, 'id' | 'title' | 'voteCount'>, voted: boolean, returnTo: string, i18n: I18n = ENGLISH): SafeHtml {
  return html`<form method="post" action="${boardPaths.vote(slug, item.id)}" class="vote" data-vote>
<input type="hidden" name="return" value="${returnTo}">
${voteButton(item, voted, undefined, i18n)}
</form>`;
}

/**
 * The vote button alone. With `formId`, it belongs to that form wherever it is (the `form`
 * attribute): where the button stands inside another form (the submit form's similar items), and
 * forms cannot nest, its vote form (detachedVoteForm) is written after that form.
 */
export function voteButton(item: Pick<FeedbackListItem, 'title' | 'voteCount'>, voted: boolean, formId?: string, i18n: I18n = ENGLISH): SafeHtml {
  const n = item.voteCount;
  return html`<button type="submit"${formId ? html` form="${formId}"` : ''} class="vote-button" aria-pressed="${voted ? 'true' : 'false'}"><span class="vote-number"><span aria-hidden="true">&#9650;</span><span class="vote-count" data-count>${voteNumber(n, i18n)}</span></span><span class="vote-label" data-count-label>${i18n.t('vote.label', { count: n })}</span><span class="visually-hidden"> ${i18n.t('vote.for', { title: isolated(item.title) })}</span></button>`;
}

/** A vote form whose button is elsewhere (voteButton with `formId`): the same post, the same script. */
export function detachedVoteForm(slug: string, item: Pick<FeedbackListItem, 'id'>, returnTo: string, formId: string): SafeHtml {
  return html`<form id="${formId}" method="post" action="${boardPaths.vote(slug, item.id)}" class="vote" data-vote><input type="hidden" name="return" value="${returnTo}"></form>`;
}

/** What an item's facts show: its status (a coloured tag, default) can be left out where the page already says it (a roadmap's column). */
export interface MetaOptions {
  showStatus?: boolean | undefined;
  /** The page's language; English when not given. */
  i18n?: I18n | undefined;
}

/**
 * An item's status, type and comment count, as a list under its title. The status tag has its
 * status's colour (board.css, `.status-<status>`) and keeps its text: colour is never the only sign.
 */
export function itemMeta(item: Pick<FeedbackListItem, 'status' | 'type' | 'commentCount'>, { showStatus = true, i18n = ENGLISH }: MetaOptions = {}): SafeHtml {
  return html`<ul class="meta">
${showStatus && html`<li class="tag status status-${item.status}"><span class="visually-hidden">${i18n.t('meta.status')} </span>${label(item.status, i18n)}</li>`}
<li class="tag"><span class="visually-hidden">${i18n.t('meta.type')} </span>${label(item.type, i18n)}</li>
<li>${i18n.t('count.comment', { count: item.commentCount })}</li>
</ul>`;
}

/** How a row of a list is drawn: its title's heading level (h3 under a column's h2), and whether its status shows. */
export interface RowOptions extends MetaOptions {
  heading?: 'h2' | 'h3' | undefined;
}

/**
 * The longest excerpt of a description sent with a row. The widest row shows about 125 characters
 * (the page's width and its text are both in rem, so zooming changes neither count), and a
 * description may hold 100,000: a little more than a row shows, and no more bytes than that.
 */
export const EXCERPT_LENGTH = 160;

/**
 * The start of a description, for the one line under a title (the stylesheet ends it with an
 * ellipsis where the row does). Cut here too, so a page of twenty rows never carries whole
 * descriptions; never inside a surrogate pair. A cut excerpt ends with an ellipsis of its own.
 */
export function excerpt(description: string): string | SafeHtml {
  if (description.length <= EXCERPT_LENGTH) return description;
  let end = EXCERPT_LENGTH;
  const last = description.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return html`${description.slice(0, end).trimEnd()}&hellip;`;
}

const NOT_BLANK = /\S/;

/** One item of a list: vote button, linked title, its facts, and the first line of its description. */
export function itemRow(slug: string, item: FeedbackListItem, voted: boolean, returnTo: string, { heading = 'h2', showStatus = true, i18n = ENGLISH }: RowOptions = {}): SafeHtml {
  const title = html`<a href="${boardPaths.item(slug, item.id)}">${isolated(item.title)}</a>`;
  return html`<li class="item">
${voteForm(slug, item, voted, returnTo, i18n)}
<div class="item-body">
${heading === 'h2' ? html`<h2 class="item-title">${title}</h2>` : html`<h3 class="item-title">${title}</h3>`}
${itemMeta(item, { showStatus, i18n })}
${item.description && NOT_BLANK.test(item.description) && html`<p class="excerpt"><bdi>${excerpt(item.description)}</bdi></p>`}
</div>
</li>`;
}

/** A problem to show in an error summary: `field` is the id of the control it is about, if any. */
export interface Problem {
  field?: string | undefined;
  message: string;
}

/**
 * The contract's messages (a 400's details) as problems: a field's message is tied to the control
 * of that name when the form has one (`controls`), else it is about the whole form.
 */
export function problemsOf(details: ValidationDetails, controls: ReadonlySet<string>): Problem[] {
  return [
    ...details.formErrors.map((message) => ({ message })),
    ...Object.entries(details.fieldErrors).flatMap(([field, messages]) => messages.map((message) => ({ field: controls.has(field) ? field : undefined, message }))),
  ];
}

/**
 * GOV.UK's error summary: what went wrong, each line a link to the field it is about. A contract's
 * message is said in the page's language (contract-messages.ts); any other as it was given.
 */
export function errorSummary(problems: readonly Problem[], i18n: I18n = ENGLISH): SafeHtml | false {
  if (problems.length === 0) return false;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" data-error-summary>
<h2 id="error-summary-title">${i18n.t('errors.title')}</h2>
<ul>${problems.map((p) => {
    const message = contractMessage(p.message, i18n);
    return html`<li>${p.field ? html`<a href="#${p.field}">${message}</a>` : message}</li>`;
  })}</ul>
</div>`;
}

/** A `<select>`'s options; `selected` is the value to mark. */
export function options(choices: readonly { value: string; text: string }[], selected: string | undefined): SafeHtml[] {
  return choices.map((c) => html`<option value="${c.value}"${c.value === (selected ?? '') ? html` selected` : ''}>${c.text}</option>`);
}
