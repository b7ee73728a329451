import { html, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';

/** A timestamp of the API as a <time> (its ISO value for machines) that reads as the page's language writes a date. */
export function when(iso: string, i18n: I18n): SafeHtml {
  return html`<time datetime="${iso}">${i18n.date(iso)}</time>`;
}
