import type { Middleware } from 'koa';
import type { SqlPool } from '../../db/pool.js';
import type { Logger } from '../../logger.js';
import {
  deleteExpiredKeys,
  releaseKey,
  requestFingerprint,
  reserveKey,
  storeResponse,
  type Reservation,
} from '../../modules/idempotency/idempotency.service.js';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

const HEADER = 'Idempotency-Key';
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;
/** How long a retry waits for the first request with its key to finish before answering 409. */
const WAIT_FOR_FIRST_MS = 5_000;
const POLL_MS = 50;
const CLEANUP_EVERY_MS = 10 * 60_000;

/** The methods that change something: a retry of one must not change it twice. */
const UNSAFE_METHODS = new Set(['POST', 'PATCH', 'DELETE']);

/**
 * POSTs, PATCHes and DELETEs sent with an `Idempotency-Key` header run at most once per key and
 * project within 24 hours (a DELETE retried after a lost response gets its 200 again, not a 404):
 * a repeat gets the stored response (marked `Idempotent-Replayed: true`) and the operation is not
 * carried out again, so a toggle retried after a lost response does not toggle twice. The same key
 * with another request (method, path or body) is a 400. Only successful (2xx) responses are stored;
 * after a failure the key is free again, so a retry runs the request anew.
 */
export function idempotency(sql: SqlPool, logger: Logger): Middleware<AppState> {
  let lastCleanup = 0;
  return async (ctx, next) => {
    const key = ctx.get(HEADER);
    if (key === '' || !UNSAFE_METHODS.has(ctx.method)) return next();
    if (!VALID_KEY.test(key)) throw AppError.invalidInputMessage(`${HEADER} must be 1 to 255 visible ASCII characters`);
    const { projectId } = ctx.state.caller;

    if (Date.now() - lastCleanup > CLEANUP_EVERY_MS) {
      lastCleanup = Date.now();
      await deleteExpiredKeys(sql).catch((error: unknown) => logger.warn('could not delete expired idempotency keys', { error: String(error) }));
    }

    const fingerprint = requestFingerprint(ctx.method, ctx.path, ctx.request.body);
    const reservation = await reserveWaiting(() => reserveKey(sql, projectId, key, fingerprint));
    switch (reservation.kind) {
      case 'mismatch':
        throw AppError.invalidInputMessage(`${HEADER} "${key}" was already used with a different request; use a new key for a new request`);
      case 'in-progress':
        throw new AppError(409, `A request with ${HEADER} "${key}" is still being processed; retry it later`, undefined, { 'Retry-After': '1' });
      case 'replay':
        ctx.status = reservation.status;
        ctx.body = reservation.body;
        ctx.type = 'application/json';
        ctx.set('Idempotent-Replayed', 'true');
        return;
      case 'reserved':
        break;
    }

    let stored = false;
    try {
      await next();
      if (ctx.status >= 200 && ctx.status < 300) {
        await storeResponse(sql, projectId, key, ctx.status, ctx.body);
        stored = true;
      }
    } finally {
      if (!stored) {
        await releaseKey(sql, projectId, key).catch((error: unknown) =>
          logger.warn('could not release an idempotency key', { id: ctx.state.requestId, error: String(error) }),
        );
      }
    }
  };
}

/** A retry that arrives while the first request still runs waits for its response, up to a limit. */
async function reserveWaiting(reserve: () => Promise<Reservation>): Promise<Reservation> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const reservation = await reserve();
    if (reservation.kind !== 'in-progress' || Date.now() >= deadline) return reservation;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
