import type { Middleware } from 'koa';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { ERROR_MESSAGES, type ModerationMode } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../db/pool.js';
import type { FailedAuthLimit } from '../limits/failed-auth.js';
import { flexibleLimiter } from '../limits/flexible-limiter.js';
import type { RateLimiter, RateLimitState } from '../limits/lease-client.js';
import { localLimiter } from '../limits/local-limiter.js';
import type { Logger } from '../logger.js';
import { countRefusal } from '../metrics/limit-metrics.js';
import { hashApiKey, looksLikeApiKey, type KeyKind } from '../domain/projects/api-key-format.js';
import { RATE_LIMIT_WINDOW_SECONDS } from '../serve-defaults.js';
import type { AppContext, AppState, Caller } from './context.js';
import { clientIp } from './edge.js';
import { AppError } from './errors.js';
import { moderationPolicy } from '../domain/moderation/policy.js';
import { ShortCache } from './short-cache.js';

/**
 * How long a looked-up key is trusted without asking the database again. This is the bound on how
 * long a revoked key can still work (in every process, on every instance): at most 1 second.
 */
export const KEY_CACHE_TTL_MS = 1_000;
/** Entries kept at most; past it the oldest go first (unknown keys are cached too, so guessing cannot grow it). */
const KEY_CACHE_MAX_ENTRIES = 10_000;

export interface RateLimitOptions {
  /** Requests allowed per key in each window. */
  points: number;
  /**
   * Where the counts live. By default in this process (one bank, see limits/bank.ts); a cluster
   * worker passes its lease client; a rate-limiter-flexible store (Redis, ...) plugs in as it is.
   */
  limiter?: RateLimiter | RateLimiterAbstract;
}

export interface AccessOptions {
  sql: SqlPool;
  logger: Logger;
  /** The server's voter secret, handed to every caller for its anonymous voter key (domain/votes/votes.ts). */
  voterSecret: Buffer;
  /** The per-key rate limit (spec part 8), or undefined when it is off. */
  rateLimit: RateLimitOptions | undefined;
  /** Unknown or revoked keys counted per address (limits/failed-auth.ts), or undefined when that limit is off. */
  failures: FailedAuthLimit | undefined;
  /** How long a looked-up key is trusted, in ms; KEY_CACHE_TTL_MS unless set (tests that revoke keys set less). */
  keyCacheTtlMs?: number | undefined;
}

/**
 * Who may call, in one middleware, in this order:
 * 1. an address locked out by the failed-key limit is refused (429 with its own text and only
 *    `Retry-After`: the refusal is about the address, not a key's budget);
 * 2. the rate limit's policy headers, on every API response (a 401 included);
 * 3. spec part 5: a missing, unknown or revoked `x-api-key` is a 401; unknown and revoked keys
 *    count against the address, and the failure that locks it out is logged once (the address and
 *    why, never the key);
 * 4. one request of the key's budget is spent (429 when none is left), so a request without a
 *    valid key never spends a key's budget.
 * Whether the key may call the route (a secret-only route with a public key: 403) is the route's
 * to say (mount.ts). The keyless paths are answered before this (keyless-routes.ts).
 */
export function access(options: AccessOptions): Middleware<AppState> {
  const { failures, logger } = options;
  const keys = new KeyCache(options.sql, options.voterSecret, options.keyCacheTtlMs);
  const limiter = options.rateLimit && toRateLimiter(options.rateLimit);
  // The IETF draft's policy header, and the widely used X- header that says the same.
  const policyHeader = limiter && `"default";q=${limiter.points};w=${limiter.durationSeconds}`;
  const limitHeader = limiter && String(limiter.points);

  return async (ctx, next) => {
    // Only while some address has failed is the caller's address looked at (a field, no call: the
    // usual request pays nothing for this limit).
    if (failures && failures.trackedUntil > Date.now()) {
      const waitMs = failures.blockedFor(clientIp(ctx));
      if (waitMs > 0) {
        countRefusal('failed_auth');
        throw new AppError(429, ERROR_MESSAGES.failedAuthLimited, undefined, { 'Retry-After': String(Math.ceil(waitMs / 1000)) });
      }
    }
    if (limiter) {
      ctx.set('RateLimit-Policy', policyHeader!);
      ctx.set('X-RateLimit-Limit', limitHeader!);
    }
    const key = ctx.get('x-api-key').trim();
    if (key === '') throw new AppError(401, ERROR_MESSAGES.missingApiKey);
    const caller = await keys.lookup(key);
    if (!caller) {
      if (failures) countFailure(failures, clientIp(ctx), ctx.state.requestId, logger);
      throw new AppError(401, ERROR_MESSAGES.invalidApiKey);
    }
    ctx.state.caller = caller;
    if (limiter) await spend(ctx, limiter, logger);
    await next();
  };
}

