import { createHmac } from 'node:crypto';

/**
 * The `voter_key` of an anonymous caller: an HMAC of the IP under the project's salt, so the raw
 * address is never stored and one caller always maps to one key. (An identified voter's key is
 * the end user's id; the `ip:` prefix keeps the two kinds apart even in principle.)
 */
export function anonymousVoterKey(voterSalt: string, ip: string): string {
  return `ip:${createHmac('sha256', voterSalt).update(ip).digest('base64url')}`;
}
