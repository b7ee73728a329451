import { FEEDBACK_STATUSES } from '@feedbackd/sdk/contract';
import { html, type HtmlValue, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import { label, options } from '../../kit/views/parts.js';
import { teamPaths } from '../layout.js';
import type { StatusCounts } from '../status-counts.js';
import { pluralForms } from './plural-forms.js';

/*
 * The inbox's own parts: the status tabs above the list, the bulk bar that stays in view while the
 * list scrolls, and the banner that says what the last change did (with its Undo).
 */

/**
 * A tab per status (and All), each a link to the list at that status with the other filters kept,
 * and its count under those filters. The current one (the status asked for, if one; All for any)
 * is aria-current="page"; several statuses at once make none current.
 */
export function statusTabs(counts: StatusCounts, current: string | undefined, link: (status: string) => string, i18n: I18n): SafeHtml {
  const { t } = i18n;
  const tabs: [value: string, text: HtmlValue, n: number][] = [['', t('team.tabs.all'), counts.all], ...FEEDBACK_STATUSES.map((s): [string, HtmlValue, number] => [s, label(s, i18n), counts[s]])];
  return html`<nav class="status-tabs" aria-label="${t('team.tabs.label')}">
<ul>${tabs.map(
    ([value, text, n]) =>
      html`<li><a href="${link(value)}"${value === (current ?? '') ? html` aria-current="page"` : ''}><span class="tab-label">${text}</span> <span class="tab-count" aria-hidden="true">${i18n.number(n)}</span><span class="visually-hidden">${t('count.item', { count: n })}</span></a></li>`,
  )}</ul>
</nav>`;
}

/**
 * The Held view's tab (docs/moderation.md): its link and how many posts wait. A list of its own
 * beside the statuses' (a held post has no status yet), in the same tab style.
 */
export function heldTabs(count: number, current: boolean, i18n: I18n): SafeHtml {
  return html`<nav class="status-tabs held-tabs" aria-label="${i18n.t('team.held.title')}"><ul>${current && html`<li><a href="${teamPaths.inbox}">${i18n.t('team.nav.inbox')}</a></li>`}${heldTab(count, current, i18n)}</ul></nav>`;
}

/** The Held tab itself. */
export function heldTab(count: number, current: boolean, i18n: I18n): SafeHtml {
  const { t } = i18n;
  return html`<li><a href="${teamPaths.held}"${current ? html` aria-current="page"` : ''}><span class="tab-label">${t('team.held.tab')}</span> <span class="tab-count" aria-hidden="true">${i18n.number(count)}</span><span class="visually-hidden">${t('team.held.count', { count })}</span></a></li>`;
}

/**
 * The bar of the bulk form, first in the form and sticky (team.css), inside a fieldset whose
 * legend says what its controls are for ("New status" is read as of the selected items): "Select all on this page"
 * (a real checkbox: without the script it posts `all=page`, which the server reads as every id
 * the page listed; with it, it also ticks every row), how many are selected (the script says it,
 * with the forms of the message that pluralForms gives it), the new status and the button.
 */
export function bulkBar(i18n: I18n): SafeHtml {
  const { t } = i18n;
  return html`<fieldset class="bulk-bar">
<legend class="visually-hidden">${t('team.bulk.legend')}</legend>
<div class="select-all"><input type="checkbox" id="select-all" name="all" value="page" data-select-all><label for="select-all">${t('team.bulk.selectAll')}</label></div>
<output class="selected-count" for="select-all" data-selected-count${pluralForms(i18n, 'team.bulk.selected')} hidden></output>
<div class="bulk-status"><label for="new-status">${t('team.bulk.newStatus')}</label><select id="new-status" name="status">${options(FEEDBACK_STATUSES.map((s) => ({ value: s, text: label(s, i18n) })), 'under-review')}</select>
<button type="submit" class="button">${t('team.bulk.submit')}</button></div>
</fieldset>`;
}

/**
 * What the last change did, in a banner: with `undo` (a token this session signed, still
 * fresh), an Undo button, which posts it (POST /team/items/status/undo) and comes back here; and
 * a way to dismiss it, which is a link to this inbox without the banner (the script hides it in
 * place instead).
 */
export function banner(notice: HtmlValue, here: string, undo: string | undefined, i18n: I18n): SafeHtml {
  const { t } = i18n;
  return html`<div class="banner" data-banner>
<p class="notice" role="status">${notice}</p>
<div class="banner-actions">
${undo && html`<form method="post" action="${teamPaths.undoStatus}">
<input type="hidden" name="return" value="${here}">
<input type="hidden" name="undo" value="${undo}">
<button type="submit" class="button secondary">${t('team.banner.undo')}</button>
</form>`}
<a class="banner-close" href="${here}" data-dismiss-banner>${t('team.banner.dismiss')}</a>
</div>
</div>`;
}