/** Spends one request of the caller's key and says what is left; a 429 when nothing is. */
async function spend(ctx: AppContext, limiter: RateLimiter, logger: Logger): Promise<void> {
  let state: RateLimitState;
  try {
    state = await limiter.consume(ctx.state.caller.keyId);
  } catch (error) {
    // The store failed, not the caller: serve the request rather than fail it, and say so.
    logger.warn('rate limiter store failed; request served without a limit', { id: ctx.state.requestId, error: error instanceof Error ? error.message : String(error) });
    return;
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
}

/** The limiter of the options: this process's bank, or the one given (a lease client, a rate-limiter-flexible store). */
export function toRateLimiter(options: RateLimitOptions): RateLimiter {
  const given = options.limiter;
  if (!given) return localLimiter(options.points, RATE_LIMIT_WINDOW_SECONDS);
  return 'durationSeconds' in given ? given : flexibleLimiter(given);
}

function countFailure(failures: FailedAuthLimit, ip: string, requestId: string, logger: Logger): void {
  if (!failures.record(ip)) return;
  // The address is needed to tell a guesser from a NAT or a proxy that was not trusted
  // (--trust-proxy); the request id ties the line to the request that tipped it over.
  logger.warn('failed-auth limit reached: refusing every request from this address until its window ends', {
    id: requestId,
    ip,
    reason: `${failures.maxFailures} unknown or revoked API keys within ${Math.ceil(failures.windowMs / 1000)} s`,
    retryAfter: Math.ceil(failures.blockedFor(ip) / 1000),
  });
}

const FIND_KEY = {
  name: 'auth_find_key',
  text: `select k.id as key_id, k.kind, k.project_id, p.voter_salt, p.moderation, p.moderation_hold_links
    from api_keys k join projects p on p.id = k.project_id
    where k.key_hash = $1 and k.revoked_at is null`,
};

/**
 * Resolves API keys to callers through a short-lived in-process cache (short-cache.ts), so a
 * request costs no database round trip for its key. The cache is keyed by the key as sent (it
 * lives only in this process's memory, like the request that carried it), so a hit costs no
 * SHA-256 either; the hash is taken on a miss, to look the key up.
 */
export class KeyCache {
  private readonly cache: ShortCache<Caller | undefined>;

  constructor(
    private readonly sql: SqlPool,
    private readonly voterSecret: Buffer,
    ttlMs: number = KEY_CACHE_TTL_MS,
  ) {
    this.cache = new ShortCache(ttlMs, KEY_CACHE_MAX_ENTRIES);
  }

  lookup(key: string): Promise<Caller | undefined> {
    // The key's shape is checked on a miss only, so a cached key costs no check: text that cannot
    // be a key is remembered as unknown without a look-up, as an unknown key is after one, and it
    // takes the same bounded room.
    return this.cache.get(key, () => (looksLikeApiKey(key) ? this.find(hashApiKey(key)) : Promise.resolve(undefined)));
  }

  private async find(hash: string): Promise<Caller | undefined> {
    const rows = await this.sql.query<{ key_id: string; kind: KeyKind; project_id: string; voter_salt: string; moderation: ModerationMode; moderation_hold_links: boolean }>(
      FIND_KEY.name,
      FIND_KEY.text,
      [hash],
    );
    const row = rows[0];
    if (!row) return undefined;
    const moderation = moderationPolicy(row.moderation, row.moderation_hold_links);
    return { keyId: row.key_id, kind: row.kind, projectId: row.project_id, voterSalt: row.voter_salt, voterSecret: this.voterSecret, moderation };
  }
}
