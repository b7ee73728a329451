import type Router from '@koa/router';
import type { SqlPool } from '../db/pool.js';
import type { AppState } from '../http/context.js';
import type { MountOptions } from '../http/mount.js';
import { mountFeedbackRoutes, submitBatches, SUBMITS_IN_FLIGHT, type SubmitBatches } from './feedback.route.js';
import { mountSimilarRoutes } from './similar.route.js';
import { mountUserRoutes } from './users.route.js';
import { mountVoteRoutes, TOGGLES_IN_FLIGHT, voteBatches, type VoteBatches } from './votes.route.js';

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

/**
 * The six endpoints of the spec and the similar items (an extension), each one or two statements
 * on the pool: no ORM, no entity, no transaction object. Each `*.route.ts` holds its routes' handlers and how they use their
 * statements; the statements' text is in the `*.sql.ts` beside it.
 */
export function mountPublicRoutes(router: Router<AppState>, options: MountOptions, writes: HotWrites): void {
  mountUserRoutes(router, options);
  // Before /feedback/:id, which /feedback/similar also matches: the router runs the first route
  // mounted, and the :id route would answer 404 for an id that is not a uuid.
  mountSimilarRoutes(router, options);
  mountFeedbackRoutes(router, options, writes.submissions);
  mountVoteRoutes(router, options, writes.votes);
}
