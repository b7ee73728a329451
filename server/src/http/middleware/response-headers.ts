import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../context.js';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/**
 * The headers every response carries, set first so that errors carry them too:
 * - `X-Request-Id`: the caller's when it is sane, else a new one (it names the request in the log);
 * - `X-Content-Type-Options: nosniff`: a browser must take every body as the JSON it is declared to
 *   be, never guess HTML or script from text a user submitted.
 */
export function responseHeaders(): Middleware<AppState> {
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    ctx.state.requestId = SAFE_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}
