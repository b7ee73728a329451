import type { Middleware } from 'koa';
import type { SqlPool } from '../../db/pool.js';
import { SERVER_VERSION } from '../../version.js';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

/** Where the API's OpenAPI document is served. */
export const OPENAPI_PATH = '/api/v1/openapi.json';
/** The health check, for load balancers and process managers. */
export const HEALTH_PATH = '/healthz';
/** What this server is, for a browser or a probe that knows only the host. */
export const INDEX_PATH = '/';

const HEALTH_TIMEOUT_MS = 2_000;
const JSON_TYPE = 'application/json; charset=utf-8';

type Answer = (ctx: Parameters<Middleware<AppState>>[0]) => Promise<void> | void;

/**
 * The paths answered without a key, before authentication and the rate limit, in one layer (one
 * lookup per request instead of a middleware each):
 * - `GET /`: what this server is and where to go next (a browser or a probe that knows only the
 *   host gets an answer instead of a 401);
 * - `GET /healthz`: 200 when the database answers within 2 s, 503 when it does not;
 * - `GET /api/v1/openapi.json`: the OpenAPI document (JSON text built once, when the app is), public
 *   like the spec it follows.
 */
export function keylessPaths(sql: SqlPool, openApiDocument: string): Middleware<AppState> {
  const index = JSON.stringify({
    name: 'feedback',
    version: SERVER_VERSION,
    links: { health: HEALTH_PATH, api: '/api/v1/feedback', openapi: OPENAPI_PATH },
    authentication: 'send an API key in the x-api-key header of every /api/v1 request',
  });
  const answers = new Map<string, Answer>([
    [INDEX_PATH, (ctx) => sendJson(ctx, index)],
    [
      HEALTH_PATH,
      async (ctx) => {
        // A hung database (or a long transaction holding the embedded session) must not hang the probe.
        if (!(await sql.ping(HEALTH_TIMEOUT_MS))) throw new AppError(503, 'Database unavailable');
        ctx.body = { status: 'ok' };
      },
    ],
    [OPENAPI_PATH, (ctx) => sendJson(ctx, openApiDocument)],
  ]);
  return async (ctx, next) => {
    const answer = answers.get(ctx.path);
    if (!answer) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new AppError(405, 'Method Not Allowed', undefined, { Allow: 'GET, HEAD' });
    await answer(ctx);
  };
}

function sendJson(ctx: Parameters<Answer>[0], text: string): void {
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = text;
}
