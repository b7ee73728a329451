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
 * - bulk loads (`feedback import`): `counterRowsOfNewItems` and `countInsertedRows` below, inside
 *   the statements that insert the items, votes and comments;
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
 * Locks an item's counters row until the end of the caller's transaction `tx`, for a change that
 * will move them after it has changed vote rows (a merge): the vote toggle takes the counters row
 * before its vote row, so a writer that holds vote rows while it waits for the counters could
 * deadlock with it. Call it right after the item locks (domain/item-locks.ts).
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

/**
 * Set-based forms of the same invariants, for bulk loads (`feedback import`): SQL fragments to use
 * as data-modifying CTEs of the statement that inserts the rows, so the counters move in that very
 * statement. Only rows really inserted count (an `insert … on conflict do nothing … returning`
 * returns those alone), so loading the same rows twice moves nothing the second time.
 */

/**
 * Counters rows, at zero, for the items of `items`: a CTE of inserted items returning
 * `id, project_id, created_at, status, type`. Their votes and comments, inserted afterwards, move
 * them with countInsertedRows.
 */
export function counterRowsOfNewItems(items: string): string {
  return `insert into feedback_counters (feedback_id, project_id, created_at, status, type, vote_count, comment_count)
  select id, project_id, created_at, status, type, 0, 0 from ${items}`;
}

/**
 * Moves each item's vote or comment counter by the number of rows of `rows` (a CTE of inserted
 * votes or comments returning `feedback_id`) on it, after those rows, as moveCounters does.
 */
export function countInsertedRows(rows: string, counter: 'votes' | 'comments'): string {
  const column = counter === 'votes' ? 'vote_count' : 'comment_count';
  return `update feedback_counters c set ${column} = c.${column} + n.added
  from (select feedback_id, count(*)::int as added from ${rows} group by feedback_id) n
  where c.feedback_id = n.feedback_id`;
}
