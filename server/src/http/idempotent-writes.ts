import type { RequestTransaction, RunTransaction } from '../db/request-transaction.js';
import { claimKey, forgetKey, readKey, requestFingerprint, storeAnswer } from '../db/idempotency-keys.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** An answer as it leaves: its status and the exact body text. */
export interface Answer {
  status: number;
  text: string;
}

export interface IdempotentWrites {
  /**
   * Checks the Idempotency-Key a write carries (mount.ts reads it, from writes only): a malformed
   * one is a 400. A write without one runs as it is.
   */
  check(key: string): void;
  /**
   * Runs `write` at most once for the caller's project and `key`: in one transaction with the
   * key's record and its answer, so both commit or neither does. A retry whose first request
   * committed (even one whose answer was lost with the connection) gets that answer, the same
   * bytes, `replayed`; one whose first request rolled back (an error, a lost connection before
   * the commit) runs anew. A retry that arrives while the first still runs waits for its end.
   */
  run(ctx: AppContext, key: string, write: (tx: RequestTransaction) => Promise<Answer>): Promise<Answer & { replayed: boolean }>;
}

/**
 * POSTs, PATCHes and DELETEs sent with an `Idempotency-Key` header take effect at most once per
 * key and project within 24 hours; the same key with another request (method, path or body) is a
 * 400. Only successful answers are stored: a failure rolls back with its change.
 */
export function idempotentWrites(transactions: RunTransaction): IdempotentWrites {
  return {
    check(key) {
      if (!VALID_KEY.test(key)) throw AppError.invalidInputMessage(`${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters`);
    },

    async run(ctx, key, write) {
      const { projectId } = ctx.state.caller;
      const fingerprint = requestFingerprint(ctx.method, ctx.path, ctx.request.body);
      return transactions(async (tx) => {
        for (;;) {
          if (await claimKey(tx.sql, projectId, key, fingerprint)) break;
          const stored = await readKey(tx.sql, projectId, key);
          // Gone between the two statements (expired and swept): claim it again.
          if (!stored) continue;
          if (stored.expired || stored.status === null || stored.body === null) {
            await forgetKey(tx.sql, projectId, key);
            continue;
          }
          if (stored.requestHash !== fingerprint) {
            throw AppError.invalidInputMessage(`${IDEMPOTENCY_HEADER} "${key}" was already used with a different request; use a new key for a new request`);
          }
          return { status: stored.status, text: stored.body, replayed: true };
        }
        const answer = await write(tx);
        await storeAnswer(tx.sql, projectId, key, answer.status, answer.text);
        return { ...answer, replayed: false };
      });
    },
  };
}
