import type { MessageKey } from '../../../i18n/index.js';
import { html, type SafeHtml } from '../html.js';
import type { I18n } from '../i18n.js';

/** What each refusal says to a person (the API's texts are for programs), on the board and the team's pages. */
const HEADINGS: Readonly<Record<number, MessageKey>> = {
  400: 'refusal.400',
  401: 'refusal.401',
  403: 'refusal.403',
  404: 'refusal.404',
  405: 'refusal.405',
  410: 'refusal.410',
  413: 'refusal.413',
  415: 'refusal.415',
  421: 'refusal.421',
  429: 'refusal.429',
  503: 'refusal.503',
};

/**
 * A refusal's heading (text, for the page's title) and body: a heading for people, the server's
 * reason, and a way back (`back`: a link). `headings` overrides some statuses' headings for a
 * kind of page. The reason is the server's own text, in English for now (the API's words, which
 * programs read too): it is marked `lang="en"` on a page in another language, so a screen reader
 * says it in English rather than reading it with the page's voice.
 */
export function refusal(status: number, reason: string, back: SafeHtml, i18n: I18n, headings: Readonly<Record<number, MessageKey>> = {}): { heading: string; body: SafeHtml } {
  const key = headings[status] ?? HEADINGS[status] ?? 'refusal.other';
  const body = html`<h1>${i18n.t(key)}</h1>
<p${i18n.lang === 'en' ? '' : html` lang="en" dir="ltr"`}>${reason}</p>
${status === 429 && html`<p>${i18n.t('refusal.waitAndRetry')}</p>`}
<p>${back}</p>`;
  return { heading: i18n.text(key), body };
}
