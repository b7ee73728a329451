import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import Koa from 'koa';
import type { SqlPool } from './db/pool.js';
import { requestTransactions } from './db/request-transaction.js';
import type { AppState } from './http/context.js';
import { AppError } from './http/errors.js';
import { access, toRateLimiter, type RateLimitOptions } from './http/access.js';
import { jsonBody } from './http/body.js';
import { edge } from './http/edge.js';
import { idempotentWrites } from './http/idempotent-writes.js';
import { keylessRoutes } from './http/keyless-routes.js';
import { FAILED_AUTH_LIMIT, FailedAuthLimit } from './limits/failed-auth.js';
import type { Logger } from './logger.js';
import { openApiJson } from './openapi.js';
import { hotWrites } from './domain/hot-writes.js';
import { mountContractRoutes } from './routes/contract-routes.js';
import { boardAssets } from './web/board/assets.js';
import { board } from './web/board/board.js';
import { widget } from './web/widget/widget.js';
import { widgetAssets } from './web/widget/assets.js';
import { boardPaths } from './board-paths.js';
import { proveEndUser } from './web/kit/visitor-token.js';
import { DEFAULT_PROJECT_SLUG } from './serve-defaults.js';
import { team } from './web/team/team.js';
import { webhookWakeups, type WebhookWakeups } from './delivery/webhooks/wake-ups.js';

export interface AppDependencies {
  /** The pool every request's statements run on (see docs/architecture.md, "two sides of data access"). */
  sql: SqlPool;
  /**
   * The operator side's ORM, for the operator's endpoints (server/src/routes): an open one, or a
   * function that opens it when first needed. Without it those endpoints, and every write sent
   * with an Idempotency-Key (it runs in a transaction on the ORM's connections), answer 501.
   */
  orm?: MikroORM | (() => Promise<MikroORM>);
  logger: Logger;
  /**
   * The server's voter secret (db/voter-secret.ts, loadVoterSecret): with a project's salt, the
   * key of an anonymous voter. Held in memory, so a vote costs no look-up for it.
   */
  voterSecret: Buffer;
  /** Check every reply against the contract; tests turn it on. */
  validateResponses?: boolean;
  /**
   * Requests per minute per API key (spec part 8), and optionally the limiter's store; 'off' for
   * installations that limit elsewhere (no limit and no rate-limit headers).
   */
  rateLimit: RateLimitOptions | 'off';
  /**
   * How many reverse proxies in front of the server to trust: the caller's IP (anonymous votes) is
   * then read from X-Forwarded-For, that many entries from its end. 0 ignores the header.
   */
  trustProxy?: number;
  /**
   * Unknown or revoked keys one address may send per minute before all its requests are refused
   * (limits/failed-auth.ts; default 30), or 'off' when something in front limits guessing.
   */
  failedAuthLimit?: number | 'off';
  /**
   * Webhook endpoints may be on loopback and private networks (`serve --webhooks-allow-private`);
   * default false. `stopping` is aborted when the server stops, which ends the pulls that wait.
   * `wakeups` wake the waiting pulls (delivery/webhooks/wake-ups.ts): the serving process's, told of the
   * other processes' changes too; absent, the app's own, which hears only its requests.
   */
  webhooks?: { allowPrivate: boolean; stopping?: AbortSignal; wakeups?: WebhookWakeups };
  /**
   * The server's public origin (`serve --public-url`, checked: origins.ts): the board's and
   * the team's pages answer only requests for its host, take posts only from it, and redirect to
   * it. Absent: any host, and the request's own origin.
   */
  publicUrl?: string | undefined;
  /** The shortest time to fill the board's comment and submit forms and the widget's submit form, in ms (web/kit/form-guard.ts; default 3 s). */
  boardMinFillMs?: number | undefined;
  /** How long the board trusts a project's settings, in ms (web/board/projects.ts; default 1 s). */
  boardProjectCacheTtlMs?: number | undefined;
  /** How long the API trusts a key it has looked up, in ms (http/access.ts; default 1 s). */
  keyCacheTtlMs?: number | undefined;
}

/**
 * The Koa application with the whole middleware chain. It does not listen: `startServer` (or a
 * cluster worker) does, and tests mount it on port 0.
 */
