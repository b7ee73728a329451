import type { ConnectionLimits } from '../serve/http-server.js';
import type { ConnectionOptions, Database } from '../db/database.js';
import type { LogLevel } from '../logger.js';

/** Everything a worker needs, handed over by the primary in the FEEDBACK_WORKER environment variable. */
export interface WorkerConfig {
  database: { kind: Database['kind']; connection: ConnectionOptions };
  poolMax: number;
  port: number;
  host: string;
  rateLimit: number | 'off';
  /** Where the rate limit is counted across instances (absent: the primary's bank). */
  redisUrl?: string;
  trustProxy: number;
  failedAuthLimit: number | 'off';
  logLevel: LogLevel;
  prettyLogs: boolean;
  drainTimeoutMs: number;
  connectionLimits: ConnectionLimits;
  /** Record metrics and answer the primary's scrapes (metrics/cluster.ts): `--metrics-port` was given. */
  metrics: boolean;
}

export const WORKER_CONFIG_VARIABLE = 'FEEDBACK_WORKER';

/** Messages between the primary and a worker (besides the rate limiter's, limits/cluster-link.ts, and the metrics', metrics/cluster.ts). */
export type LifecycleMessage = { lifecycle: 'ready'; port: number } | { lifecycle: 'shutdown' };

export function isLifecycleMessage(message: unknown): message is LifecycleMessage {
  return typeof message === 'object' && message !== null && typeof (message as { lifecycle?: unknown }).lifecycle === 'string';
}
