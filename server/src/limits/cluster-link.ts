import type { Worker } from 'node:cluster';
import { LimitBank, type Grant } from './bank.js';
import { LeaseClient, type RateLimiter } from './lease-client.js';

/** The IPC messages between a worker's LeaseClient and the primary's LimitBank. */
type LimitMessage =
  | { rateLimit: 'take'; id: number; key: string; want: number }
  | { rateLimit: 'grant'; id: number; grant: Grant }
  | { rateLimit: 'reclaim'; key: string; resetAt: number }
  | { rateLimit: 'return'; key: string; resetAt: number; count: number };

function isLimitMessage(message: unknown): message is LimitMessage {
  return typeof message === 'object' && message !== null && typeof (message as { rateLimit?: unknown }).rateLimit === 'string';
}

/** How long a worker waits for the primary before serving the request without a limit (and saying so). */
const BANK_TIMEOUT_MS = 2_000;

/**
 * The primary's side: one bank for every worker, so the limit is per machine, not per worker.
 * Call `attach` for each forked worker.
 */
export class PrimaryLimits {
  private readonly workers = new Map<number, Worker>();
  readonly bank: LimitBank;

  constructor(points: number, durationSeconds: number) {
    this.bank = new LimitBank(points, durationSeconds * 1000, {
      count: () => this.workers.size,
      reclaim: (holder, key, resetAt) => this.send(holder, { rateLimit: 'reclaim', key, resetAt }),
    });
  }

  attach(worker: Worker): void {
    this.workers.set(worker.id, worker);
    worker.on('message', (message: unknown) => {
      if (!isLimitMessage(message)) return;
      if (message.rateLimit === 'take') {
        this.bank.take(worker.id, message.key, message.want, (grant) => this.send(worker.id, { rateLimit: 'grant', id: message.id, grant }));
      } else if (message.rateLimit === 'return') {
        this.bank.returned(worker.id, message.key, message.resetAt, message.count);
      }
    });
    worker.once('exit', () => {
      this.workers.delete(worker.id);
      this.bank.forget(worker.id);
    });
  }

  private send(holder: number, message: LimitMessage): void {
    const worker = this.workers.get(holder);
    if (worker?.isConnected()) worker.send(message);
  }
}

/** A worker's limiter: leases from the primary's bank over the cluster IPC channel. */
export function workerLimiter(points: number, durationSeconds: number): RateLimiter {
  const pending = new Map<number, (grant: Grant | Error) => void>();
  let nextId = 0;
  const client = new LeaseClient(points, durationSeconds, (key, want, reply) => {
    const id = ++nextId;
    const timer = setTimeout(() => {
      pending.delete(id);
      reply(new Error(`the primary process did not answer the rate limiter within ${BANK_TIMEOUT_MS} ms`));
    }, BANK_TIMEOUT_MS);
    pending.set(id, (grant) => {
      clearTimeout(timer);
      reply(grant);
    });
    process.send!({ rateLimit: 'take', id, key, want } satisfies LimitMessage);
  });
  process.on('message', (message: unknown) => {
    if (!isLimitMessage(message)) return;
    if (message.rateLimit === 'grant') {
      const reply = pending.get(message.id);
      pending.delete(message.id);
      reply?.(message.grant);
    } else if (message.rateLimit === 'reclaim') {
      const count = client.giveBack(message.key, message.resetAt);
      process.send!({ rateLimit: 'return', key: message.key, resetAt: message.resetAt, count } satisfies LimitMessage);
    }
  });
  return client;
}