export function createApp(deps: AppDependencies): Koa<AppState> {
  const app = new Koa<AppState>();
  // Every error is answered by errorHandler; Koa's default handler would print stacks to stderr.
  app.silent = true;
  const trustedProxies = deps.trustProxy ?? 0;
  if (trustedProxies > 0) {
    // Only the last N entries can be vouched for; anything before them may be forged by the caller.
    app.proxy = true;
    app.maxIpsCount = trustedProxies;
  }

  const router = new Router<AppState>();
  const orm = ormSource(deps.orm);
  const mountOptions = {
    sql: deps.sql,
    validateResponses: deps.validateResponses ?? false,
    idempotent: idempotentWrites(requestTransactions(orm)),
  };
  const writes = hotWrites(deps.sql);
  const wakeups = deps.webhooks?.wakeups ?? webhookWakeups();
  const webhooks = { allowPrivate: deps.webhooks?.allowPrivate ?? false, logger: deps.logger, stopping: deps.webhooks?.stopping, wakeups };
  mountContractRoutes(router, mountOptions, { writes, orm, endUserToken: proveEndUser, webhooks });
  const failedAuthLimit = deps.failedAuthLimit ?? FAILED_AUTH_LIMIT;
  // One limiter for the keys' budgets and the board's posts per address (one store, one bank).
  const limiter = deps.rateLimit === 'off' ? undefined : toRateLimiter(deps.rateLimit);
  // The board's stylesheet and scripts, read and compressed once: the board and the team's pages both use them.
  const assets = boardAssets();
  // The keyless paths, then the board's pages and assets and the team's pages (web/), each with
  // its own session and cross-site rules: matched here by the router, so that an API request runs
  // none of their code on its way.
  const keyless = keylessRoutes(deps.sql, openApiJson(), boardPaths.board(DEFAULT_PROJECT_SLUG));
  const boardPages = board({ sql: deps.sql, writes, limiter, logger: deps.logger, assets, voterSecret: deps.voterSecret, publicOrigin: deps.publicUrl, orm, minFillMs: deps.boardMinFillMs, projectCacheTtlMs: deps.boardProjectCacheTtlMs });
  for (const path of ['/b/{*rest}', '/assets/{*rest}']) keyless.all(path, boardPages);
  // The widget's loader, panels and their assets (web/widget/): its own framing and session rules.
  const widgetPanel = widget({ sql: deps.sql, writes, limiter, logger: deps.logger, assets: widgetAssets(), voterSecret: deps.voterSecret, publicOrigin: deps.publicUrl, minFillMs: deps.boardMinFillMs });
  keyless.all('/w/{*rest}', widgetPanel);
  const teamPages = team({ sql: deps.sql, orm, limiter, logger: deps.logger, assets, publicOrigin: deps.publicUrl });
  for (const path of ['/team', '/team/{*rest}']) keyless.all(path, teamPages);

  // A request's way through, a layer per job (docs/architecture.md, "A request's way"): the edge
  // (request id, errors, fallbacks, log line), the keyless paths (the board's pages among them,
  // web/, with their own rules), access (key, failed-key and rate limits), the JSON body, then the
  // contract's routes.
  app
    .use(edge(deps.logger))
    .use(wakesPulls(wakeups))
    .use(keyless.routes())
    .use(
      access({
        sql: deps.sql,
        logger: deps.logger,
        voterSecret: deps.voterSecret,
        rateLimit: limiter && { points: limiter.points, limiter },
        failures: failedAuthLimit === 'off' ? undefined : new FailedAuthLimit(failedAuthLimit),
        keyCacheTtlMs: deps.keyCacheTtlMs,
      }),
    )
    .use(jsonBody())
    .use(router.routes())
    .use(router.allowedMethods());
  return app;
}

/** The methods that write nothing. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Tells the waiting webhook pulls (delivery/webhooks/wake-ups.ts) of each request that may have written,
 * when it has ended (its transaction committed or rolled back): an event, a redelivery, an outcome
 * reported, an endpoint enabled may have made a pull endpoint's delivery due. A request that
 * writes nothing costs a pull a look at most; one that is not told of costs a waiting pull the
 * rest of its wait.
 */
function wakesPulls(wakeups: WebhookWakeups): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      if (!SAFE_METHODS.has(ctx.method) && !ctx.state.wakesNoPull) wakeups.changed();
    }
  };
}

/** The ORM as the operator's endpoints ask for it. */
function ormSource(orm: AppDependencies['orm']): () => Promise<MikroORM> {
  if (typeof orm === 'function') return orm;
  if (orm) return () => Promise.resolve(orm);
  return () => Promise.reject(new AppError(501, 'Operator endpoints are not enabled on this server'));
}
