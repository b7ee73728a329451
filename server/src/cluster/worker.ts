import cluster from 'node:cluster';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createApp } from '../app.js';
import { openOrm } from '../db/orm.js';
import { openSqlPool } from '../db/pool.js';
import { baseUrl, createHttpServer, drain, listen } from '../serve/http-server.js';
import { workerLimiter } from '../limits/cluster-link.js';
import { redisLimiter } from '../limits/redis-limiter.js';
import { RATE_LIMIT_WINDOW_SECONDS } from '../http/middleware/rate-limit.js';
import { createLogger } from '../logger.js';
import { answerScrapes } from '../metrics/cluster.js';
import { watchPool } from '../metrics/figures.js';
import { enableMetrics } from '../metrics/registry.js';
import { isLifecycleMessage, WORKER_CONFIG_VARIABLE, type LifecycleMessage, type WorkerConfig } from './worker-config.js';

/**
 * A cluster worker: config -> pool -> app -> listen (the port is shared by every worker through
 * node:cluster) -> serve until the primary says shutdown, or goes away.
 */
async function runWorker(): Promise<void> {
  const config = JSON.parse(process.env[WORKER_CONFIG_VARIABLE] ?? 'null') as WorkerConfig | null;
  if (!config || !process.send) throw new Error('a feedback worker is started by `feedback serve --workers N`, not directly');
  const logger = createLogger({ level: config.logLevel, pretty: config.prettyLogs });
  // A message to a primary that is already gone (a shutdown racing this worker's start, even its
  // listen) fails with EPIPE on the cluster worker object; unhandled, it would crash the worker
  // instead of letting the disconnect handler below drain it.
  cluster.worker?.on('error', (error: Error) => logger.debug('message to the primary failed', { error: error.message }));
  const sql = openSqlPool(config.database, config.poolMax);
  if (config.metrics) {
    // Before the app is built: its batchers register their figures only when metrics are on.
    enableMetrics();
    watchPool(sql);
    answerScrapes();
  }
  const points = config.rateLimit;
  // The machine's bank (in the primary) counts alone, or stands in for Redis while it is out.
  const machine = points === 'off' ? undefined : workerLimiter(points, RATE_LIMIT_WINDOW_SECONDS);
  const redis =
    machine && points !== 'off' && config.redisUrl
      ? redisLimiter({ url: config.redisUrl, points, durationSeconds: RATE_LIMIT_WINDOW_SECONDS, fallback: machine, logger })
      : undefined;
  // The ORM serves the operator's endpoints and the transactions of writes sent with an
  // Idempotency-Key (every SDK write). It is opened by the first such request, not at every start
  // (its pool keeps no idle connection). A failed open is forgotten, so the next request retries.
  let orm: Promise<MikroORM> | undefined;
  const openAdminOrm = () => {
    if (!orm) {
      const opening = openOrm({ connection: config.database.connection, poolMax: config.database.kind === 'embedded' ? 1 : 4 }, { log: (message) => logger.debug(message) });
      orm = opening;
      opening.catch(() => {
        if (orm === opening) orm = undefined;
      });
    }
    return orm;
  };
  const app = createApp({
    sql,
    orm: openAdminOrm,
    logger,
    rateLimit: points === 'off' ? 'off' : { points, limiter: redis ?? machine },
    trustProxy: config.trustProxy,
    failedAuthLimit: config.failedAuthLimit,
  });
  await redis?.connected();
  const server = createHttpServer(app.callback(), config.connectionLimits);
  const port = await listen(server, config.port, config.host);
  logger.debug('worker listening', { url: baseUrl(config.host, port) });
  process.send({ lifecycle: 'ready', port } satisfies LifecycleMessage);

  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.debug('worker draining', { reason });
    await drain(server, config.drainTimeoutMs, logger);
    await sql.close().catch(() => {});
    await orm?.then((opened) => opened.close()).catch(() => {});
    await redis?.close().catch(() => {});
    logger.flush?.();
    process.exit(0);
  };
  process.on('message', (message: unknown) => {
    if (isLifecycleMessage(message) && message.lifecycle === 'shutdown') void stop('shutdown');
  });
  // The primary is gone (killed): nobody hands out rate limits or restarts us, so finish and exit.
  process.on('disconnect', () => void stop('primary gone'));
  // Ctrl-C reaches the whole process group: the primary decides when workers stop.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
}

runWorker().catch((error: unknown) => {
  process.stderr.write(`feedback worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
