import type Router from '@koa/router';
import type { AppState } from '../http/context.js';
import type { MountOptions } from '../http/mount.js';
import { mountFeedbackRoutes } from './feedback.route.js';
import { mountSimilarRoutes } from './similar.route.js';
import { mountUserRoutes } from './users.route.js';
import { mountVoteRoutes } from './votes.route.js';

/**
 * The six endpoints of the spec and the similar items (an extension), each one or two statements on the pool: no ORM, no entity, no
 * transaction object. Each `*.route.ts` holds its routes' handlers and how they use their
 * statements; the statements' text is in the `*.sql.ts` beside it.
 */
export function mountPublicRoutes(router: Router<AppState>, options: MountOptions): void {
  mountUserRoutes(router, options);
  // Before /feedback/:id, which /feedback/similar also matches: the router runs the first route
  // mounted, and the :id route would answer 404 for an id that is not a uuid.
  mountSimilarRoutes(router, options);
  mountFeedbackRoutes(router, options);
  mountVoteRoutes(router, options);
}
