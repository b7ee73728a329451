import { createHmac, timingSafeEqual } from 'node:crypto';
import { FEEDBACK_STATUSES, type FeedbackStatus } from '@feedbackd/sdk/contract';
import { UUID } from '../../db/uuid.js';
import { NOTIFY_HOLD_MAX_SECONDS } from '../../domain/notifications/holds.sql.js';

/*
 * What an undo of a bulk status change needs, carried by the browser (in the inbox's address
 * after the change, then in the banner's form) and signed, so that no storage is kept for it and
 * no one can make one: the status the change set, the items it moved grouped by the status each
 * had before, and when the undo stops being offered. The signature is an HMAC keyed by the
 * session's cookie token, which only that browser holds (the server keeps its hash alone): a
 * token works for the session that made the change, and for no other session, project or site,
 * and tampering with a status or an id breaks it.
 *
 * Its text uses only characters a URL leaves as they are: `exp~to~status_id.id~status_id~sig`
 * (an item id is 36 characters: 100 items make a token of about 4 KB).
 */

/**
 * How long an undo is offered after the change: as long as the change's notifications can be held
 * (domain/notifications/holds.sql.ts), so that an undo in that time takes them back unsent.
 */
export const UNDO_SECONDS = NOTIFY_HOLD_MAX_SECONDS;

/** What an undo puts back. */
export interface Undo {
  /** The status the bulk change set: only items still at it are put back. */
  to: FeedbackStatus;
  /** The items the change moved, by the status each had before it. */
  before: Partial<Record<FeedbackStatus, string[]>>;
  /** When the undo stops being offered (seconds since the epoch). */
  expires: number;
}

const isStatus = (value: string | undefined): value is FeedbackStatus => (FEEDBACK_STATUSES as readonly string[]).includes(value ?? '');

function sign(key: string, projectId: string, payload: string): string {
  return createHmac('sha256', key).update(`feedback team undo\n${projectId}\n${payload}`).digest('base64url');
}

/** The signed token of `undo`, for the project, keyed by the session's cookie token. */
export function undoToken(undo: Undo, key: string, projectId: string): string {
  const groups = Object.entries(undo.before).filter(([, ids]) => ids && ids.length > 0).map(([status, ids]) => `${status}_${ids!.join('.')}`);
  const payload = [String(undo.expires), undo.to, ...groups].join('~');
  return `${payload}~${sign(key, projectId, payload)}`;
}

/** The undo a token holds, when its signature is this session's and project's and it has not expired; undefined else. */
export function readUndoToken(token: unknown, key: string | undefined, projectId: string, now = Date.now()): Undo | undefined {
  if (typeof token !== 'string' || key === undefined || token.length > 8_000) return undefined;
  const cut = token.lastIndexOf('~');
  if (cut === -1) return undefined;
  const payload = token.slice(0, cut);
  const given = Buffer.from(token.slice(cut + 1));
  const expected = Buffer.from(sign(key, projectId, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [expires, to, ...groups] = payload.split('~');
  if (!/^\d{1,12}$/.test(expires ?? '') || Number(expires) * 1000 <= now || !isStatus(to)) return undefined;
  const before: Undo['before'] = {};
  for (const group of groups) {
    const [status, list = ''] = group.split('_');
    const ids = list.split('.');
    if (!isStatus(status) || !ids.every((id) => UUID.test(id))) return undefined;
    before[status] = ids;
  }
  return { to, before, expires: Number(expires) };
}
