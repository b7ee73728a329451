import Router from '@koa/router';
import Koa from 'koa';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppState } from './http/context.js';
import { auth } from './http/middleware/auth.js';
import { entityManager } from './http/middleware/entity-manager.js';
import { errorHandler } from './http/middleware/error-handler.js';
import { health } from './http/middleware/health.js';
import { jsonBody } from './http/middleware/json-body.js';
import { routeFallback } from './http/middleware/not-found.js';
import { requestId } from './http/middleware/request-id.js';
import { requestLog } from './http/middleware/request-log.js';
import type { Logger } from './logger.js';
import { mountUserRoutes } from './modules/users/users.routes.js';

export interface AppDependencies {
  orm: MikroORM;
  logger: Logger;
  /** Check every reply against the contract; tests turn it on. */
  validateResponses?: boolean;
}

/**
 * The Koa application with the whole middleware chain. It does not listen: `startServer` does,
 * and tests mount it on port 0.
 */
export function createApp(deps: AppDependencies): Koa<AppState> {
  const app = new Koa<AppState>();
  // Every error is answered by errorHandler; Koa's default handler would print stacks to stderr.
  app.silent = true;

  const router = new Router<AppState>();
  const mountOptions = { validateResponses: deps.validateResponses ?? false };
  mountUserRoutes(router, mountOptions);

  app
    .use(requestId())
    .use(requestLog(deps.logger))
    .use(errorHandler(deps.logger))
    .use(health(deps.orm))
    .use(entityManager(deps.orm))
    .use(auth())
    .use(jsonBody())
    .use(routeFallback())
    .use(router.routes())
    .use(router.allowedMethods());
  return app;
}
