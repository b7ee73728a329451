import type { Middleware } from 'koa';
import type { Logger } from '../../logger.js';
import type { AppState } from '../context.js';
import { toErrorResponse } from '../errors.js';

/** While the database is down every request fails alike: one warning per interval says so. */
const DATABASE_DOWN_WARN_EVERY_MS = 10_000;

function databaseDownWarnings(logger: Logger): (error: unknown) => void {
  let lastWarning = 0;
  let answeredSinceWarning = 0;
  return (error) => {
    answeredSinceWarning += 1;
    const now = Date.now();
    if (now - lastWarning < DATABASE_DOWN_WARN_EVERY_MS) return;
    logger.warn('database unreachable: answering 503', {
      error: error instanceof Error ? error.message : String(error),
      requests: answeredSinceWarning,
    });
    lastWarning = now;
    answeredSinceWarning = 0;
  };
}

/**
 * The outermost catch: every failure leaves as the spec's JSON error. An unexpected error logs its
 * stack with the request id and answers 500 "Internal server error", nothing more.
 */
export function errorHandler(logger: Logger): Middleware<AppState> {
  const warnDatabaseDown = databaseDownWarnings(logger);
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const response = toErrorResponse(error);
      if (response.databaseDown) warnDatabaseDown(error);
      if (response.unexpected) {
        logger.error('unexpected error', {
          id: ctx.state.requestId,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
      // Headers already set (request id, rate limits) stay: they describe this response too.
      ctx.set(response.headers);
      // Refused before its body was read to the end (a decompression error half-way, say): the
      // connection's stream is in an unknown state, so it ends after this answer and the client
      // opens a new one instead of sending its next request into a socket about to be reset.
      if (!ctx.req.complete) ctx.set('Connection', 'close');
      ctx.status = response.status;
      ctx.body = response.body;
    }
  };
}
