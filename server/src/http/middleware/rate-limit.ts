import type { Middleware } from 'koa';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { ERROR_MESSAGES } from '@feedbackd/sdk/contract';
import { flexibleLimiter } from '../../limits/flexible-limiter.js';
import type { RateLimiter, RateLimitState } from '../../limits/lease-client.js';
import { localLimiter } from '../../limits/local-limiter.js';
import type { Logger } from '../../logger.js';
import { countRefusal } from '../../metrics/limit-metrics.js';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';
import { DEFAULT_RATE_LIMIT, RATE_LIMIT_WINDOW_SECONDS } from '../../serve-defaults.js';

export { DEFAULT_RATE_LIMIT, RATE_LIMIT_WINDOW_SECONDS };

export interface RateLimitOptions {
  /** Requests allowed per key in each window. */
  points: number;
  /**
   * Where the counts live. By default in this process (one bank, see limits/bank.ts); a cluster
   * worker passes its lease client; a rate-limiter-flexible store (Redis, ...) plugs in as it is.
   */
  limiter?: RateLimiter | RateLimiterAbstract;
}

/**
 * The per-key rate limit, as two middlewares around auth:
 * - `policy` (before auth) announces the policy on every API response, a 401 included;
 * - `consume` (after auth) spends one request of the caller's key and reports what is left.
 * A request without a valid key is refused by auth before `consume`, so it never spends a key's budget.
 */
export function rateLimit(options: RateLimitOptions, logger: Logger): { policy: Middleware<AppState>; consume: Middleware<AppState> } {
  const limiter = toRateLimiter(options);
  const limit = limiter.points;
  const window = limiter.durationSeconds;
  // The IETF draft's policy header, and the widely used X- header that says the same.
  const policyHeader = `"default";q=${limit};w=${window}`;
  const limitHeader = String(limit);

  const policy: Middleware<AppState> = async (ctx, next) => {
    ctx.set('RateLimit-Policy', policyHeader);
    ctx.set('X-RateLimit-Limit', limitHeader);
    await next();
  };

  const consume: Middleware<AppState> = async (ctx, next) => {
    let state: RateLimitState;
    try {
      state = await limiter.consume(ctx.state.caller.keyId);
    } catch (error) {
      // The store failed, not the caller: serve the request rather than fail it, and say so.
      logger.warn('rate limiter store failed; request served without a limit', {
        id: ctx.state.requestId,
        error: error instanceof Error ? error.message : String(error),
      });
      return next();
    }
    const resetSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    const remaining = Math.max(0, state.remaining);
    ctx.set('RateLimit', `"default";r=${remaining};t=${resetSeconds}`);
    ctx.set('X-RateLimit-Remaining', String(remaining));
    // Like GitHub's: the Unix time (seconds) when the window resets.
    ctx.set('X-RateLimit-Reset', String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)));
    if (!state.allowed) {
      countRefusal('key');
      throw new AppError(429, ERROR_MESSAGES.rateLimited, undefined, { 'Retry-After': String(resetSeconds) });
    }
    await next();
  };

  return { policy, consume };
}

function toRateLimiter(options: RateLimitOptions): RateLimiter {
  const given = options.limiter;
  if (!given) return localLimiter(options.points, RATE_LIMIT_WINDOW_SECONDS);
  return 'durationSeconds' in given ? given : flexibleLimiter(given);
}
