import type { ParameterizedContext } from 'koa';
import type { ModerationPolicy } from '../domain/moderation/policy.js';
import type { RequestTransaction } from '../db/request-transaction.js';
import type { KeyKind } from '../domain/projects/api-key-format.js';

/**
 * Who a valid key belongs to: its id (the rate limit's budget), its kind (what it may call: see
 * mount.ts), its project, and the project's voter salt.
 */
export interface Caller {
  keyId: string;
  kind: KeyKind;
  projectId: string;
  voterSalt: string;
  /** The server's voter secret (db/voter-secret.ts), the same for every caller: with the salt, the key of an anonymous voter. */
  voterSecret: Buffer;
  /**
   * The project's moderation policy (moderation-policy.ts), as cached with the key: about a second
   * old at most; null where the project holds nothing.
   */
  moderation: ModerationPolicy | null;
}

/** What the middleware chain puts on `ctx.state` for the handlers after it. */
export interface AppState {
  requestId: string;
  /** The caller's key and project; set by the access middleware (access.ts). */
  caller: Caller;
  /**
   * The transaction a write sent with an Idempotency-Key runs in (http/idempotent-writes.ts):
   * handlers run their statements and services on it instead of the pool while it is set.
   */
  tx?: RequestTransaction | undefined;
  /** The board whose page this is (web/board/board.ts), once its project is known: its refusals link back to it. */
  boardSlug?: string | undefined;
  /** That board's default language (`feedback board brand --locale`): its refusals' language when the reader has none of ours. */
  boardLocale?: string | undefined;
  /**
   * Set by a request that may write but changes nothing a waiting webhook pull looks for (a pull
   * itself): its end wakes no pull (delivery/webhooks/wake-ups.ts).
   */
  wakesNoPull?: boolean | undefined;
}

export type AppContext = ParameterizedContext<AppState>;
