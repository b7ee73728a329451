import type { Middleware } from 'koa';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

/**
 * HTTP/1.1 requires a Host header (RFC 9112, section 3.2), and a request without one is a broken
 * client or a probe. Node would answer it itself with an empty text 400; it is turned off there
 * (lifecycle.ts) so that the answer here is the API's JSON error with nosniff and a request id.
 * An empty Host is allowed (a target without an authority); HTTP/1.0 had no Host, so it is not asked for.
 */
export function requireHost(): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.req.httpVersion === '1.1' && ctx.req.headers.host === undefined) {
      throw new AppError(400, 'Missing Host header: HTTP/1.1 requests must send one', undefined, { Connection: 'close' });
    }
    await next();
  };
}
