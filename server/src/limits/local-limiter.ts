import { LimitBank } from './bank.js';
import { LeaseClient, type RateLimiter } from './lease-client.js';

/** One process's limiter: the bank and its only holder in the same process. */
export function localLimiter(points: number, durationSeconds: number): RateLimiter {
  const holder = 1;
  const bank: LimitBank = new LimitBank(points, durationSeconds * 1000, {
    count: () => 1,
    // Answered on a later tick: the bank is in the middle of settling when it asks.
    reclaim: (_holder, key, resetAt) => queueMicrotask(() => bank.returned(holder, key, resetAt, client.giveBack(key, resetAt))),
  });
  const client = new LeaseClient(points, durationSeconds, (key, want, reply) => bank.take(holder, key, want, reply));
  return client;
}
