import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until `check` holds, polling every 50 ms, for at most `ms`; the error says what did not
 * happen (`what` may be a function, to describe the state at the deadline). Tests wait for
 * conditions, never for fixed times, so they pass on a busy machine too.
 */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what: string | (() => string) = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${typeof what === 'function' ? what() : what}`);
    await sleep(50);
  }
}

/**
 * Resolves once the clock has moved on by a millisecond: for rows whose order rests on distinct
 * creation times (a uuidv7, a created_at), without a fixed pause.
 */
export async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Whether `work` settles before a timer of `ms`, started now, fires: for "at once, not after the
 * long wait" and "within the bound", said as the order of two events of this process rather than
 * as a measured time. Pick `ms` well short of the wait that would show the fault.
 */
export async function settlesBefore(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
