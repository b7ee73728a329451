import type { SqlPool } from '../db/pool.js';
import type { Logger } from '../logger.js';
import { deleteExpiredKeys } from '../db/idempotency-keys.js';
import { runPeriodically, type RunningJobs } from './periodic.js';

/** How often expired idempotency keys are deleted: they expire after 24 hours, so this is plenty. */
export const IDEMPOTENCY_SWEEP_EVERY_MS = 10 * 60_000;

/**
 * The jobs that run once per machine, outside requests: in `feedback serve`'s one process, or in
 * the primary of a cluster (never in each worker, which would repeat them N times). The webhook
 * deliveries and session clean-up that are coming join this list.
 */
export function startMachineJobs(sql: Pick<SqlPool, 'query'>, logger: Logger): RunningJobs {
  return runPeriodically(
    [
      {
        name: 'idempotency key sweep',
        everyMs: IDEMPOTENCY_SWEEP_EVERY_MS,
        run: async () => ({ deleted: await deleteExpiredKeys(sql) }),
      },
    ],
    logger,
  );
}
