import { Counter } from 'prom-client';
import { recording, registry } from './registry.js';

/**
 * Which limit refused a request: the per-key budget (`--rate-limit`), the failed-key lock-out
 * (`--failed-auth-limit`), or an address's budget of posts to the board, of comments on the board, or of
 * sign-ins to the team's pages (web/kit/guards.ts).
 */
export type Refusal = 'key' | 'failed_auth' | 'board' | 'comment' | 'team';

const refusals = new Counter({
  name: 'feedback_rate_limit_refusals_total',
  help: 'Requests refused with 429 by a limit: key (the per-key rate limit), failed_auth (an address locked out after unknown or revoked keys), board (an address past its budget of board posts), comment (of board comments) or team (of sign-ins to the team pages)',
  labelNames: ['limit'],
  registers: [registry],
});

const children = { key: refusals.labels('key'), failed_auth: refusals.labels('failed_auth'), board: refusals.labels('board'), comment: refusals.labels('comment'), team: refusals.labels('team') };
// Every series exists from the start, at 0: a rate() over a series that appears only at the first refusal misses it.
for (const child of Object.values(children)) child.inc(0);

export function countRefusal(limit: Refusal): void {
  if (recording) children[limit].inc();
}
