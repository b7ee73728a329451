import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimiter, RateLimitState } from './lease-client.js';

/** A rate-limiter-flexible store (Redis, PostgreSQL, ...) as a RateLimiter: one store call per request. */
export function flexibleLimiter(limiter: RateLimiterAbstract): RateLimiter {
  return {
    points: limiter.points,
    durationSeconds: limiter.duration,
    async consume(key: string): Promise<RateLimitState> {
      try {
        const state = await limiter.consume(key);
        return { allowed: true, remaining: Math.max(0, state.remainingPoints), msBeforeNext: state.msBeforeNext };
      } catch (error) {
        // The store refuses with a RateLimiterRes; anything else is the store failing.
        if (!(error instanceof RateLimiterRes)) throw error;
        return { allowed: false, remaining: 0, msBeforeNext: error.msBeforeNext };
      }
    },
  };
}
