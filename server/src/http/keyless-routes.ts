import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { SqlPool } from '../db/pool.js';
import { DEFAULT_PROJECT_SLUG } from '../admin/projects.service.js';
import { SERVER_VERSION } from '../version.js';
import type { AppContext, AppState } from './context.js';
import { AppError } from './errors.js';

/** Where the API's OpenAPI document is served. */
export const OPENAPI_PATH = '/api/v1/openapi.json';
/** The health check, for load balancers and process managers. */
export const HEALTH_PATH = '/healthz';
/** What this server is, for a browser or a probe that knows only the host. */
export const INDEX_PATH = '/';

/** Where a browser that asks for `/` is sent: the board of the project a first start makes. */
const BOARD_HOME = `/b/${DEFAULT_PROJECT_SLUG}`;

const HEALTH_TIMEOUT_MS = 2_000;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The paths answered without a key, as routes of their own router, mounted before the key is
 * asked for (access.ts):
 * - `GET /`: what this server is and where to go next (a browser or a probe that knows only the
 *   host gets an answer instead of a 401); a browser (its Accept names text/html) is sent to the
 *   default project's board instead (web/board.ts), and every other caller keeps the JSON;
 * - `GET /healthz`: 200 when the database answers within 2 s, 503 when it does not;
 * - `GET /api/v1/openapi.json`: the OpenAPI document (JSON text built once, when the app is), public
 *   like the spec it follows.
 * Another method on one of them is a 405 with `Allow: GET, HEAD`. The paths match exactly (case and
 * trailing slash included): `/healthz/` is an API path like any other, asked for a key.
 */
export function keylessRoutes(sql: SqlPool, openApiDocument: string, board?: Middleware<AppState>, team?: Middleware<AppState>): Router<AppState> {
  const index = JSON.stringify({
    name: 'feedback',
    version: SERVER_VERSION,
    links: { health: HEALTH_PATH, api: '/api/v1/feedback', openapi: OPENAPI_PATH },
    authentication: 'send an API key in the x-api-key header of every /api/v1 request',
  });
  const router = new Router<AppState>({ sensitive: true, strict: true });
  router.get(INDEX_PATH, (ctx) => {
    if (ctx.get('accept').includes('text/html')) return ctx.redirect(BOARD_HOME);
    // The answer differs by Accept: a cache must keep one per kind.
    ctx.set('Vary', 'Accept');
    sendJson(ctx, index);
  });
  router.get(HEALTH_PATH, async (ctx) => {
    // A hung database (or a long transaction holding the embedded session) must not hang the probe.
    if (!(await sql.ping(HEALTH_TIMEOUT_MS))) throw new AppError(503, 'Database unavailable');
    ctx.body = { status: 'ok' };
  });
  router.get(OPENAPI_PATH, (ctx) => sendJson(ctx, openApiDocument));
  for (const path of [INDEX_PATH, HEALTH_PATH, OPENAPI_PATH]) {
    router.all(path, () => {
      throw new AppError(405, 'Method Not Allowed', undefined, { Allow: 'GET, HEAD' });
    });
  }
  // The board's pages and assets (web/board.ts), matched here by the router, so that an API
  // request runs none of the board's code on its way.
  if (board) for (const path of ['/b/{*rest}', '/assets/{*rest}']) router.all(path, board);
  // The team's pages (web/team/), likewise: they have their own session, asked for there.
  if (team) for (const path of ['/team', '/team/{*rest}']) router.all(path, team);
  return router;
}

function sendJson(ctx: AppContext, text: string): void {
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = text;
}
