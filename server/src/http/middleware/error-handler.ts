import type { Middleware } from 'koa';
import type { Logger } from '../../logger.js';
import type { AppState } from '../context.js';
import { toErrorResponse } from '../errors.js';

/**
 * The outermost catch: every failure leaves as the spec's JSON error. An unexpected error logs its
 * stack with the request id and answers 500 "Internal server error", nothing more.
 */
export function errorHandler(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const response = toErrorResponse(error);
      if (response.unexpected) {
        logger.error('unexpected error', {
          id: ctx.state.requestId,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
      // Headers already set (request id, rate limits) stay: they describe this response too.
      ctx.set(response.headers);
      ctx.status = response.status;
      ctx.body = response.body;
    }
  };
}
