import { Counter } from 'prom-client';
import { recording, registry } from './registry.js';

/** Which limit refused a request: the per-key budget (`--rate-limit`) or the failed-key lock-out (`--failed-auth-limit`). */
export type Refusal = 'key' | 'failed_auth';

const refusals = new Counter({
  name: 'feedback_rate_limit_refusals_total',
  help: 'Requests refused with 429 by a limit: key (the per-key rate limit) or failed_auth (an address locked out after unknown or revoked keys)',
  labelNames: ['limit'],
  registers: [registry],
});

const children = { key: refusals.labels('key'), failed_auth: refusals.labels('failed_auth') };
// Both series exist from the start, at 0: a rate() over a series that appears only at the first refusal misses it.
children.key.inc(0);
children.failed_auth.inc(0);

export function countRefusal(limit: Refusal): void {
  if (recording) children[limit].inc();
}
