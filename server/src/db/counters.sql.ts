/**
 * An item's counters (`vote_count` and `comment_count` in `feedback_counters`) as SQL fragments for
 * the statements that insert the rows they count: data-modifying CTEs of that very statement, so
 * the counters move with the rows. Submit (domain/feedback/submit.sql.ts), the seeder
 * (ops/seed/seed-sql.ts) and `feedback import` (ops/transfer/import-sql.ts) use them; every
 * other writer of a counter is listed in docs/architecture.md, "Where counters are written".
 *
 * The invariants: `vote_count` equals the item's rows in `votes`, `comment_count` its rows in
 * `comments`. Only rows really inserted count (an `insert … on conflict do nothing … returning`
 * returns those alone), so loading the same rows twice moves nothing the second time.
 */

/** What new items' counters start at: SQL expressions over the rows of the items' relation. */
export interface StartingCounts {
  votes: string;
  comments: string;
}

/**
 * The counters rows of new items. `items` is a relation aliased `i` with the inserted items' `id,
 * project_id, created_at, status, type` (a CTE of `insert into feedback … returning` them, joined
 * to more if `counts` needs it). `counts` are the votes and comments inserted in the same statement
 * (the submitter's own vote, a seed's generated rows); 0 when they follow in other statements and
 * move the counters with countInsertedRows.
 */
export function counterRowsOfNewItems(items: string, counts: StartingCounts = { votes: '0', comments: '0' }): string {
  return `insert into feedback_counters (feedback_id, project_id, created_at, status, type, vote_count, comment_count)
  select i.id, i.project_id, i.created_at, i.status, i.type, ${counts.votes}, ${counts.comments} from ${items}`;
}

/**
 * Moves each item's vote or comment counter by the number of rows of `rows` (a CTE of inserted
 * votes or comments returning `feedback_id`) on it, after those rows.
 */
export function countInsertedRows(rows: string, counter: 'votes' | 'comments'): string {
  const column = counter === 'votes' ? 'vote_count' : 'comment_count';
  return `update feedback_counters c set ${column} = c.${column} + n.added
  from (select feedback_id, count(*)::int as added from ${rows} group by feedback_id) n
  where c.feedback_id = n.feedback_id`;
}
