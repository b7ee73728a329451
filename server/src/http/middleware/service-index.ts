import type { Middleware } from 'koa';
import { SERVER_VERSION } from '../../version.js';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

/**
 * `GET /`, before authentication: what this server is and where to go next. Someone opening the
 * address in a browser, or a probe that knows only the host, gets an answer instead of a 401.
 */
export function serviceIndex(): Middleware<AppState> {
  const body = JSON.stringify({
    name: 'feedback',
    version: SERVER_VERSION,
    links: { health: '/healthz', api: '/api/v1/feedback', openapi: '/api/v1/openapi.json' },
    authentication: 'send an API key in the x-api-key header of every /api/v1 request',
  });
  return async (ctx, next) => {
    if (ctx.path !== '/') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new AppError(405, 'Method Not Allowed', undefined, { Allow: 'GET, HEAD' });
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = body;
  };
}
