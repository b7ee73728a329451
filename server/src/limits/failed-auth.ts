import { FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_MS } from '../serve-defaults.js';
/**
 * Failed authentication, limited per client IP: a caller that sends `maxFailures` unknown or
 * revoked keys in a window is refused (429) for the rest of that window,
 * whatever key it sends, so keys cannot be guessed at the speed of the API (nor the key cache and
 * the database be flooded with look-ups of made-up keys).
 *
 * Counted in each serving process: with N workers a caller gets at most N × `maxFailures` tries
 * per window on a machine. That bound is what matters against guessing a 40-character random key.
 *
 * The limit is `feedback serve --failed-auth-limit` (or `off`): many callers behind one NAT or
 * proxy address share one count, and one of them sending a stale key can lock out the others.
 */
export { FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_MS };
/** Addresses tracked at most; past it the oldest window goes first. */
const MAX_TRACKED = 10_000;

interface FailureWindow {
  failures: number;
  resetAt: number;
}

export class FailedAuthLimit {
  private readonly windows = new Map<string, FailureWindow>();
  /**
   * When the newest window ends (epoch ms; 0 when none was opened): before it some address may be
   * locked out, after it none is. A field, so the usual request can ask without a call.
   */
  trackedUntil = 0;

  constructor(
    readonly maxFailures: number = FAILED_AUTH_LIMIT,
    readonly windowMs: number = FAILED_AUTH_WINDOW_MS,
  ) {}

  /** Whether any address has failed within its window (when none has, nothing needs checking). */
  get tracking(): boolean {
    if (this.windows.size === 0) return false;
    if (Date.now() < this.trackedUntil) return true;
    this.windows.clear();
    return false;
  }

  /** Milliseconds until `ip` may try again, or 0 when it may try now. */
  blockedFor(ip: string, now: number = Date.now()): number {
    const window = this.windows.get(ip);
    if (!window) return 0;
    if (window.resetAt <= now) {
      this.windows.delete(ip);
      return 0;
    }
    if (window.failures < this.maxFailures) return 0;
    return window.resetAt - now;
  }

  /**
   * Counts one failed authentication of `ip`. Returns true when this failure is the one that
   * blocks the address, so that the lock-out is reported once per window, not once per request.
   */
  record(ip: string, now: number = Date.now()): boolean {
    // Every window has ended: forget them all at once.
    if (now >= this.trackedUntil) this.windows.clear();
    let window = this.windows.get(ip);
    if (!window || window.resetAt <= now) {
      this.windows.delete(ip);
      if (this.windows.size >= MAX_TRACKED) this.windows.delete(this.windows.keys().next().value!);
      window = { failures: 0, resetAt: now + this.windowMs };
      this.windows.set(ip, window);
      this.trackedUntil = Math.max(this.trackedUntil, window.resetAt);
    }
    window.failures += 1;
    return window.failures === this.maxFailures;
  }
}
