import type { SqlPool } from '../db/pool.js';
import { submitBatches, SUBMITS_IN_FLIGHT, type SubmitBatches } from './feedback/submissions.js';
import { TOGGLES_IN_FLIGHT, voteBatches, type VoteBatches } from './votes/votes.js';

/**
 * The process's group commits of the spec's writes (db/statement-batches.ts), made once and
 * shared by the API's handlers and the board's forms (web/), so that a vote or a submission from
 * either joins the same batches and runs the same statements.
 */
export interface HotWrites {
  votes: VoteBatches;
  submissions: SubmitBatches;
}

export function hotWrites(sql: SqlPool): HotWrites {
  return { votes: voteBatches(sql, TOGGLES_IN_FLIGHT), submissions: submitBatches(sql, SUBMITS_IN_FLIGHT) };
}
