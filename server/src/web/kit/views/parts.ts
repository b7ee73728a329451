import type { FeedbackListItem, ValidationDetails } from '@feedbackd/sdk/contract';
import { html, isolated, type SafeHtml } from '../html.js';
import { boardPaths } from '../paths.js';

/** How a status or a type reads on the board; the few values there are, worked out once each (every row shows two). */
export function label(value: string): string {
  let text = labels.get(value);
  if (text === undefined) {
    const words = value.replace(/-/g, ' ');
    text = words.charAt(0).toUpperCase() + words.slice(1);
    if (labels.size < 100) labels.set(value, text);
  }
  return text;
}
const labels = new Map<string, string>();

/** `n` and the noun, singular or plural. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The vote button: a form that posts (and comes back to `returnTo`); the board's script sends it
 * in place. `aria-pressed` says whether this visitor votes for the item. Its symbols are written
 * as entities: a page all of ASCII is turned into bytes several times faster than one with a few
 * other characters (measured: the encoding was 7% of a board page's time), and a list repeats
 * this button on every row.
 */
export function voteForm(slug: string, item: Pick<FeedbackListItem, 'id' | 'title' | 'voteCount'>, voted: boolean, returnTo: string): SafeHtml {
  return html`<form method="post" action="${boardPaths.vote(slug, item.id)}" class="vote" data-vote>
<input type="hidden" name="return" value="${returnTo}">
<button type="submit" class="vote-button" aria-pressed="${voted ? 'true' : 'false'}"><span aria-hidden="true">&#9650;</span><span class="vote-count" data-count>${item.voteCount}</span><span class="vote-label" data-count-label>${item.voteCount === 1 ? 'vote' : 'votes'}</span><span class="visually-hidden"> &ndash; vote for &ldquo;${isolated(item.title)}&rdquo;</span></button>
</form>`;
}

/** An item's status, type and comment count, as a list under its title; `showStatus` false leaves the status out (a list of one status says it once). */
export function itemMeta(item: Pick<FeedbackListItem, 'status' | 'type' | 'commentCount'>, { showStatus = true }: { showStatus?: boolean } = {}): SafeHtml {
  return html`<ul class="meta">
${showStatus && html`<li class="tag"><span class="visually-hidden">Status: </span>${label(item.status)}</li>`}
<li class="tag"><span class="visually-hidden">Type: </span>${label(item.type)}</li>
<li>${count(item.commentCount, 'comment')}</li>
</ul>`;
}

/** How a row is drawn: its title's heading level (h2 under the page's h1, h3 under a section's h2), and whether it shows its status. */
export interface ItemRowOptions {
  heading?: 'h2' | 'h3';
  showStatus?: boolean;
}

/** One item of a list: vote button, linked title, and its facts. */
export function itemRow(slug: string, item: FeedbackListItem, voted: boolean, returnTo: string, { heading = 'h2', showStatus = true }: ItemRowOptions = {}): SafeHtml {
  const title = html`<a href="${boardPaths.item(slug, item.id)}">${isolated(item.title)}</a>`;
  return html`<li class="item">
${voteForm(slug, item, voted, returnTo)}
<div class="item-body">
${heading === 'h2' ? html`<h2 class="item-title">${title}</h2>` : html`<h3 class="item-title">${title}</h3>`}
${itemMeta(item, { showStatus })}
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

/** GOV.UK's error summary: what went wrong, each line a link to the field it is about. */
export function errorSummary(problems: readonly Problem[]): SafeHtml | false {
  if (problems.length === 0) return false;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" data-error-summary>
<h2 id="error-summary-title">There is a problem</h2>
<ul>${problems.map((p) => html`<li>${p.field ? html`<a href="#${p.field}">${p.message}</a>` : p.message}</li>`)}</ul>
</div>`;
}

/** A `<select>`'s options; `selected` is the value to mark. */
export function options(choices: readonly { value: string; text: string }[], selected: string | undefined): SafeHtml[] {
  return choices.map((c) => html`<option value="${c.value}"${c.value === (selected ?? '') ? html` selected` : ''}>${c.text}</option>`);
}
