import { FEEDBACK_TYPES, TITLE_MAX_LENGTH, type ChangelogEntry, type FeedbackListItem } from '@feedbackd/sdk/contract';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';
import { markdownHtml } from '../../kit/markdown.js';
import type { SimilarFound } from '../../kit/similar.js';
import { date } from '../../kit/views/list-parts.js';
import { field } from '../../kit/views/fields.js';
import { errorSummary, label, voteButton, type Problem } from '../../kit/views/parts.js';
import { panelLink, stateFields, type PanelState, type Tab } from '../panel-state.js';

/** The state's hidden fields, and where a post comes back to. */
function hidden(state: PanelState, back?: Tab): SafeHtml {
  const fields = back ? [...stateFields(state), { name: 'back', value: back }] : stateFields(state);
  return html`${fields.map((field) => html`<input type="hidden" name="${field.name}" value="${field.value}">`)}`;
}

/** A vote button in a form of its own, back to `back` without script; the script sends it in place. */
function vote(state: PanelState, item: Pick<FeedbackListItem, 'id' | 'title' | 'voteCount'>, voted: boolean, back: Tab, i18n: I18n): SafeHtml {
  return html`<form method="post" action="${state.base}/items/${encodeURIComponent(item.id)}/vote" class="vote" data-vote>${hidden(state, back)}${voteButton(item, voted, undefined, i18n)}</form>`;
}

/** What the submit form holds when sent again: the values and the contract's problems, maybe the similar items. */
export interface FeedbackTabView {
  values: Record<string, string | undefined>;
  problems: readonly Problem[];
  similar?: SimilarFound | undefined;
  sent?: boolean;
  /** The visitor's last post waits for the team (docs/moderation.md): the board's notice says so. */
  held?: boolean;
}

/**
 * Give feedback: the API's fields; the similar items under the title (the script asks for them
 * while the title is typed, GET similar; without script, "Look for similar feedback first"),
 * each with a vote button to vote instead of sending.
 */
export function feedbackTab(state: PanelState, view: FeedbackTabView, i18n: I18n): SafeHtml {
  const { t } = i18n;
  const { values, problems } = view;
  return html`<h1>${t('board.submit.title')}</h1>
${view.sent ? html`<p class="notice" role="status">${t('widget.sent')}</p>` : ''}
${view.held ? html`<p class="notice" role="status">${t('board.submit.held')}</p>` : ''}
${errorSummary(formProblems(problems), i18n)}
<form method="post" action="${state.base}/new" data-submit data-similar-url="${state.base}/similar">
${hidden(state)}
${field('title', t('board.submit.titleField'), problems, (describedBy) => html`<input id="title" name="title" required maxlength="${TITLE_MAX_LENGTH}" value="${values.title ?? ''}" autocomplete="off"${describedBy}>`, t('board.submit.titleHint', { max: TITLE_MAX_LENGTH }), i18n)}
<div id="w-similar" data-similar aria-live="polite">${similarFragment(state, view.similar, i18n)}</div>
${field('description', t('board.submit.description'), problems, (describedBy) => html`<textarea id="description" name="description" rows="4"${describedBy}>${values.description ?? ''}</textarea>`, undefined, i18n)}
${field('type', t('board.submit.type'), problems, (describedBy) => html`<select id="type" name="type"${describedBy}>${FEEDBACK_TYPES.map((type) => html`<option value="${type}"${(values.type ?? 'idea') === type ? html` selected` : ''}>${label(type, i18n)}</option>`)}</select>`, undefined, i18n)}
<div class="actions"><button type="submit" name="intent" value="send" class="primary">${t('board.submit.send')}</button>
<button type="submit" name="intent" value="similar" data-look-first>${t('board.submit.lookFirst')}</button></div>
</form>
<div data-similar-forms>${similarVoteForms(state, view.similar)}</div>`;
}

/** The problems about no field (a blocked author's reason): each field shows its own beside it. */
function formProblems(problems: readonly Problem[]): Problem[] {
  return problems.filter((problem) => !problem.field);
}

/**
 * The similar items (kit/similar.ts, on the API's statement), as the form shows them and as GET
 * similar sends them to the script: the same markup both ways. Their vote forms cannot nest in
 * the submit form, so each button names its form, written after the list.
 */
