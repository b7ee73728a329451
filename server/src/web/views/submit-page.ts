import { FEEDBACK_TYPES, TITLE_MAX_LENGTH } from '@feedbackd/sdk/contract';
import type { AssetPaths } from '../assets.js';
import { html, type SafeHtml } from '../html.js';
import { boardPaths, page, type BoardProject } from '../layout.js';
import { errorSummary, label, options, type Problem } from './parts.js';

/** What the visitor typed, to fill the form again after a refusal. */
export interface SubmitValues {
  title?: string | undefined;
  description?: string | undefined;
  type?: string | undefined;
}

export interface SubmitView {
  project: BoardProject;
  assets: AssetPaths;
  values: SubmitValues;
  /** The contract's messages, each about a field (its name is the control's id) or the whole form. */
  problems: Problem[];
}

/** GET and a refused POST /b/:slug/new: the form, with the contract's messages next to the fields. */
export function submitPage(view: SubmitView): SafeHtml {
  const { project, values, problems } = view;
  const body = html`<h1>Give feedback</h1>
${errorSummary(problems)}
<form method="post" action="${boardPaths.submit(project.slug)}" novalidate>
${field('title', 'Title', problems, (describedBy) => html`<input type="text" id="title" name="title" value="${values.title ?? ''}" maxlength="${TITLE_MAX_LENGTH}" required${describedBy}>`, 'A short summary, up to 200 characters.')}
${field('description', 'Description (optional)', problems, (describedBy) => html`<textarea id="description" name="description" rows="6"${describedBy}>${values.description ?? ''}</textarea>`)}
${field('type', 'Type', problems, (describedBy) => html`<select id="type" name="type"${describedBy}>${options(FEEDBACK_TYPES.map((t) => ({ value: t, text: label(t) })), values.type ?? 'idea')}</select>`)}
<button type="submit" class="button">Send feedback</button>
</form>`;
  return page({ title: problems.length > 0 ? 'Error: Give feedback' : 'Give feedback', assets: view.assets, project, section: 'new', body });
}

/** A labelled control with its hint and its error message, tied to it by aria-describedby. */
function field(name: string, text: string, problems: readonly Problem[], control: (describedBy: SafeHtml) => SafeHtml, hint?: string): SafeHtml {
  const messages = problems.filter((p) => p.field === name).map((p) => p.message);
  const ids = [hint ? `${name}-hint` : '', messages.length > 0 ? `${name}-error` : ''].filter(Boolean).join(' ');
  const describedBy = html`${ids ? html` aria-describedby="${ids}"` : ''}${messages.length > 0 ? html` aria-invalid="true"` : ''}`;
  return html`<div class="field${messages.length > 0 ? ' invalid' : ''}">
<label for="${name}">${text}</label>
${hint && html`<p class="hint" id="${name}-hint">${hint}</p>`}
${messages.length > 0 && html`<p class="field-error" id="${name}-error"><span class="visually-hidden">Error: </span>${messages.join('. ')}</p>`}
${control(describedBy)}
</div>`;
}
