import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlPool } from '../db/pool.js';
import type { Logger, LogLevel } from '../logger.js';
import type { JobsThreadData, JobsThreadMessage } from './background-jobs.js';
import { startMachineJobs } from './machine-jobs.js';
import { TELL_WAKEUP } from '../delivery/webhooks/postgres-wake-ups.js';
import { throttled, WAKEUP_EVERY_MS } from '../delivery/webhooks/wake-ups.js';

/**
 * The thread that runs the machine's jobs (background-jobs.ts): its own connection, its log lines
 * sent to the process's logger, and a lower CPU priority than the requests' thread. On Linux a
 * thread's priority is its own: only this thread yields, so when the machine is busy the requests
 * go first and deliveries wait, and when it is not, the jobs take the time that is free.
 */
const port = parentPort!;
const data = workerData as JobsThreadData;
const post = (message: JobsThreadMessage) => port.postMessage(message);

const log = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => post({ log: { level, message, fields } });
const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };

try {
  setPriority(0, data.nice);
} catch (error) {
  // Some containers forbid it; the jobs then run at the requests' priority, as they did in-process.
  logger.debug('background jobs keep the normal CPU priority', { error: String(error) });
}

// Planned for the data at each run, never once for good: see openSqlPool.
const sql = openSqlPool(data.database, 1, { genericPlans: false });
// What a waiting webhook pull may want (delivery/webhooks/wake-ups.ts) is told to the process, which wakes
// its pulls or a cluster's workers; on PostgreSQL also to every process of every machine.
const tellWebhooks = throttled(() => {
  post({ webhooks: true });
  if (data.database.kind === 'postgres') void sql.query('', TELL_WAKEUP, []).catch(() => {});
}, WAKEUP_EVERY_MS);
const jobs = startMachineJobs(sql, logger, data, (outcome, count) => post({ mail: { outcome, count } }), () => tellWebhooks.call());

port.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  void jobs
    .stop()
    .then(() => tellWebhooks.cancel())
    .then(() => sql.close())
    .finally(() => post({ stopped: true }));
});
post({ started: true });
