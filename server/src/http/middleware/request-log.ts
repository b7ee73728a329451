import type { Middleware } from 'koa';
import type { Logger } from '../../logger.js';
import { recordRequest } from '../../metrics/http-metrics.js';
import type { AppState } from '../context.js';

/** One line per request: id, method, path (no query string: it may carry search terms), status, time. */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      recordRequest(ctx, ms / 1000);
      const entry = { id: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 };
      if (logger.request) logger.request(entry);
      else logger.info('request', { ...entry });
    }
  };
}
