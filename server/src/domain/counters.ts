import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Where an item's counters move. The invariants: `vote_count` equals the item's rows in `votes`,
 * `comment_count` its rows in `comments`, and the per-project (status, type) cells of
 * `feedback_stats` the items in them. Every writer keeps them in the transaction (or statement)
 * that changes the rows they count:
 *
 * - the hot side, one statement each: submit (`SUBMIT_*` in public/feedback.sql.ts: counters row
 *   with one vote) and the vote toggle (`toggle_vote`, migration 000300);
 * - the operator side (comments, merges): `moveCounters` below, the one statement they all use;
 * - `feedback_stats`, and the status/type copies on `feedback_counters`: triggers on `feedback`
 *   (migration 000300), so a status or type change, a delete or a merge moves them whoever makes it.
 *   An item's delete removes its counters row with it (on delete cascade).
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
 * Moves an item's counters by exact amounts, with atomic SQL (`count = count + n`, never a
 * read-modify-write through the unit of work, which loses updates under concurrency), in the
 * caller's transaction `tx`. Call it after the rows it counts have changed, in that transaction:
 * it takes the counters row's lock last, as the vote toggle does, so the two cannot deadlock.
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
