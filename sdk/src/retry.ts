/** The first backoff step, in milliseconds; each further retry doubles it (before jitter and the cap). */
export const RETRY_BASE_DELAY_MS = 300;

/**
 * How long to wait before retry number `retry` (0 for the first retry) when the server gave no
 * `Retry-After`: exponential backoff with "equal jitter" (a random wait between half and all of
 * `min(maxDelayMs, 300 ms * 2^retry)`), so clients that failed together do not retry together,
 * yet every client still backs off.
 */
export function backoffDelay(retry: number, maxDelayMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxDelayMs, RETRY_BASE_DELAY_MS * 2 ** retry);
  return ceiling / 2 + (random() * ceiling) / 2;
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds: either delay-seconds ("120") or an
 * HTTP date ("Wed, 21 Oct 2026 07:28:00 GMT"; a date in the past means 0). `undefined` when the
 * header is absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // A bare number that failed the test above (negative, "1e3") is not a date either.
  if (/^[-+.\d]/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `retry`, or `undefined` when the call must not be retried: the
 * server's `Retry-After` when it sent one, else {@link backoffDelay}. A `Retry-After` longer than
 * `maxDelayMs` means "give up now": retrying sooner than the server allows would only fail again.
 */
export function retryDelay(retry: number, retryAfterMs: number | undefined, maxDelayMs: number): number | undefined {
  if (retryAfterMs === undefined) return backoffDelay(retry, maxDelayMs);
  return retryAfterMs <= maxDelayMs ? retryAfterMs : undefined;
}

/** Waits `ms`; rejects with the reason of the first of `signals` that aborts (at once if one already has). */
export function sleep(ms: number, signals: readonly AbortSignal[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const abortReason = () => signals.find((signal) => signal.aborted)?.reason;
    if (signals.some((signal) => signal.aborted)) {
      reject(abortReason());
      return;
    }
    const cleanup = () => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      cleanup();
      reject(abortReason());
    };
    const timer = setTimeout(() => {
      cleanup();
      resolve();
    }, ms);
    for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
  });
}
