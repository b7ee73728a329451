import type { MikroORM } from '@mikro-orm/postgresql';
import { createApp } from '../app.js';
import type { Database } from '../db/database.js';
import { openSqlPool, type SqlPool } from '../db/pool.js';
import { DEFAULT_RATE_LIMIT, RATE_LIMIT_WINDOW_SECONDS } from '../http/middleware/rate-limit.js';
import { startMachineJobs } from '../jobs/machine-jobs.js';
import { FAILED_AUTH_LIMIT } from '../limits/failed-auth.js';
import { localLimiter } from '../limits/local-limiter.js';
import { redisLimiter } from '../limits/redis-limiter.js';
import { createLogger } from '../logger.js';
import { watchPool } from '../metrics/figures.js';
import { startMetricsListener, type MetricsListener } from '../metrics/listener.js';
import { enableMetrics, registry } from '../metrics/registry.js';
import { DRAIN_TIMEOUT_MS } from '../serve-defaults.js';
import { baseUrl, createHttpServer, drain, listen } from './http-server.js';
import { prepareDatabase } from './prepare-database.js';
import { hotPoolSize, rateLimitStore, type ServeOptions } from './serve-options.js';

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  port: number;
  /** The operator side's handle (keys, comments, migrations). */
  orm: MikroORM;
  /** The hot side's pool, the one requests use. */
  sql: SqlPool;
  database: Database;
  /** Where the metrics are served, with --metrics-port: http://host:port (the path is /metrics). */
  metricsUrl?: string;
  /** Stops accepting, lets in-flight requests finish (up to the drain timeout), closes the database. */
  close(): Promise<void>;
}

/** Opens the database, migrates, makes the first key on an empty database, and listens, in this one process. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger();
  const { database, orm } = await prepareDatabase(options, logger);
  const sql = openSqlPool(database, hotPoolSize(database, 1));
  // Before the app is built: its batchers register their figures only when metrics are on.
  if (options.metricsPort !== undefined) enableMetrics();
  const unwatchPool = watchPool(sql);
  let metrics: MetricsListener | undefined;
  const points = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  const redis =
    points !== 'off' && options.redisUrl
      ? redisLimiter({ url: options.redisUrl, points, durationSeconds: RATE_LIMIT_WINDOW_SECONDS, fallback: localLimiter(points, RATE_LIMIT_WINDOW_SECONDS), logger })
      : undefined;
  try {
    const app = createApp({
      sql,
      orm,
      logger,
      validateResponses: options.validateResponses ?? false,
      rateLimit: points === 'off' ? 'off' : { points, limiter: redis },
      trustProxy: options.trustProxy ?? 0,
      failedAuthLimit: options.failedAuthLimit ?? FAILED_AUTH_LIMIT,
    });
    await redis?.connected();
    if (options.metricsPort !== undefined) metrics = await startMetricsListener({ port: options.metricsPort, host: options.host, scrape: () => registry.metrics(), logger });
    const server = createHttpServer(app.callback(), options.connectionLimits);
    const port = await listen(server, options.port, options.host);
    const url = baseUrl(options.host, port);
    const jobs = startMachineJobs(sql, logger);
    logger.info('listening', { url, metricsUrl: metrics?.url, rateLimit: points, rateLimitStore: rateLimitStore(options.redisUrl), trustProxy: options.trustProxy ?? 0, failedAuthLimit: options.failedAuthLimit ?? FAILED_AUTH_LIMIT, workers: 1 });
    const close = async () => {
      logger.info('shutting down: no new connections, finishing requests in flight');
      await metrics?.close();
      await drain(server, options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS, logger);
      await jobs.stop();
      unwatchPool();
      await sql.close();
      await redis?.close();
      await orm.close();
      await database.close();
      logger.info('stopped');
    };
    return { url, port, orm, sql, database, metricsUrl: metrics?.url, close };
  } catch (error) {
    unwatchPool();
    await metrics?.close().catch(() => {});
    await sql.close().catch(() => {});
    await redis?.close().catch(() => {});
    await orm.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
}
