import { FEEDBACK_TYPES, TITLE_MAX_LENGTH, type SimilarFeedbackItem } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../../kit/assets.js';
import type { Visitor } from '../visitors.js';
import { html, isolated, type SafeHtml } from '../../kit/html.js';
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
}

/** GET and a refused POST /b/:slug/new: the form, with the contract's messages next to the fields. */
export function submitPage(view: SubmitView): SafeHtml {
  const { project, values, problems } = view;
  const body = html`<h1>Give feedback</h1>
${errorSummary(problems)}
<form method="post" action="${boardPaths.submit(project.slug)}" novalidate>
${field('title', 'Title', problems, (describedBy) => html`<input type="text" id="title" name="title" value="${values.title ?? ''}" maxlength="${TITLE_MAX_LENGTH}" required autocomplete="off"${describedBy}>`, 'A short summary, up to 200 characters.')}
${similarList(project.slug, view.similar)}
${field('description', 'Description (optional)', problems, (describedBy) => html`<textarea id="description" name="description" rows="6"${describedBy}>${values.description ?? ''}</textarea>`)}
${field('type', 'Type', problems, (describedBy) => html`<select id="type" name="type"${describedBy}>${options(FEEDBACK_TYPES.map((t) => ({ value: t, text: label(t) })), values.type ?? 'idea')}</select>`)}
<button type="submit" class="button">Send feedback</button>
<button type="submit" name="intent" value="similar" class="button secondary">Look for similar feedback first</button>
</form>
${similarVoteForms(project.slug, values.title, view.similar)}`;
  return page({ title: problems.length > 0 ? 'Error: Give feedback' : 'Give feedback', assets: view.assets, project, visitor: view.visitor, section: 'new', path: boardPaths.submit(project.slug), body });
}

/**
 * The items like the title: a visitor who finds theirs votes for it instead of posting it again.
 * Always there (empty until asked), as a live region that the script fills while the title is
 * typed, from the same list the server renders here (GET /b/:slug/similar). Each item shows its
 * status, its votes and a vote button; the button belongs to a vote form after the submit form
 * (forms cannot nest), which without script comes back to this form with the title typed in.
 */
function similarList(slug: string, shown: SimilarShown | undefined): SafeHtml {
  const found = shown === undefined || shown === 'no-title' ? [] : shown.items;
  const voted = shown === undefined || shown === 'no-title' ? new Set<string>() : shown.voted;
  return html`<section class="similar" aria-live="polite" data-similar="${boardPaths.similar(slug)}" data-return="${boardPaths.submit(slug)}">
${shown === 'no-title' && html`<p>Type a title first: similar feedback is looked for by its title.</p>`}
${shown !== undefined && shown !== 'no-title' && found.length === 0 && html`<p>Nothing like it yet: go ahead and send it.</p>`}
${found.length > 0 && html`<h2>Already asked? Vote for it instead</h2>
<ul class="similar-items">${found.map(
    (item) => html`<li>${voteButton(item, voted.has(item.id), voteFormId(item.id))}<span class="similar-body"><a href="${boardPaths.item(slug, item.id)}">${isolated(item.title)}</a>
<span class="similar-meta"><span class="tag"><span class="visually-hidden">Status: </span>${label(item.status)}</span></span></span></li>`,
  )}</ul>`}
</section>`;
}

/** The similar items' vote forms, after the submit form; a vote comes back to this form, the title kept. */
function similarVoteForms(slug: string, title: string | undefined, shown: SimilarShown | undefined): SafeHtml {
  // Always there: the script puts the forms of the items it lists in it.
  if (shown === undefined || shown === 'no-title' || shown.items.length === 0) return html`<div data-similar-forms></div>`;
  const back = `${boardPaths.submit(slug)}?title=${encodeURIComponent(title?.trim() ?? '')}`;
  return html`<div data-similar-forms>${shown.items.map((item) => detachedVoteForm(slug, item, back, voteFormId(item.id)))}</div>`;
}

const voteFormId = (id: string) => `vote-${id}`;
