import type { LogLevel } from '../logger.js';
import type { ProcessSettings } from '../serve/serve-options.js';

/**
 * Everything a worker needs, handed over by the primary in the FEEDBACK_WORKER environment variable:
 * the settings of its serving process (the same a single `serve` process gives itself), and how it
 * logs and records.
 */
export interface WorkerConfig extends ProcessSettings {
  logLevel: LogLevel;
  prettyLogs: boolean;
  /** Record metrics and answer the primary's scrapes (metrics/cluster.ts): `--metrics-port` was given. */
  metrics: boolean;
}

export const WORKER_CONFIG_VARIABLE = 'FEEDBACK_WORKER';

/** Messages between the primary and a worker (besides the rate limiter's, limits/cluster-link.ts, the metrics', metrics/cluster.ts, and the webhook pulls' wake-ups, webhook-wakeups.ts). */
export type LifecycleMessage = { lifecycle: 'ready'; port: number } | { lifecycle: 'shutdown' };

export function isLifecycleMessage(message: unknown): message is LifecycleMessage {
  return typeof message === 'object' && message !== null && typeof (message as { lifecycle?: unknown }).lifecycle === 'string';
}
