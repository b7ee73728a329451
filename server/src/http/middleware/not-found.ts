import type { Middleware } from 'koa';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

/**
 * Wraps the router: a request no route answered becomes a JSON 404, and a known path called with
 * the wrong method a JSON 405 (the router's allowedMethods has already set the Allow header);
 * OPTIONS on a known path is a 204 with that Allow header.
 */
export function routeFallback(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    // The router answers OPTIONS itself with an empty 200 and the Allow header: an empty answer
    // is a 204 in a JSON API, never a text/plain body.
    if (ctx.method === 'OPTIONS' && ctx.status === 200 && ctx.body === '') {
      ctx.status = 204;
      return;
    }
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status === 405) throw new AppError(405, `Method ${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}`);
    if (ctx.status === 501) throw new AppError(501, `Method ${ctx.method} is not supported`);
    if (ctx.status === 404) throw new AppError(404, `Not found: ${ctx.method} ${ctx.path}`);
  };
}
