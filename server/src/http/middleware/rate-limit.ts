import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ERROR_MESSAGES } from '@feedback/sdk/contract';
import type { Logger } from '../../logger.js';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

/** Spec part 8: 100 requests per minute per API key. */
export const DEFAULT_RATE_LIMIT = 100;
export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitOptions {
  /** Requests allowed per key in each window. */
  points: number;
  /** The store of the counts; in memory unless given (shared stores plug in here). */
  limiter?: RateLimiterAbstract;
}

/**
 * The per-key rate limit, as two middlewares around auth:
 * - `policy` (before auth) announces the policy on every API response, a 401 included;
 * - `consume` (after auth) spends one request of the caller's key and reports what is left.
 * A request without a valid key is refused by auth before `consume`, so it never spends a key's budget.
 */
export function rateLimit(options: RateLimitOptions, logger: Logger): { policy: Middleware<AppState>; consume: Middleware<AppState> } {
  const limiter = options.limiter ?? new RateLimiterMemory({ points: options.points, duration: RATE_LIMIT_WINDOW_SECONDS });
  const limit = limiter.points;
  const window = limiter.duration;

  const policy: Middleware<AppState> = async (ctx, next) => {
    // The IETF draft's policy header, and the widely used X- header that says the same.
    ctx.set('RateLimit-Policy', `"default";q=${limit};w=${window}`);
    ctx.set('X-RateLimit-Limit', String(limit));
    await next();
  };

  const consume: Middleware<AppState> = async (ctx, next) => {
    let state: RateLimiterRes;
    let allowed = true;
    try {
      state = await limiter.consume(ctx.state.apiKeyId);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        // The store failed, not the caller: serve the request rather than fail it, and say so.
        logger.warn('rate limiter store failed; request served without a limit', {
          id: ctx.state.requestId,
          error: error instanceof Error ? error.message : String(error),
        });
        return next();
      }
      state = error;
      allowed = false;
    }
    const resetSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    const remaining = Math.max(0, state.remainingPoints);
    ctx.set('RateLimit', `"default";r=${remaining};t=${resetSeconds}`);
    ctx.set('X-RateLimit-Remaining', String(remaining));
    // Like GitHub's: the Unix time (seconds) when the window resets.
    ctx.set('X-RateLimit-Reset', String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)));
    if (!allowed) throw new AppError(429, ERROR_MESSAGES.rateLimited, undefined, { 'Retry-After': String(resetSeconds) });
    await next();
  };

  return { policy, consume };
}
