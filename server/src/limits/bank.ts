/**
 * The authority on rate-limit budgets for every process of one machine: a fixed window per key
 * (`points` requests per `durationMs`, starting with the key's first request), handed out to the
 * processes that serve requests as leases of several requests at a time.
 *
 * Exactness: the bank never grants more than `points` in a window, and it refuses a request only
 * when none are left to grant and every lease it handed out has been reclaimed (the holders give
 * back what they have not used). So across all workers exactly `points` requests are served per
 * window, while a worker far from the limit asks the bank once per lease, not once per request.
 */

/** What a worker is given: how many requests it may serve now (0: refused until `resetAt`). */
export interface Grant {
  granted: number;
  /** Requests the bank still has to grant in this window, after this grant. */
  remaining: number;
  /** When the window ends (epoch ms). */
  resetAt: number;
}

/** The bank's link to the processes holding leases. */
export interface LeaseHolders {
  /** How many processes share the budget (leases are sized so that each gets a fair part). */
  count(): number;
  /** Asks `holder` to give back its unused lease of `key` for the window ending `resetAt` (see LimitBank.returned). */
  reclaim(holder: number, key: string, resetAt: number): void;
}

interface Waiting {
  holder: number;
  want: number;
  reply: (grant: Grant) => void;
}

interface Window {
  key: string;
  resetAt: number;
  /** Granted in this window, used or still held. */
  granted: number;
  /** Granted to each holder since its last reclaim. */
  held: Map<number, number>;
  /** Holders asked to give back and not answered yet; they get nothing new until they answer. */
  reclaiming: Set<number>;
  waiting: Waiting[];
}

/** The largest lease: far from the limit, one bank round trip per this many requests. */
const MAX_LEASE = 1_000;

export class LimitBank {
  private readonly windows = new Map<string, Window>();
  private sweptAt = 0;

  constructor(
    readonly points: number,
    readonly durationMs: number,
    private readonly holders: LeaseHolders,
  ) {}

  /** Asks for up to `want` requests of `key`'s budget; `reply` is called once, maybe later. */
  take(holder: number, key: string, want: number, reply: (grant: Grant) => void): void {
    const window = this.current(key);
    window.waiting.push({ holder, want: Math.max(1, want), reply });
    this.settle(window);
  }

  /** `holder` gives back `count` unused requests of its lease (0 when it had none left). */
  returned(holder: number, key: string, resetAt: number, count: number): void {
    const window = this.current(key);
    // An answer about a window that has ended since changes nothing: the new window started with
    // no leases and no reclaims of its own, and the holder's old lease expired with the old window.
    if (window.resetAt === resetAt) {
      window.granted -= count;
      window.held.set(holder, 0);
      window.reclaiming.delete(holder);
    }
    this.settle(window);
  }

  /** A holder is gone: what it held stays spent, and nothing waits on it any more. */
  forget(holder: number): void {
    for (const window of this.windows.values()) {
      window.held.delete(holder);
      window.reclaiming.delete(holder);
      window.waiting = window.waiting.filter((waiting) => waiting.holder !== holder);
      this.settle(window);
    }
  }

  private current(key: string): Window {
    const now = Date.now();
    this.sweep(now);
    const existing = this.windows.get(key);
    if (existing && existing.resetAt > now) return existing;
    const window: Window = { key, resetAt: now + this.durationMs, granted: 0, held: new Map(), reclaiming: new Set(), waiting: existing?.waiting ?? [] };
    this.windows.set(key, window);
    return window;
  }

  /** Serves the waiting requests in order, as far as the budget and the pending reclaims allow. */
  private settle(window: Window): void {
    while (window.waiting.length > 0) {
      const next = window.waiting[0]!;
      if (window.reclaiming.has(next.holder)) return;
      const available = this.points - window.granted;
      if (available > 0) {
        const granted = Math.min(next.want, this.leaseSize(available));
        window.granted += granted;
        window.held.set(next.holder, (window.held.get(next.holder) ?? 0) + granted);
        window.waiting.shift();
        next.reply({ granted, remaining: this.points - window.granted, resetAt: window.resetAt });
        continue;
      }
      for (const [holder, held] of window.held) {
        if (held > 0 && !window.reclaiming.has(holder)) {
          window.reclaiming.add(holder);
          this.holders.reclaim(holder, window.key, window.resetAt);
        }
      }
      if (window.reclaiming.size > 0) return;
      for (const waiting of window.waiting.splice(0)) waiting.reply({ granted: 0, remaining: 0, resetAt: window.resetAt });
    }
  }

  /** A fair part of what is left: small near the limit (exactness), large far from it (speed). */
  private leaseSize(available: number): number {
    return Math.max(1, Math.min(MAX_LEASE, Math.floor(available / (4 * Math.max(1, this.holders.count())))));
  }

  /** Drops ended windows now and then, so keys seen once do not stay in memory. */
  private sweep(now: number): void {
    if (now - this.sweptAt < this.durationMs) return;
    this.sweptAt = now;
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now && window.waiting.length === 0 && window.reclaiming.size === 0) this.windows.delete(key);
    }
  }
}
