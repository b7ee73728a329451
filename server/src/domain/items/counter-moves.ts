import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * How the operator side moves an item's counters (`vote_count`, `comment_count`) when it adds or
 * deletes a comment or merges items: by exact amounts, in the transaction that changed the rows
 * they count. The other writers of counters are listed in docs/architecture.md, "Where counters
 * are written".
 */

/** By how much an item's counters move; either may be negative. */
export interface CounterMove {
  votes?: number;
  comments?: number;
}

/** An item's counters after a move. */
export interface Counts {
  voteCount: number;
  commentCount: number;
}

/**
 * Locks an item's counters row until the end of the caller's transaction `tx`, for a change that
 * will move them after it has changed vote rows (a merge): the vote toggle takes the counters row
 * before its vote row, so a writer that holds vote rows while it waits for the counters could
 * deadlock with it. Call it right after the item locks (item-locks.ts).
 */
export async function lockCounters(tx: EntityManager, feedbackId: string): Promise<void> {
  await tx.execute('select 1 from feedback_counters where feedback_id = ? for no key update', [feedbackId]);
}

/**
 * Moves an item's counters by exact amounts, with atomic SQL (`count = count + n`, never a
 * read-modify-write through the unit of work, which loses updates under concurrency), in the
 * caller's transaction `tx`. Call it after the rows it counts have changed, in that transaction.
 * A change that touches vote rows locks the counters first (lockCounters); one that only adds or
 * removes a comment may lock them here, since no toggle waits on a comment row.
 */
export async function moveCounters(tx: EntityManager, feedbackId: string, move: CounterMove): Promise<Counts> {
  const rows = await tx.execute<{ vote_count: number; comment_count: number }[]>(
    `update feedback_counters set vote_count = vote_count + ?, comment_count = comment_count + ?
     where feedback_id = ? returning vote_count, comment_count`,
    [move.votes ?? 0, move.comments ?? 0, feedbackId],
  );
  const row = rows[0];
  // The caller holds a lock on the item, so its counters row (deleted only with it) is there.
  if (!row) throw new Error(`feedback ${feedbackId} has no counters row`);
  return { voteCount: row.vote_count, commentCount: row.comment_count };
}
