import { FeedbackStatusSchema } from '@feedbackd/sdk/contract';
import { count, label } from '../kit/views/parts.js';

/*
 * What the inbox says once, above the list, after a change: read from the address the change sent
 * the browser back to (a post, then a redirect, then a get), and never kept in the page's links.
 */

/** The parameters the changes add to the inbox's address. */
export const NOTICE_PARAMS = ['changed', 'missing', 'to', 'deleted', 'undo', 'restored', 'kept'] as const;

/** What a change did, in sentences. */
export function noticeOf(params: URLSearchParams): string | undefined {
  if (params.get('deleted') === '1') return 'The item was deleted.';
  const missing = whole(params.get('missing')) ?? 0;
  const gone = missing === 0 ? [] : [`${count(missing, 'item')} could not be found (deleted or merged meanwhile).`];
  const restored = whole(params.get('restored'));
  if (restored !== undefined) {
    const kept = whole(params.get('kept')) ?? 0;
    return [
      restored === 1 ? '1 item is back at the status it had before.' : `${count(restored, 'item')} are back at the status they had before.`,
      ...(kept === 0 ? [] : [kept === 1 ? '1 item was changed since, and was left as it is.' : `${count(kept, 'item')} were changed since, and were left as they are.`]),
      ...gone,
    ].join(' ');
  }
  const changed = whole(params.get('changed'));
  const to = FeedbackStatusSchema.safeParse(params.get('to'));
  if (changed === undefined || !to.success) return undefined;
  return [`${count(changed, 'item')} moved to ${label(to.data)}.`, ...gone].join(' ');
}

/** A count from the address: a whole number, or undefined. */
function whole(value: string | null): number | undefined {
  if (value === null || !/^\d{1,6}$/.test(value)) return undefined;
  return Number(value);
}
