/*
 * What wakes the waiting pulls of a process (pull-waiters.ts) instead of a look at the database
 * every 250 ms: a change that may have made a delivery of a pull endpoint due, told as it happens.
 * Waiting pulls then cost no statement while nothing happens (issue 49: 60 of them, looking
 * together four times a second, still cut the embedded database's API rate to about half).
 *
 * Where a change is told:
 * - in this process: every request that may write (any method but GET, HEAD and OPTIONS) when it
 *   ends (app.ts), bar the pulls themselves;
 * - from the machine's jobs' thread (the sender's fan-out, the changelog's announcements):
 *   jobs/machine-jobs.ts tells the process that runs it;
 * - from the other processes of a machine (`serve --workers N`): through the primary, over the
 *   cluster's IPC channel, on the embedded database;
 * - from other processes and machines on a PostgreSQL: NOTIFY on WAKEUP_CHANNEL, heard by a
 *   LISTEN of each process where a pull waits (postgres-wake-ups.ts).
 * What comes due with time alone (a retry's time, a claim that lapses) is known to the look, which
 * sets a timer for it.
 */

/** How often at most a change is told to other processes, and a look runs for one. */
export const WAKEUP_EVERY_MS = 250;

/** Tells other processes, or hears them: the cluster's IPC, or PostgreSQL's NOTIFY and LISTEN. */
export interface WakeupRelay {
  /** Tells the others that this process made a change (at most once every WAKEUP_EVERY_MS). */
  tell(): void;
  /** Some pull waits in this process (true) or none any more (false): hear the others only while one does. */
  hear?(on: boolean): void;
  close?(): Promise<void>;
}

export interface WebhookWakeups {
  /** How many changes were told here so far: a pull reads it before it looks, and its wait looks again if it moved since. */
  readonly changes: number;
  /** A change made in this process: wakes its waiting pulls, and is told to the other processes. */
  changed(): void;
  /** A change another process told: wakes this process's waiting pulls only. */
  heard(): void;
  /** Calls `listener` at each change; returns how to stop. */
  subscribe(listener: () => void): () => void;
  /** Whether a pull waits in this process (pull-waiters.ts says so): the relays hear the others only then. */
  waiting(on: boolean): void;
  close(): Promise<void>;
}

/** The wake-ups of one process, told to and heard from the others through `relays`. */
export function webhookWakeups(relays: readonly WakeupRelay[] = []): WebhookWakeups {
  const listeners = new Set<() => void>();
  let changes = 0;
  const tell = throttled(() => {
    for (const relay of relays) relay.tell();
  }, WAKEUP_EVERY_MS);
  const wake = () => {
    changes += 1;
    for (const listener of listeners) listener();
  };
  return {
    get changes() {
      return changes;
    },
    changed() {
      wake();
      if (relays.length > 0) tell.call();
    },
    heard: wake,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waiting(on) {
      for (const relay of relays) relay.hear?.(on);
    },
    async close() {
      tell.cancel();
      await Promise.all(relays.map((relay) => relay.close?.()));
    },
  };
}

/**
 * `run` at most once every `ms`: a call runs it at once when the last run is that old, else once
 * at the end of the interval, however many calls came meanwhile. The timer keeps no process alive.
 */
export function throttled(run: () => void, ms: number): { call(): void; cancel(): void } {
  let last = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    timer = undefined;
    last = performance.now();
    run();
  };
  return {
    call() {
      if (timer !== undefined) return;
      const wait = last + ms - performance.now();
      if (wait <= 0) return fire();
      timer = setTimeout(fire, wait);
      timer.unref();
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
