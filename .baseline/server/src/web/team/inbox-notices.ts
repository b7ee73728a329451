import { FeedbackStatusSchema } from '@feedbackd/sdk/contract';
import { html, type SafeHtml } from '../kit/html.js';
import type { I18n } from '../kit/i18n.js';
import { label } from '../kit/views/parts.js';

/*
 * What the inbox says once, above the list, after a change: read from the address the change sent
 * the browser back to (a post, then a redirect, then a get), and never kept in the page's links.
 * Each sentence is a message of the catalogue with its count (messages/team/en.ts), so every
 * language says "1 item", "2 items" (and Arabic's six forms) its own way.
 */

/** The parameters the changes add to the inbox's address. */
export const NOTICE_PARAMS = ['changed', 'missing', 'to', 'deleted', 'undo', 'restored', 'kept'] as const;

/** What a change did, in sentences, in the page's language. */
export function noticeOf(params: URLSearchParams, i18n: I18n): SafeHtml | undefined {
  const { t } = i18n;
  if (params.get('deleted') === '1') return t('team.notice.deleted');
  const missing = whole(params.get('missing')) ?? 0;
  const gone = missing === 0 ? [] : [t('team.notice.missing', { count: missing })];
  const restored = whole(params.get('restored'));
  if (restored !== undefined) {
    const kept = whole(params.get('kept')) ?? 0;
    return sentences([t('team.notice.restored', { count: restored }), ...(kept === 0 ? [] : [t('team.notice.kept', { count: kept })]), ...gone]);
  }
  const changed = whole(params.get('changed'));
  const to = FeedbackStatusSchema.safeParse(params.get('to'));
  if (changed === undefined || !to.success) return undefined;
  return sentences([t('team.notice.moved', { count: changed, status: label(to.data, i18n) }), ...gone]);
}

/** Sentences one after another (a space between them: every catalogue language here separates sentences so, but Japanese, which reads well with it too). */
function sentences(parts: SafeHtml[]): SafeHtml {
  return html`${parts.map((part, i) => (i === 0 ? part : html` ${part}`))}`;
}

/** A count from the address: a whole number, or undefined. */
function whole(value: string | null): number | undefined {
  if (value === null || !/^\d{1,6}$/.test(value)) return undefined;
  return Number(value);
}
