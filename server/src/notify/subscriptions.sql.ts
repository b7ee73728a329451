import type { SqlPool } from '../db/pool.js';

/*
 * Leaving the notifications (docs/notifications.md): the one-click unsubscribe of the mail calls
 * this. (The subscribe/unsubscribe API of issue 40 item 1 keeps its statements here as well.)
 */

/** Whom to unsubscribe: an end user (their id, not their externalId) from one item, or from the whole project with `feedbackId` null. */
export interface Unsubscribe {
  projectId: string;
  endUserId: string;
  feedbackId: string | null;
}

/**
 * Records an explicit unsubscribe: `subscriptions.unsubscribed_at` of the item, or
 * `end_users.unsubscribed_at` for the project. The first time counts: a second click keeps the
 * first time. Returns whether the end user (and the item) is in the project.
 */
export async function unsubscribe(db: Pick<SqlPool, 'query'>, { projectId, endUserId, feedbackId }: Unsubscribe): Promise<boolean> {
  const rows =
    feedbackId === null
      ? await db.query('', `update end_users set unsubscribed_at = coalesce(unsubscribed_at, now()) where id = $1::uuid and project_id = $2::uuid returning 1`, [endUserId, projectId])
      : await db.query('', `update subscriptions set unsubscribed_at = coalesce(unsubscribed_at, now()) where feedback_id = $3::uuid and end_user_id = $1::uuid and project_id = $2::uuid returning 1`, [endUserId, projectId, feedbackId]);
  return rows.length > 0;
}
