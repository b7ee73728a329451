import { createApp, type AppDependencies } from '../app.js';
import { clientConfig, openSqlPool, type SqlPool } from '../db/pool.js';
import { startBackgroundJobs } from '../jobs/background-jobs.js';
import type { RateLimiter } from '../limits/lease-client.js';
import { redisLimiter } from '../limits/redis-limiter.js';
import type { Logger } from '../logger.js';
import { answerScrapes } from '../metrics/cluster.js';
import { watchPool } from '../metrics/figures.js';
import { startMetricsListener, type MetricsListener } from './metrics-listener.js';
import { enableMetrics, registry } from '../metrics/registry.js';
import { RATE_LIMIT_WINDOW_SECONDS } from '../serve-defaults.js';
import { baseUrl, createHttpServer, drain, listen } from './http-server.js';
import { machineJobOptions, type ProcessSettings } from './serve-options.js';
import { postgresWakeups } from '../delivery/webhooks/postgres-wake-ups.js';
import { webhookWakeups, type WakeupRelay } from '../delivery/webhooks/wake-ups.js';

/** What differs between the process that serves a machine alone (startServer) and each worker of a cluster (cluster/worker.ts). */
export interface ServingRole {
  logger: Logger;
  /**
   * The operator side's ORM, as createApp takes it: open (the single process opened it to
   * migrate), or a function that opens it for the first request that needs it (a worker). It is
   * its owner's to close, after the serving process's close().
   */
  orm: AppDependencies['orm'];
  /**
   * The machine's own count of the rate limit, alone or standing in for Redis while it is out: the
   * bank of this process (limits/local-limiter.ts), or a worker's leases on the bank of its primary
   * (limits/cluster-link.ts).
   */
  machineLimiter: (points: number, durationSeconds: number) => RateLimiter;
  /**
   * Where this process's metrics go when they are on: a listener of its own on a port of the host,
   * or the primary, which sums its workers' at each scrape (metrics/cluster.ts). Absent, nothing is
   * recorded.
   */
  metrics?: { port: number } | 'to the primary';
  /**
   * Run the machine's periodic jobs (jobs/machine-jobs.ts) in this process, in their own thread
   * (jobs/background-jobs.ts): only in a process that serves the machine alone. A cluster's primary runs them, once for all its workers.
   */
  machineJobs: boolean;
  /** Check every reply against the contract (tests). */
  validateResponses?: boolean;
  /**
   * On the embedded database, how this process tells the machine's other serving processes of a
   * change that waiting webhook pulls may want, and hears theirs (delivery/webhooks/wake-ups.ts): a
   * cluster's worker, through its primary. On PostgreSQL every process uses NOTIFY and LISTEN
   * instead, which reach other machines too. Absent: a process that serves the machine alone.
   */
  peers?: (heard: () => void) => WakeupRelay;
}

export interface ServingProcess {
  /** Base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  port: number;
  /** The hot side's pool, the one requests use. */
  sql: SqlPool;
  /** Where this process's own metrics listener serves: http://host:port (the path is /metrics). */
  metricsUrl?: string;
  /**
   * Closes the metrics listener; stops accepting and lets in-flight requests finish (up to the
   * drain timeout); waits for a periodic job in flight; closes the hot pool and Redis. The ORM and
   * the database are the caller's, closed after this.
   */
  close(): Promise<void>;
}

/**
 * One serving process, the same in `feedback serve` alone and in each worker of a cluster: the hot
 * pool, the rate limiter (in Redis when asked, with the machine's count as its fallback), the app,
 * the HTTP server listening, and on close the drain and then the rest, in that order.
 */
export async function serveProcess(settings: ProcessSettings, role: ServingRole): Promise<ServingProcess> {
  const { logger } = role;
  const sql = openSqlPool(settings.database, settings.poolMax);
  // Before the app is built: its batchers register their figures only when metrics are on.
  if (role.metrics !== undefined) enableMetrics();
  const unwatchPool = watchPool(sql);
  if (role.metrics === 'to the primary') answerScrapes();
  const points = settings.rateLimit;
  const machine = points === 'off' ? undefined : role.machineLimiter(points, RATE_LIMIT_WINDOW_SECONDS);
  const redis =
    points !== 'off' && machine && settings.redisUrl
      ? redisLimiter({ url: settings.redisUrl, points, durationSeconds: RATE_LIMIT_WINDOW_SECONDS, fallback: machine, logger })
      : undefined;
  let metrics: MetricsListener | undefined;
  // Aborted as the drain begins: a pull that waits for deliveries answers then instead of holding it.
  const stopping = new AbortController();
  // What wakes the waiting webhook pulls: this process's writes, its jobs' thread, the other processes.
  const heard = () => wakeups.heard();
  // A cluster's worker also hears its primary on PostgreSQL: the primary runs the jobs, and the
  // sender's fan-out (what a pull endpoint's deliveries become due by) is told over the IPC channel.
  const wakeups = webhookWakeups([
    ...(settings.database.kind === 'postgres' ? [postgresWakeups(clientConfig(settings.database), sql, heard, logger)] : []),
    ...(role.peers ? [role.peers(heard)] : []),
  ]);
  try {
    const app = createApp({
      sql,
      orm: role.orm,
      logger,
      voterSecret: Buffer.from(settings.voterSecret, 'base64url'),
      validateResponses: role.validateResponses ?? false,
      rateLimit: points === 'off' ? 'off' : { points, limiter: redis ?? machine },
      trustProxy: settings.trustProxy,
      failedAuthLimit: settings.failedAuthLimit,
      webhooks: { allowPrivate: settings.webhooksAllowPrivate, stopping: stopping.signal, wakeups },
      publicUrl: settings.publicUrl,
      boardMinFillMs: settings.boardMinFillMs,
      boardProjectCacheTtlMs: settings.boardProjectCacheTtlMs,
      keyCacheTtlMs: settings.keyCacheTtlMs,
    });
    await redis?.connected();
    if (typeof role.metrics === 'object') metrics = await startMetricsListener({ port: role.metrics.port, host: settings.host, scrape: () => registry.metrics(), logger });
    const server = createHttpServer(app.callback(), settings.connectionLimits);
    const port = await listen(server, settings.port, settings.host);
    const jobs = role.machineJobs ? startBackgroundJobs(settings.database, logger, machineJobOptions(settings, baseUrl(settings.host, port)), heard) : undefined;
    return {
      url: baseUrl(settings.host, port),
      port,
      sql,
      metricsUrl: metrics?.url,
      close: async () => {
        await metrics?.close();
        stopping.abort();
        await drain(server, settings.drainTimeoutMs, logger);
        await jobs?.stop();
        await wakeups.close();
        unwatchPool();
        await sql.close();
        await redis?.close();
      },
    };
  } catch (error) {
    await wakeups.close().catch(() => {});
    unwatchPool();
    await metrics?.close().catch(() => {});
    await sql.close().catch(() => {});
    await redis?.close().catch(() => {});
    throw error;
  }
}
