import type { Middleware } from 'koa';
import type { SqlPool } from '../../db/pool.js';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

const HEALTH_TIMEOUT_MS = 2_000;

/** GET /healthz, before authentication: 200 when the database answers, 503 when it does not. */
export function health(sql: SqlPool): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== '/healthz') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new AppError(405, 'Method Not Allowed', undefined, { Allow: 'GET, HEAD' });
    // A hung database (or a long transaction holding the embedded session) must not hang the probe.
    const connected = await sql.ping(HEALTH_TIMEOUT_MS);
    if (!connected) throw new AppError(503, 'Database unavailable');
    ctx.body = { status: 'ok' };
  };
}
