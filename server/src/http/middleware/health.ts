import type { Middleware } from 'koa';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

/** GET /healthz, before authentication: 200 when the database answers, 503 when it does not. */
export function health(orm: MikroORM): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== '/healthz') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new AppError(405, 'Method Not Allowed', undefined, { Allow: 'GET, HEAD' });
    const connected = await orm.isConnected().catch(() => false);
    if (!connected) throw new AppError(503, 'Database unavailable');
    ctx.body = { status: 'ok' };
  };
}
