import type { Middleware } from 'koa';
import { ERROR_MESSAGES } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import type { FailedAuthLimit } from '../../limits/failed-auth.js';
import type { Logger } from '../../logger.js';
import { countRefusal } from '../../metrics/limit-metrics.js';
import { hashApiKey, looksLikeApiKey, type KeyKind } from '../../admin/api-key-format.js';
import { clientIp, type AppState, type Caller } from '../context.js';
import { AppError } from '../errors.js';

/**
 * How long a looked-up key is trusted without asking the database again. This is the bound on how
 * long a revoked key can still work (in every process, on every instance): at most 1 second.
 */
export const KEY_CACHE_TTL_MS = 1_000;
/** Entries kept at most; past it the oldest go first (unknown keys are cached too, so guessing cannot grow it). */
const KEY_CACHE_MAX_ENTRIES = 10_000;

const FIND_KEY = {
  name: 'auth_find_key',
  text: `select k.id as key_id, k.kind, k.project_id, p.voter_salt
    from api_keys k join projects p on p.id = k.project_id
    where k.key_hash = $1 and k.revoked_at is null`,
};

/**
 * Resolves API keys to callers with a short-lived in-process cache, so a request costs no database
 * round trip for its key. The cache is keyed by the key as sent (it lives only in this process's
 * memory, like the request that carried it), so a hit costs no SHA-256 either; the hash is taken
 * on a miss, to look the key up. Concurrent misses of one key share one query.
 */
export class KeyCache {
  private readonly entries = new Map<string, { expires: number; caller: Promise<Caller | undefined> }>();

  constructor(
    private readonly sql: SqlPool,
    private readonly ttlMs: number = KEY_CACHE_TTL_MS,
  ) {}

  lookup(key: string): Promise<Caller | undefined> {
    if (!looksLikeApiKey(key)) return Promise.resolve(undefined);
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expires > now) return cached.caller;
    const caller = this.find(hashApiKey(key));
    this.entries.delete(key);
    if (this.entries.size >= KEY_CACHE_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { expires: now + this.ttlMs, caller });
    // A failed look-up (database down) is not remembered: the next request asks again.
    caller.catch(() => this.entries.delete(key));
    return caller;
  }

  private async find(hash: string): Promise<Caller | undefined> {
    const rows = await this.sql.query<{ key_id: string; kind: KeyKind; project_id: string; voter_salt: string }>(FIND_KEY.name, FIND_KEY.text, [hash]);
    const row = rows[0];
    return row ? { keyId: row.key_id, kind: row.kind, projectId: row.project_id, voterSalt: row.voter_salt } : undefined;
  }
}

/**
 * The failed-key limit's refusal (limits/failed-auth.ts). It runs before the rate limit announces
 * its policy: the refusal is about the address, not about a key's budget, so it carries its own
 * text and only `Retry-After`, never the per-key `X-RateLimit-*` headers that would send the reader
 * to `--rate-limit`. Keyless paths (`/healthz`) come earlier still and are never refused.
 */
export function refuseLockedOutAddresses(failures: FailedAuthLimit): Middleware<AppState> {
  return async (ctx, next) => {
    // Only an address with failures is looked at: the usual request does not compute its IP.
    if (failures.tracking) {
      const waitMs = failures.blockedFor(clientIp(ctx));
      if (waitMs > 0) {
        countRefusal('failed_auth');
        throw new AppError(429, ERROR_MESSAGES.failedAuthLimited, undefined, { 'Retry-After': String(Math.ceil(waitMs / 1000)) });
      }
    }
    await next();
  };
}

/**
 * Spec part 5: every request carries `x-api-key`; a missing, unknown or revoked key is a 401.
 * Unknown and revoked keys are counted per address (`failures`, absent when the limit is off);
 * the failure that locks an address out is logged once, with the address and why, never the key.
 */
export function auth(keys: KeyCache, failures: FailedAuthLimit | undefined, logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const key = ctx.get('x-api-key').trim();
    if (key === '') throw new AppError(401, ERROR_MESSAGES.missingApiKey);
    const caller = await keys.lookup(key);
    if (!caller) {
      if (failures) countFailure(failures, clientIp(ctx), ctx.state.requestId, logger);
      throw new AppError(401, ERROR_MESSAGES.invalidApiKey);
    }
    ctx.state.caller = caller;
    await next();
  };
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
