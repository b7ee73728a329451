import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';

/** What the middleware chain puts on `ctx.state` for the handlers after it. */
export interface AppState {
  requestId: string;
  /** A fork of the ORM's EntityManager made for this request alone. */
  em: EntityManager;
  /** The id of the caller's API key (the rate limit's budget); set by the auth middleware. */
  apiKeyId: string;
  /** The project of the caller's API key; set by the auth middleware. */
  projectId: string;
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
