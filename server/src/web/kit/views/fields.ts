import { html, type SafeHtml } from '../html.js';
import type { Problem } from './parts.js';

/**
 * A labelled control of a form, as GOV.UK's fields are: its label, its hint, its error message
 * (the problems about it, which the error summary links to by its id, the field's name), and the
 * control `control` makes, tied to the hint and the message by aria-describedby and marked
 * aria-invalid while it has a problem.
 */
export function field(name: string, text: string, problems: readonly Problem[], control: (describedBy: SafeHtml) => SafeHtml, hint?: string): SafeHtml {
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