export function similarFragment(state: PanelState, found: SimilarFound | undefined, i18n: I18n): SafeHtml {
  if (found === undefined) return html``;
  const { t } = i18n;
  if (found === 'no-title') return html`<p class="hint">${t('board.similar.noTitle')}</p>`;
  if (found.items.length === 0) return html`<p class="hint">${t('board.similar.none')}</p>`;
  return html`<section class="similar" aria-labelledby="w-similar-heading"><h2 id="w-similar-heading">${t('board.similar.heading')}</h2>
<ul>${found.items.map((item) => html`<li><span class="title">${isolated(item.title)}</span> <span class="status">${label(item.status, i18n)}</span>${voteButton(item, found.voted.has(item.id), `w-vote-${item.id}`, i18n)}</li>`)}</ul></section>`;
}

/** The similar items' vote forms, outside the submit form (forms cannot nest). */
export function similarVoteForms(state: PanelState, found: SimilarFound | undefined): SafeHtml {
  if (found === undefined || found === 'no-title') return html``;
  return html`${found.items.map((item) => html`<form id="w-vote-${item.id}" method="post" action="${state.base}/items/${encodeURIComponent(item.id)}/vote" data-vote>${hidden(state, 'feedback')}</form>`)}`;
}

/** Board: the API's list (its first page, in the board's order), each item with its vote button. */
export function boardTab(state: PanelState, items: readonly FeedbackListItem[], voted: ReadonlySet<string>, i18n: I18n): SafeHtml {
  const { t } = i18n;
  return html`<h1>${t('widget.tab.board')}</h1>
${items.length === 0
    ? html`<p class="empty">${t('widget.board.empty')} <a href="${panelLink(state, 'feedback')}" data-tab="feedback">${t('widget.tab.feedback')}</a></p>`
    : html`<ul class="items">${items.map((item) => html`<li>${vote(state, item, voted.has(item.id), 'board', i18n)}<div><span class="title">${isolated(item.title)}</span><span class="status status-${item.status}">${label(item.status, i18n)}</span></div></li>`)}</ul>`}`;
}

/** What's new: the published changelog's newest entries (the API's statement), each rendered as the board renders it. */
export function changesTab(entries: readonly ChangelogEntry[], i18n: I18n): SafeHtml {
  const { t } = i18n;
  return html`<h1>${t('widget.tab.changes')}</h1>
${entries.length === 0
    ? html`<p class="empty">${t('changelog.empty')}</p>`
    : html`<ol class="changes">${entries.map((entry) => html`<li><article><h2>${isolated(entry.title)}</h2>${entry.publishedAt ? html`<p class="date">${date(entry.publishedAt, i18n)}</p>` : ''}<div class="body" dir="auto">${markdownHtml(entry.body)}</div></article></li>`)}</ol>`}`;
}

/** One of My requests (widget.sql.ts, MY_REQUESTS). */
export interface MyRequest {
  id: string;
  title: string;
  status: string;
  voteCount: number;
  submitted: boolean;
  voted: boolean;
  unreadStatus: boolean | null;
  unreadReply: boolean | null;
}

/** My requests: what the identified visitor sent or votes for, what changed since their last visit marked new. */
export function mineTab(items: readonly MyRequest[] | undefined, i18n: I18n): SafeHtml {
  const { t } = i18n;
  if (items === undefined) return html`<h1>${t('widget.tab.mine')}</h1><p class="empty">${t('widget.mine.signedOut')}</p>`;
  const unread = items.filter((item) => item.unreadStatus || item.unreadReply).length;
  return html`<h1>${t('widget.tab.mine')}</h1>
${unread > 0 ? html`<p class="notice">${t('widget.mine.unreadSummary', { count: unread })}</p>` : ''}
${items.length === 0
    ? html`<p class="empty">${t('widget.mine.empty')}</p>`
    : html`<ul class="items mine">${items.map(
        (item) => html`<li${item.unreadStatus || item.unreadReply ? html` class="unread"` : ''}><div><span class="title">${isolated(item.title)}</span>
<span class="status status-${item.status}">${label(item.status, i18n)}</span>
<span class="meta">${item.submitted ? t('widget.mine.submitted') : t('widget.mine.voted')} · ${i18n.number(item.voteCount)} ${t('vote.label', { count: item.voteCount })}</span>
${item.unreadStatus ? html`<strong class="new">${t('widget.mine.unreadStatus', { status: label(item.status, i18n) })}</strong>` : ''}
${item.unreadReply ? html`<strong class="new">${t('widget.mine.unreadReply')}</strong>` : ''}</div></li>`,
      )}</ul>`}`;
}
