/**
 * A look-up remembered for a short while in this process: the API's keys (KeyCache in access.ts)
 * and the board's projects (web/board/projects.ts), read on every request, cost no round trip while
 * cached. The time to live is the bound on how long a change made elsewhere (a revoked key, a
 * board turned off) goes unseen. Concurrent misses of one key share one load; a load that fails
 * (the database is down) is not remembered; past `maxEntries`, the oldest entry goes first, so
 * asking for made-up keys cannot grow it without bound.
 */
export class ShortCache<V> {
  private readonly entries = new Map<string, { expires: number; value: Promise<V> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expires > now) return cached.value;
    const value = load();
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { expires: now + this.ttlMs, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}
