import type { Logger } from '../logger.js';

/** While a quiet job keeps failing, how often it says so. */
const QUIET_WARN_EVERY_MS = 60_000;

/** A job that runs now and then, outside any request. */
export interface PeriodicJob {
  name: string;
  everyMs: number;
  /**
   * A job that runs often (every second or so): its "done" line is logged only when a field is
   * not 0 (it did something), and while it keeps failing (the database is down) only one
   * warning a minute, not one per run.
   */
  quiet?: boolean;
  /**
   * Returns a few fields for the log line (what it did), or nothing. `stopping` is aborted when
   * the jobs stop: a run that could go on for long (a backlog of deliveries) ends early on it.
   */
  run(stopping: AbortSignal): Promise<Record<string, unknown> | void>;
}

export interface RunningJobs {
  /** No new run starts; resolves once the runs in flight have ended. */
  stop(): Promise<void>;
}

/**
 * Runs each job once soon after the start (a second, so that it never delays serving) and then
 * every `everyMs`, never two runs of one job at once. A run that fails is logged and tried again at
 * the next turn. The timers do not keep the process alive.
 */
export function runPeriodically(jobs: readonly PeriodicJob[], logger: Logger, firstRunAfterMs = 1_000): RunningJobs {
  let stopped = false;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const timers = jobs.map((job) => {
    let running = false;
    let lastWarning = 0;
    const turn = () => {
      if (stopped || running) return;
      running = true;
      const started = performance.now();
      const run = job
        .run(stopping.signal)
        .then((fields) => {
          lastWarning = 0;
          if (job.quiet && !Object.values(fields ?? {}).some((value) => value !== 0)) return;
          logger.debug(`${job.name} done`, { ...fields, ms: Math.round(performance.now() - started) });
        })
        .catch((error: unknown) => {
          const now = Date.now();
          if (job.quiet && now - lastWarning < QUIET_WARN_EVERY_MS) return;
          lastWarning = now;
          logger.warn(`${job.name} failed; it runs again in ${Math.max(1, Math.round(job.everyMs / 1000))} s`, { error: String(error) });
        })
        .finally(() => {
          running = false;
          inFlight.delete(run);
        });
      inFlight.add(run);
    };
    const first = setTimeout(turn, Math.min(firstRunAfterMs, job.everyMs));
    const every = setInterval(turn, job.everyMs);
    first.unref();
    every.unref();
    return [first, every] as const;
  });
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      for (const [first, every] of timers) {
        clearTimeout(first);
        clearInterval(every);
      }
      await Promise.all(inFlight);
    },
  };
}
