/**
 * A token bucket: `perSecond` tokens a second, at most a second's worth saved up. The webhook
 * sender takes one per attempt, so a burst of events leaves as a steady stream
 * (docs/webhooks.md, "Pace").
 */
export interface Pace {
  /** Whole tokens there are now. */
  available(): number;
  /** Spends `count` tokens (what was just claimed). */
  take(count: number): void;
  /** How long until `count` tokens are there, in ms (0: now). */
  msUntil(count: number): number;
}

export function pace(perSecond: number, now: () => number = () => performance.now()): Pace {
  const capacity = Math.max(1, perSecond);
  let tokens = capacity;
  let at = now();
  const refill = () => {
    const t = now();
    tokens = Math.min(capacity, tokens + ((t - at) * perSecond) / 1000);
    at = t;
  };
  return {
    available() {
      refill();
      return Math.floor(tokens);
    },
    take(count) {
      tokens -= count;
    },
    msUntil(count) {
      refill();
      return tokens >= count ? 0 : Math.ceil(((count - tokens) * 1000) / perSecond);
    },
  };
}
