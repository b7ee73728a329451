import type Router from '@koa/router';
import type { AppState } from '../http/context.js';
import type { MountOptions } from '../http/mount.js';
import { mountFeedbackRoutes } from './feedback.route.js';
import type { HotWrites } from './hot-writes.js';
import { mountSimilarRoutes } from './similar.route.js';
import { mountUserRoutes } from './users.route.js';
import { mountVoteRoutes } from './votes.route.js';

/**
 * The six endpoints of the spec and the similar items (an extension), each one or two statements
 * on the pool: no ORM, no entity, no transaction object. Each `*.route.ts` holds only its routes'
 * handlers; what the web calls too (a vote, a submission, a list, similar items) is in a file of
 * its own (votes.ts, submissions.ts, lists.ts, similar.ts), and the statements' text in `*.sql.ts`.
 */
export function mountApiRoutes(router: Router<AppState>, options: MountOptions, writes: HotWrites): void {
  mountUserRoutes(router, options);
  // Before /feedback/:id, which /feedback/similar also matches: the router runs the first route
  // mounted, and the :id route would answer 404 for an id that is not a uuid.
  mountSimilarRoutes(router, options);
  mountFeedbackRoutes(router, options, writes.submissions);
  mountVoteRoutes(router, options, writes.votes);
}
