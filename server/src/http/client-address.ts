import { createHmac } from 'node:crypto';
import type { AppContext } from './context.js';

/**
 * The caller's address: the socket's peer, or with `trustProxy` the X-Forwarded-For entry added
 * by the outermost trusted proxy (Koa's `proxy` + `maxIpsCount`). IPv4 clients seen through an
 * IPv6 socket (`::ffff:1.2.3.4`) are reported as plain IPv4, so one caller has one address.
 */
export function clientIp(ctx: AppContext): string {
  const ip = ctx.ip.trim();
  return ip.toLowerCase().startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}

/**
 * The `voter_key` of an anonymous caller: an HMAC of its address under the project's salt, so the
 * raw address is never stored and one caller always maps to one key. (An identified voter's key is
 * the end user's id; the `ip:` prefix keeps the two kinds apart even in principle.)
 */
export function anonymousVoterKey(ctx: AppContext): string {
  return voterKeyOf(ctx.state.caller.voterSalt, clientIp(ctx));
}

/**
 * The hash behind `anonymousVoterKey`, for a caller without a key: the board's visitor (web/) is
 * the same anonymous voter as an API call from the same address, so both hash here.
 */
export function voterKeyOf(voterSalt: string, ip: string): string {
  return `ip:${createHmac('sha256', voterSalt).update(ip).digest('base64url')}`;
}
