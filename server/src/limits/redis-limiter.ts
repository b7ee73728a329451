import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { redactUrl } from '../db/database.js';
import type { Logger } from '../logger.js';
import { flexibleLimiter } from './flexible-limiter.js';
import type { RateLimiter, RateLimitState } from './lease-client.js';

/**
 * The longest a request waits on Redis for its count. Past it the request is counted by the
 * fallback instead: a slow store must not make every request slow. Not shorter: a timer can fire
 * before a reply that already arrived when the event loop was busy for that long (a burst on a
 * loaded machine), and a false outage lets a request through both counts.
 */
export const REDIS_TIMEOUT_MS = 1_000;
/** While Redis is failing, one request per this interval tries it again; the rest go to the fallback at once. */
const PROBE_EVERY_MS = 1_000;
/** Redis keys of the limiter start with this (one key per API key and window). */
const KEY_PREFIX = 'feedback:rate-limit';

export interface RedisLimiterOptions {
  url: string;
  points: number;
  durationSeconds: number;
  /**
   * Counts requests while Redis is unreachable or slow: this machine's own limiter (the bank in
   * one process, or the primary's across workers), so an outage never lifts the limit entirely.
   */
  fallback: RateLimiter;
  logger: Logger;
  timeoutMs?: number;
}

export interface RedisLimiter extends RateLimiter {
  /**
   * Resolves once Redis is connected, or after `timeoutMs` (then the outage is already logged and
   * requests are counted by the fallback). Awaited before listening, so that the first requests
   * of an instance are not counted apart from the others' for want of a connection.
   */
  connected(): Promise<void>;
  /** Closes the connection to Redis. */
  close(): Promise<void>;
}

/**
 * The rate limit kept in Redis, so it is exact across instances and their workers (one counter per
 * key and window, incremented atomically by rate-limiter-flexible's script).
 *
 * While Redis is down or slower than the timeout, requests are served under the fallback limit;
 * the outage is logged once when it starts and once when Redis answers again, never per request,
 * and only one request a second tries Redis until then.
 * Commands are never queued for a disconnected Redis (they fail at once) and ioredis reconnects
 * in the background.
 */
export function redisLimiter(options: RedisLimiterOptions): RedisLimiter {
  const timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
  const client = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: 2_000,
    // Keep trying, at most every 2 s, for as long as the server runs.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  let outage = false;
  let probeAt = 0;
  const startOutage = (reason: string) => {
    probeAt = Date.now() + PROBE_EVERY_MS;
    if (outage) return;
    outage = true;
    options.logger.warn('rate-limit store unreachable: counting requests in this machine until it is back', {
      store: redactUrl(options.url),
      error: reason,
    });
  };
  // Without a listener ioredis would report every failed reconnect as an unhandled error.
  client.on('error', (error: Error) => startOutage(error.message));

  const store = flexibleLimiter(
    new RateLimiterRedis({
      storeClient: client,
      points: options.points,
      duration: options.durationSeconds,
      keyPrefix: KEY_PREFIX,
      // Not connected: fail at once (to the fallback) instead of waiting for a reconnect.
      rejectIfRedisNotReady: true,
    }),
  );

  return {
    points: options.points,
    durationSeconds: options.durationSeconds,
    async consume(key: string): Promise<RateLimitState> {
      // A hung Redis would cost every request the whole timeout: during an outage only a probe waits.
      if (outage && Date.now() < probeAt) return options.fallback.consume(key);
      let state: RateLimitState;
      try {
        state = await store.consume(key);
      } catch (error) {
        startOutage(error instanceof Error ? error.message : String(error));
        return options.fallback.consume(key);
      }
      if (outage) {
        outage = false;
        options.logger.info('rate-limit store reachable again', { store: redactUrl(options.url) });
      }
      return state;
    },
    connected() {
      if (client.status === 'ready') return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          client.off('ready', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        client.once('ready', done);
      });
    },
    async close() {
      client.disconnect();
    },
  };
}
