import type Router from '@koa/router';
import type { HotWrites } from '../domain/hot-writes.js';
import type { AppState } from '../http/context.js';
import type { MountOptions } from '../http/mount.js';
import type { OperatorOrm } from '../http/operator-orm.js';
import { mountBoardRoutes } from './board.routes.js';
import { mountChangelogRoutes } from './changelog.routes.js';
import { mountCommentRoutes, type EndUserTokenCheck } from './comments.routes.js';
import { mountFeedbackRoutes } from './feedback.routes.js';
import { mountModerationRoutes } from './moderation.routes.js';
import { mountNotificationRoutes } from './notifications.routes.js';
import { mountSimilarRoutes } from './similar.routes.js';
import { mountSubscriptionRoutes } from './subscriptions.routes.js';
import { mountTeamRoutes } from './team.routes.js';
import { mountUserDataRoutes } from './user-data.routes.js';
import { mountUserRoutes } from './users.routes.js';
import { mountVoteRoutes } from './votes.routes.js';
import { mountWebhookRoutes, type WebhookRouteOptions } from './webhooks.routes.js';

/** What the contract's routes need beyond the mount's options. */
export interface RouteDependencies {
  /** The process's group commits of votes and submissions, which the board and the widget share. */
  writes: HotWrites;
  /** The operator side's ORM, for the changes that are transactions of several statements. */
  orm: OperatorOrm;
  /** The check of an end user's signed token (web/kit/visitor-token.ts): a public key's proof of who changes a comment. */
  endUserToken: EndUserTokenCheck;
  webhooks: WebhookRouteOptions;
}

/**
 * Every route of the contract (sdk/src/contract/routes.ts), a file per resource, each handler
 * thin: `mount` binds the input (and refuses a public key where the route says `auth: 'secret'`),
 * the handler authorizes what is left, calls the feature and replies.
 */
export function mountContractRoutes(router: Router<AppState>, options: MountOptions, deps: RouteDependencies): void {
  mountUserRoutes(router, options);
  // Before /feedback/:id, which /feedback/similar also matches: the router runs the first route
  // mounted, and the :id route would answer 404 for an id that is not a uuid.
  mountSimilarRoutes(router, options);
  mountFeedbackRoutes(router, options, deps.writes.submissions, deps.orm);
  mountVoteRoutes(router, options, deps.writes.votes);
  mountCommentRoutes(router, options, deps.orm, deps.endUserToken);
  mountModerationRoutes(router, options, deps.orm);
  mountUserDataRoutes(router, options, deps.orm);
  mountTeamRoutes(router, options, deps.orm);
  mountBoardRoutes(router, options, deps.orm);
  mountChangelogRoutes(router, options, deps.orm);
  mountNotificationRoutes(router, options);
  mountSubscriptionRoutes(router, options);
  mountWebhookRoutes(router, options, deps.webhooks);
}
