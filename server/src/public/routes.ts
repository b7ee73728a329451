import type Router from '@koa/router';
import type { AppState } from '../http/context.js';
import type { MountOptions } from '../http/mount.js';
import { mountFeedbackRoutes } from './feedback.route.js';
import { mountUserRoutes } from './users.route.js';
import { mountVoteRoutes } from './votes.route.js';

/**
 * The six endpoints of the spec, each one or two statements on the pool: no ORM, no entity, no
 * transaction object. Each `*.route.ts` holds its routes' handlers and how they use their
 * statements; the statements' text is in the `*.sql.ts` beside it.
 */
export function mountPublicRoutes(router: Router<AppState>, options: MountOptions): void {
  mountUserRoutes(router, options);
  mountFeedbackRoutes(router, options);
  mountVoteRoutes(router, options);
}
