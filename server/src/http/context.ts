import type { ParameterizedContext } from 'koa';
import type { RequestTransaction } from '../db/request-transaction.js';
import type { KeyKind } from '../admin/api-key-format.js';

/**
 * Who a valid key belongs to: its id (the rate limit's budget), its kind (what it may call: see
 * `mount`), its project, and the project's voter salt.
 */
export interface Caller {
  keyId: string;
  kind: KeyKind;
  projectId: string;
  voterSalt: string;
}

/** What the middleware chain puts on `ctx.state` for the handlers after it. */
export interface AppState {
  requestId: string;
  /** The caller's key and project; set by the auth middleware. */
  caller: Caller;
  /**
   * The transaction a write sent with an Idempotency-Key runs in (http/idempotent-writes.ts):
   * handlers run their statements and services on it instead of the pool while it is set.
   */
  tx?: RequestTransaction | undefined;
}

export type AppContext = ParameterizedContext<AppState>;

/**
 * The caller's address: the socket's peer, or with `trustProxy` the X-Forwarded-For entry added
 * by the outermost trusted proxy (Koa's `proxy` + `maxIpsCount`). IPv4 clients seen through an
 * IPv6 socket (`::ffff:1.2.3.4`) are reported as plain IPv4, so one caller has one address.
 */
export function clientIp(ctx: AppContext): string {
  const ip = ctx.ip.trim();
  return ip.toLowerCase().startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}
