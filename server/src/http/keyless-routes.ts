import Router from '@koa/router';
import type { SqlPool } from '../db/pool.js';
import { METRICS_PATH } from '../metrics/registry.js';
import { SERVER_VERSION } from '../version.js';
import type { AppContext, AppState } from './context.js';
import { checkAddress } from './body.js';
import { AppError, pathNotFound } from './errors.js';

/** Where the API's OpenAPI document is served. */
export const OPENAPI_PATH = '/api/v1/openapi.json';
/** The health check, for load balancers and process managers. */
export const HEALTH_PATH = '/healthz';
/** What this server is, for a browser or a probe that knows only the host. */
export const INDEX_PATH = '/';

const HEALTH_TIMEOUT_MS = 2_000;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The paths answered without a key, as routes of their own router, mounted before the key is
 * asked for (access.ts):
 * - `GET /`: what this server is and where to go next (a browser or a probe that knows only the
 *   host gets an answer instead of a 401); a browser (its Accept names text/html) is sent to
 *   `browserHome` instead (app.ts gives the default project's board), and every other caller keeps
 *   the JSON;
 * - `GET /healthz`: 200 when the database answers within 2 s, 503 when it does not;
 * - `GET /api/v1/openapi.json`: the OpenAPI document (JSON text built once, when the app is), public
 *   like the spec it follows.
 * Another method on one of them is a 405 with `Allow: GET, HEAD`. And `/metrics`, with any method,
 * is the JSON 404 of an unknown path: the metrics are served only on their own port
 * (`--metrics-port`), and a probe or a Prometheus pointed at the API's port is told they are not
 * here rather than asked for a key it has no use for. The paths match exactly (case and trailing
 * slash included): `/healthz/` is an API path like any other, asked for a key.
 */
export function keylessRoutes(sql: SqlPool, openApiDocument: string, browserHome?: string): Router<AppState> {
  const index = JSON.stringify({
    name: 'feedback',
    version: SERVER_VERSION,
    links: { health: HEALTH_PATH, api: '/api/v1/feedback', openapi: OPENAPI_PATH },
    authentication: 'send an API key in the x-api-key header of every /api/v1 request',
  });
  const router = new Router<AppState>({ sensitive: true, strict: true });
  // They read nothing of the address, but a NUL in it (`%00`) is refused on every route alike (body.ts).
  const plainAddress = (ctx: AppContext) => {
    const problems = checkAddress(ctx);
    if (problems) throw AppError.invalidInput(problems);
  };
  router.get(INDEX_PATH, (ctx) => {
    plainAddress(ctx);
    if (browserHome && ctx.get('accept').includes('text/html')) return ctx.redirect(browserHome);
    // The answer differs by Accept: a cache must keep one per kind.
    ctx.set('Vary', 'Accept');
    sendJson(ctx, index);
  });
  router.get(HEALTH_PATH, async (ctx) => {
    plainAddress(ctx);
    // A hung database (or a long transaction holding the embedded session) must not hang the probe.
    if (!(await sql.ping(HEALTH_TIMEOUT_MS))) throw new AppError(503, 'Database unavailable');
    ctx.body = { status: 'ok' };
  });
  router.get(OPENAPI_PATH, (ctx) => {
    plainAddress(ctx);
    sendJson(ctx, openApiDocument);
  });
  for (const path of [INDEX_PATH, HEALTH_PATH, OPENAPI_PATH]) {
    router.all(path, (ctx) => {
      plainAddress(ctx);
      throw new AppError(405, 'Method Not Allowed', undefined, { Allow: 'GET, HEAD' });
    });
  }
  router.all(METRICS_PATH, (ctx) => {
    plainAddress(ctx);
    throw pathNotFound(ctx.method, ctx.path);
  });
  return router;
}

function sendJson(ctx: AppContext, text: string): void {
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = text;
}
