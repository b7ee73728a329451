import type { Grant } from './bank.js';

/** The outcome of spending one request of a key's budget. */
export interface RateLimitState {
  allowed: boolean;
  /** Requests left in the window (an estimate across workers: exact in one process). */
  remaining: number;
  /** Milliseconds until the window resets. */
  msBeforeNext: number;
}

/** Spends one request of a key's budget; rejects only when the store itself fails. */
export interface RateLimiter {
  readonly points: number;
  readonly durationSeconds: number;
  consume(key: string): Promise<RateLimitState>;
}

/** How a worker asks the bank for a lease; `reply` must be called once, with the grant or why there is none. */
export type AskBank = (key: string, want: number, reply: (grant: Grant | Error) => void) => void;

interface Lease {
  resetAt: number;
  /** Requests this process may still serve in the window without asking. */
  tokens: number;
  /** What the bank had left at the last grant (for the remaining estimate). */
  bankRemaining: number;
  /** The bank refused: nothing is left anywhere until resetAt. */
  refused: boolean;
}

/**
 * The worker's side of the bank: it serves requests from its lease and asks the bank only when
 * the lease is spent. Grants are applied the moment they arrive, before any other message, so a
 * reclaim that follows a grant always sees it.
 */
export class LeaseClient implements RateLimiter {
  private readonly leases = new Map<string, Lease>();

  constructor(
    readonly points: number,
    readonly durationSeconds: number,
    private readonly ask: AskBank,
  ) {}

  consume(key: string): Promise<RateLimitState> {
    const now = Date.now();
    const lease = this.leases.get(key);
    if (lease && lease.resetAt > now) {
      if (lease.tokens > 0) {
        lease.tokens -= 1;
        return Promise.resolve({ allowed: true, remaining: lease.bankRemaining + lease.tokens, msBeforeNext: lease.resetAt - now });
      }
      if (lease.refused) return Promise.resolve({ allowed: false, remaining: 0, msBeforeNext: lease.resetAt - now });
    }
    return new Promise((resolve, reject) => {
      this.ask(key, this.points, (grant) => (grant instanceof Error ? reject(grant) : resolve(this.apply(key, grant))));
    });
  }

  /** The bank wants back what this process has not used of `key`'s lease for the window ending `resetAt`. */
  giveBack(key: string, resetAt: number): number {
    const lease = this.leases.get(key);
    if (!lease || lease.resetAt !== resetAt) return 0;
    const unused = lease.tokens;
    lease.tokens = 0;
    return unused;
  }

  private apply(key: string, grant: Grant): RateLimitState {
    const msBeforeNext = Math.max(0, grant.resetAt - Date.now());
    let lease = this.leases.get(key);
    if (!lease || lease.resetAt !== grant.resetAt) {
      lease = { resetAt: grant.resetAt, tokens: 0, bankRemaining: grant.remaining, refused: false };
      this.leases.set(key, lease);
      this.forgetEnded();
    }
    if (grant.granted === 0) {
      lease.refused = true;
      return { allowed: false, remaining: 0, msBeforeNext };
    }
    // One of the granted requests is this one; the rest wait in the lease.
    lease.tokens += grant.granted - 1;
    lease.bankRemaining = grant.remaining;
    return { allowed: true, remaining: lease.bankRemaining + lease.tokens, msBeforeNext };
  }

  private forgetEnded(): void {
    if (this.leases.size < 1_000) return;
    const now = Date.now();
    for (const [key, lease] of this.leases) if (lease.resetAt <= now) this.leases.delete(key);
  }
}
