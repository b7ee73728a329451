import type { Statement } from '../../db/pool.js';

/**
 * Which of a few items (the submit form's similar items) the voter votes for, as a JSON array of
 * ids: one probe of the votes' unique index per item, as the list's `voted` does. $1 the item ids,
 * $2 the voter key (an end user's id, or the anonymous visitor's hash).
 */
export const VOTED_AMONG: Statement = {
  name: 'board_voted_among',
  text: `select coalesce(json_agg(v.feedback_id), '[]')::text as voted from votes v where v.feedback_id = any($1::uuid[]) and v.voter_key = $2`,
};
