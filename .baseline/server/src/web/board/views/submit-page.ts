import { FEEDBACK_TYPES, TITLE_MAX_LENGTH, type SimilarFeedbackItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { unsignedGuard, type FormGuard } from '../../kit/form-guard.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { field } from '../../kit/views/fields.js';
import { detachedVoteForm, errorSummary, label, options, voteButton, type Problem } from '../../kit/views/parts.js';

/**
 * The similar items the form shows: those found, with which of them the visitor votes for; or
 * 'no-title' when they were asked for with no title to look with.
 */
export type SimilarShown = { items: readonly SimilarFeedbackItem[]; voted: ReadonlySet<string> } | 'no-title';

/** What the visitor typed, to fill the form again after a refusal. */
export interface SubmitValues {
  title?: string | undefined;
  description?: string | undefined;
  type?: string | undefined;
}

export interface SubmitView {
  project: BoardProject;
  assets: AssetPaths;
  /** The identified visitor, named in the header; none for an anonymous one. */
  visitor?: Visitor | undefined;
  values: SubmitValues;
  /** The contract's messages, each about a field (its name is the control's id) or the whole form. */
  problems: Problem[];
  /** Items like the title, when the visitor asked for them (without script; the script fills the same list as the title is typed). */
  similar?: SimilarShown | undefined;
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. */
  i18n?: I18n | undefined;
  /** The spam guard's fields (kit/form-guard.ts); a view rendered without one gets an unsigned stamp. */
  guard?: FormGuard | undefined;
  /** The visitor's last post is held for the team (docs/moderation.md): a notice says so. */
  held?: boolean | undefined;
}

/** GET and a refused POST /b/:slug/new: the form, with the contract's messages next to the fields. */
export function submitPage(view: SubmitView): SafeHtml {
  const { project, values, problems } = view;
  const i18n = view.i18n ?? ENGLISH;
  const { t } = i18n;
  const body = html`<h1>${t('board.submit.title')}</h1>
${view.held === true && html`<p class="submit-notice" role="status">${t('board.submit.held')}</p>`}
${errorSummary(problems, i18n)}
<form method="post" action="${boardPaths.submit(project.slug)}" novalidate>
${field('title', t('board.submit.titleField'), problems, (describedBy) => html`<input type="text" id="title" name="title" value="${values.title ?? ''}" maxlength="${TITLE_MAX_LENGTH}" required autocomplete="off"${describedBy}>`, t('board.submit.titleHint', { max: TITLE_MAX_LENGTH }), i18n)}
${similarList(project.slug, view.similar, i18n)}
${field('description', t('board.submit.description'), problems, (describedBy) => html`<textarea id="description" name="description" rows="6"${describedBy}>${values.description ?? ''}</textarea>`, undefined, i18n)}
${field('type', t('board.submit.type'), problems, (describedBy) => html`<select id="type" name="type"${describedBy}>${options(FEEDBACK_TYPES.map((type) => ({ value: type, text: label(type, i18n) })), values.type ?? 'idea')}</select>`, undefined, i18n)}
${(view.guard ?? unsignedGuard()).fields(i18n, 'submit')}
<button type="submit" class="button">${t('board.submit.send')}</button>
<button type="submit" name="intent" value="similar" class="button secondary">${t('board.submit.lookFirst')}</button>
</form>
${similarVoteForms(project.slug, values.title, view.similar)}`;
  const title = i18n.text(problems.length > 0 ? 'board.submit.titleWithErrors' : 'board.submit.title');
  return page({ title, assets: view.assets, project, visitor: view.visitor, section: 'new', path: boardPaths.submit(project.slug), body, i18n });
}

/**
 * The items like the title: a visitor who finds theirs votes for it instead of posting it again.
 * Always there (empty until asked), as a live region that the script fills while the title is
 * typed, from the same list the server renders here (GET /b/:slug/similar, whose answer carries
 * the same texts: similarTexts). Each item shows its status, its votes and a vote button; the
 * button belongs to a vote form after the submit form (forms cannot nest), which without script
 * comes back to this form with the title typed in.
 */
function similarList(slug: string, shown: SimilarShown | undefined, i18n: I18n): SafeHtml {
  const { t } = i18n;
  const found = shown === undefined || shown === 'no-title' ? [] : shown.items;
  const voted = shown === undefined || shown === 'no-title' ? new Set<string>() : shown.voted;
  return html`<section class="similar" aria-live="polite" data-similar="${boardPaths.similar(slug)}" data-return="${boardPaths.submit(slug)}">
${shown === 'no-title' && html`<p>${t('board.similar.noTitle')}</p>`}
${shown !== undefined && shown !== 'no-title' && found.length === 0 && html`<p>${t('board.similar.none')}</p>`}
${found.length > 0 && html`<h2>${t('board.similar.heading')}</h2>
<ul class="similar-items">${found.map(
    (item) => html`<li>${voteButton(item, voted.has(item.id), voteFormId(item.id), i18n)}<span class="similar-body"><a href="${boardPaths.item(slug, item.id)}">${isolated(item.title)}</a>
<span class="similar-meta"><span class="tag"><span class="visually-hidden">${t('meta.status')} </span>${label(item.status, i18n)}</span></span></span></li>`,
  )}</ul>`}
</section>`;
}

/**
 * The texts board.js needs to list similar items as similarList does, sent with them by
 * GET /b/:slug/similar: the heading, the status's hidden prefix, and the button's hidden words
 * around the title (`{title}` marks where the script puts it, isolated).
 */
export function similarTexts(i18n: I18n): { heading: string; status: string; voteFor: string } {
  return { heading: i18n.text('board.similar.heading'), status: i18n.text('meta.status'), voteFor: i18n.text('vote.for', { title: '{title}' }) };
}

/** The similar items' vote forms, after the submit form; a vote comes back to this form, the title kept. */
function similarVoteForms(slug: string, title: string | undefined, shown: SimilarShown | undefined): SafeHtml {
  // Always there: the script puts the forms of the items it lists in it.
  if (shown === undefined || shown === 'no-title' || shown.items.length === 0) return html`<div data-similar-forms></div>`;
  const back = `${boardPaths.submit(slug)}?title=${encodeURIComponent(title?.trim() ?? '')}`;
  return html`<div data-similar-forms>${shown.items.map((item) => detachedVoteForm(slug, item, back, voteFormId(item.id)))}</div>`;
}

const voteFormId = (id: string) => `vote-${id}`;
