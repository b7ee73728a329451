import { notificationItem, notifySubscribers } from '../events/outbox.sql.js';

/*
 * The notifications' statements outside the hot paths (docs/notifications.md). The status change,
 * the team reply and the changelog's announcement call `notify_subscribers` from their own
 * statements; the merge calls it here, in its transaction.
 */

/**
 * Tells the subscribers of a duplicate that it was merged into another item: $1 project,
 * $2 duplicate, $3 target. Run before the duplicate's rows move or go (its subscriptions with it).
 */
export const NOTIFY_MERGED = `select ${notifySubscribers('$1::uuid', 'array[s.id]', 't.id', 'merged', `jsonb_build_object('feedback', ${notificationItem('t')}, 'source', jsonb_build_object('id', s.id, 'title', s.title))`)} as notified
  from feedback s join feedback t on t.id = $3::uuid where s.id = $2::uuid and s.project_id = $1::uuid`;
