import { Worker } from 'node:worker_threads';
import type { Database } from '../db/database.js';
import type { Logger, LogFields, LogLevel } from '../logger.js';
import type { MachineJobOptions } from './machine-jobs.js';
import type { RunningJobs } from './periodic.js';
import { countMail } from '../metrics/notifications.js';

/**
 * The CPU priority of the jobs' thread: 10 on Linux's scale of -20 to 19, so under a full load a
 * request thread gets about nine times the jobs' share of a core, and with cores to spare the
 * jobs run at full speed. Webhook deliveries then lag behind a peak instead of slowing it
 * (docs/webhooks.md, "What a subscription costs").
 */
export const JOBS_NICE = 10;

/**
 * The young generation of the jobs' thread, in MB. V8 sizes a thread's young generation from the
 * machine's memory, as it does the process's: on a host with 24 GB the thread had 32 MB for jobs
 * that make a few small objects a second. 8 MB makes its young collections more frequent and as
 * short, which the jobs, niced and off the requests' thread, do not feel; its old generation keeps
 * the process's limit, so a backlog of deliveries does not run it out of memory sooner. A process-wide
 * --max-semi-space-size (which `feedback serve`'s launcher sets) takes precedence in V8, so this
 * holds where the server runs inside another program (startServer) without one.
 */
export const JOBS_YOUNG_GENERATION_MB = 8;

/** How soon a jobs' thread that died is started again. */
const RESPAWN_AFTER_MS = 5_000;
/** How long a stop waits for the jobs' thread to finish its runs before it is ended. */
const STOP_TIMEOUT_MS = 10_000;

/** What the jobs' thread is given (plain data: it crosses to the thread). */
export interface JobsThreadData extends MachineJobOptions {
  database: Pick<Database, 'kind' | 'connection'>;
  nice: number;
}

/**
 * What the jobs' thread tells the process: a log line, a mail outcome, that a job wrote what a
 * waiting webhook pull may want, that its jobs started, or that it stopped.
 */
export type JobsThreadMessage =
  | { log: { level: LogLevel; message: string; fields?: Record<string, unknown> } }
  | { mail: { outcome: 'sent' | 'failed' | 'suppressed'; count: number } }
  | { webhooks: true }
  | { started: true }
  | { stopped: true };

/**
 * Runs the machine's periodic jobs (machine-jobs.ts: the idempotency sweep, the webhook sender and
 * the log pruning) in a thread of their own at a lower CPU priority, on their own connection to
 * the database. Used once per machine: by `feedback serve`'s one process, or a cluster's primary.
 * `onWebhookChange` is told when a job wrote what a waiting webhook pull may want (delivery/webhooks/wake-ups.ts).
 */
export function startBackgroundJobs(database: Pick<Database, 'kind' | 'connection'>, logger: Logger, options: MachineJobOptions, onWebhookChange?: () => void): RunningJobs {
  const data: JobsThreadData = { ...options, database: { kind: database.kind, connection: database.connection }, nice: JOBS_NICE };
  let stopping = false;
  let respawn: NodeJS.Timeout | undefined;
  let stopped: (() => void) | undefined;
  /** Whether the current thread has started its jobs: until then it is loading its modules, and holds nothing to finish. */
  let started = false;
  const spawn = (): Worker => {
    started = false;
    const thread = new Worker(new URL('./jobs-thread.js', import.meta.url), { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: JOBS_YOUNG_GENERATION_MB } });
    // The thread never keeps the process alive: a server that closes stops it first.
    thread.unref();
    thread.on('message', (message: JobsThreadMessage) => {
      if ('log' in message) logger[message.log.level](message.log.message, message.log.fields as LogFields | undefined);
      else if ('mail' in message) countMail(message.mail.outcome, message.mail.count);
      else if ('webhooks' in message) onWebhookChange?.();
      else if ('started' in message) started = true;
      else stopped?.();
    });
    thread.on('error', (error) => logger.error('the background jobs failed; they start again in 5 s', { error: String(error) }));
    thread.on('exit', () => {
      if (stopping) return;
      // A thread that died (a bug, or out of memory) comes back: deliveries wait in the outbox meanwhile.
      respawn = setTimeout(() => (current = spawn()), RESPAWN_AFTER_MS);
      respawn.unref();
    });
    return thread;
  };
  let current = spawn();
  return {
    async stop() {
      stopping = true;
      clearTimeout(respawn);
      const thread = current;
      // A server stopped before its jobs' thread is up (a short test's, or a Ctrl-C at once) need
      // not wait for the thread to load its modules (a few hundred ms, more at its low priority on
      // a busy machine) only to stop it: none of its jobs has run yet.
      if (!started) {
        await thread.terminate();
        return;
      }
      const done = new Promise<void>((resolve) => {
        stopped = resolve;
        thread.once('exit', () => resolve());
      });
      thread.postMessage('stop');
      const timer = setTimeout(() => void thread.terminate(), STOP_TIMEOUT_MS);
      await done;
      clearTimeout(timer);
      await thread.terminate();
    },
  };
}
