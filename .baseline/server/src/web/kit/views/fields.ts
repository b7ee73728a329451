import { html, type HtmlValue, type SafeHtml } from '../html.js';
import { ENGLISH, type I18n } from '../i18n.js';
import { contractMessage } from '../contract-messages.js';
import type { Problem } from './parts.js';

/**
 * A labelled control of a form, as GOV.UK's fields are: its label, its hint, its error message
 * (the problems about it, which the error summary links to by its id, the field's name), and the
 * control `control` makes, tied to the hint and the message by aria-describedby and marked
 * aria-invalid while it has a problem. `text` and `hint` are the view's messages (i18n.t); `i18n`
 * is the page's language, for the words the field adds itself and the contract's messages
 * (contract-messages.ts), English when not given.
 */
export function field(name: string, text: HtmlValue, problems: readonly Problem[], control: (describedBy: SafeHtml) => SafeHtml, hint?: HtmlValue, i18n: I18n = ENGLISH): SafeHtml {
  const messages = problems.filter((p) => p.field === name).map((p) => contractMessage(p.message, i18n));
  const ids = [hint ? `${name}-hint` : '', messages.length > 0 ? `${name}-error` : ''].filter(Boolean).join(' ');
  const describedBy = html`${ids ? html` aria-describedby="${ids}"` : ''}${messages.length > 0 ? html` aria-invalid="true"` : ''}`;
  return html`<div class="field${messages.length > 0 ? ' invalid' : ''}">
<label for="${name}">${text}</label>
${hint && html`<p class="hint" id="${name}-hint">${hint}</p>`}
${messages.length > 0 && html`<p class="field-error" id="${name}-error"><span class="visually-hidden">${i18n.t('field.errorPrefix')} </span>${messages.join('. ')}</p>`}
${control(describedBy)}
</div>`;
}
