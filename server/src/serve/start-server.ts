import type { MikroORM } from '@mikro-orm/postgresql';
import type { Database } from '../db/database.js';
import type { SqlPool } from '../db/pool.js';
import { localLimiter } from '../limits/local-limiter.js';
import { createLogger } from '../logger.js';
import { prepareDatabase } from './prepare-database.js';
import { serveProcess, type ServingProcess } from './serve-process.js';
import { logListening, processSettings, type ServeOptions } from './serve-options.js';

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
  const { database, orm, voterSecret } = await prepareDatabase(options, logger);
  const settings = processSettings(options, database, 1, voterSecret);
  let serving: ServingProcess;
  try {
    serving = await serveProcess(settings, {
      logger,
      // Open already: it migrated the database and minted the first key.
      orm,
      // This process's own bank counts alone, or stands in for Redis while it is out.
      machineLimiter: localLimiter,
      metrics: options.metricsPort === undefined ? undefined : { port: options.metricsPort },
      // The one process of the machine runs the machine's jobs.
      machineJobs: true,
      validateResponses: options.validateResponses ?? false,
    });
  } catch (error) {
    await orm.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
  logListening(logger, settings, { url: serving.url, metricsUrl: serving.metricsUrl, workers: 1 });
  return {
    url: serving.url,
    port: serving.port,
    orm,
    sql: serving.sql,
    database,
    metricsUrl: serving.metricsUrl,
    close: async () => {
      logger.info('shutting down: no new connections, finishing requests in flight');
      await serving.close();
      await orm.close();
      await database.close();
      logger.info('stopped');
    },
  };
}
