import type { EntityManager } from '@mikro-orm/postgresql';
import type { FeedbackStatus, FeedbackType } from '@feedbackd/sdk/contract';

/**
 * Row locks the operator side takes on items, always first in its transaction, so that every
 * writer takes its locks in one order: the item row(s) (in id order when there are two), then the
 * counters row, then the vote or comment rows (counter-moves.ts). The vote toggle (migration
 * 000800) takes the same order: a `key share` lock on the item (a batch: on all its items, in id
 * order, before anything else), its counters row, then the vote row. A deadlock that still
 * happens is retried inside the server (db/conflicts.ts).
 *
 * - `key share`: the item must stay (adding or deleting a comment). Blocks its delete or merge,
 *   lets everything else through.
 * - `no key update`: the item changes (a status change, or being a merge's target). Also keeps it
 *   from being deleted or merged meanwhile, yet lets votes and comments in.
 * - `update`: the item goes away (delete, or being a merge's duplicate). New votes and comments on
 *   it wait, then fail on their foreign key and answer 404.
 */
export type ItemLock = 'key share' | 'no key update' | 'update';

/** What a lock returns of the item. */
export interface LockedItem {
  id: string;
  status: FeedbackStatus;
  type: FeedbackType;
}

/**
 * Locks item `id` of the project in `mode` and returns it, or undefined when there is no such item
 * in the project (or it was deleted while this waited for the lock: PostgreSQL then skips it).
 */
export async function lockItem(tx: EntityManager, projectId: string, id: string, mode: ItemLock): Promise<LockedItem | undefined> {
  const rows = await tx.execute<LockedItem[]>(`select id, status, type from feedback where id = ? and project_id = ? for ${mode}`, [id, projectId]);
  return rows[0];
}

/**
 * Locks two items in id order, each in its mode, so two transactions that lock the same pair (a
 * merge each way) queue instead of deadlocking. Undefined when either is missing.
 */
export async function lockItems(
  tx: EntityManager,
  projectId: string,
  first: { id: string; mode: ItemLock },
  second: { id: string; mode: ItemLock },
): Promise<[LockedItem, LockedItem] | undefined> {
  const [low, high] = first.id < second.id ? [first, second] : [second, first];
  const lowItem = await lockItem(tx, projectId, low.id, low.mode);
  if (!lowItem) return undefined;
  const highItem = await lockItem(tx, projectId, high.id, high.mode);
  if (!highItem) return undefined;
  return low === first ? [lowItem, highItem] : [highItem, lowItem];
}
