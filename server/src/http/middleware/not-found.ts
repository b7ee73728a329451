import type { Middleware } from 'koa';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

/** The end of the chain: a request no route answered is a JSON 404. */
export function notFound(): Middleware<AppState> {
  return async (ctx) => {
    throw new AppError(404, `Not found: ${ctx.method} ${ctx.path}`);
  };
}
