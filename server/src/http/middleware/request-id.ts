import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../context.js';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Gives every request an id (the caller's X-Request-Id when it is sane) and echoes it back. */
export function requestId(): Middleware<AppState> {
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    ctx.state.requestId = SAFE_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
