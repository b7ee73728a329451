import { availableParallelism } from 'node:os';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createApp } from './app.js';
import type { ConnectionLimits } from './serve/http-server.js';
import { openDatabase, redactUrl, type Database, type DatabaseLocation } from './db/database.js';
import { migrateUp, migrationStatus } from './db/migrate.js';
import { openOrm } from './db/orm.js';
import { openSqlPool, type SqlPool } from './db/pool.js';
import { DEFAULT_RATE_LIMIT, RATE_LIMIT_WINDOW_SECONDS } from './http/middleware/rate-limit.js';
import { baseUrl, createHttpServer, drain, listen } from './serve/http-server.js';
import { FAILED_AUTH_LIMIT } from './limits/failed-auth.js';
import { localLimiter } from './limits/local-limiter.js';
import { redisLimiter } from './limits/redis-limiter.js';
import { createLogger, type Logger } from './logger.js';
import { watchPool } from './metrics/figures.js';
import { startMetricsListener, type MetricsListener } from './metrics/listener.js';
import { enableMetrics, registry } from './metrics/registry.js';
import { createApiKey } from './modules/keys/keys.service.js';
import { DRAIN_TIMEOUT_MS } from './serve-defaults.js';
import { startMachineJobs } from './jobs/machine-jobs.js';
import { ensureProject, hasNoProjects } from './modules/projects/projects.service.js';

export interface ServeOptions extends DatabaseLocation {
  port: number;
  host: string;
  /** Apply pending migrations before listening (default true). */
  migrate?: boolean;
  logger?: Logger;
  /** How long close() lets in-flight requests finish before cutting connections. */
  drainTimeoutMs?: number;
  /** Check every reply against the contract (tests). */
  validateResponses?: boolean;
  /** Requests per minute per API key (default 100, spec part 8), or 'off' when something else limits. */
  rateLimit?: number | 'off';
  /** Reverse proxies to trust for the caller's IP (X-Forwarded-For); 0 or absent ignores the header. */
  trustProxy?: number;
  /** Unknown or revoked keys per address per minute before the address is refused (default 30), or 'off'. */
  failedAuthLimit?: number | 'off';
  /**
   * Keep the rate limit in this Redis, so it is exact across instances; without it each machine
   * counts on its own (exact across its workers).
   */
  redisUrl?: string;
  /** How long a request may take to arrive, and open connections per address (serve-defaults.ts has the defaults). */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Serve Prometheus metrics at GET /metrics on this port of `host` (0 picks a free one); absent,
   * nothing is recorded and nothing listens. Never the API's port.
   */
  metricsPort?: number;
  /** Called once, on the first start with an empty database, with the key minted for it. */
  onFirstKey?: (key: string) => void;
}

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

/** Pipelined hot connections to PostgreSQL per core of this machine, for all serving processes together. */
const HOT_LANES_PER_CORE = 2;

/**
 * How many hot connections one serving process opens.
 * - PGlite runs one statement at a time: a few connections let requests queue at the database
 *   rather than at the pool.
 * - PostgreSQL: pipelined lanes (db/pipelined-pool.ts), about 2 per core in all and at least 2 per
 *   process. A lane keeps its backend busy while queries wait on it, so a few per core keep the
 *   cores busy; more only add backends that wake, run and sleep in turn. Measured on 2 cores with
 *   the side-by-side benchmark and one worker (docs/operations.md): 4 lanes were ahead of 12.
 */
export function hotPoolSize(database: Pick<Database, 'kind'>, processes: number, cores: number = availableParallelism()): number {
  if (database.kind === 'embedded') return Math.max(2, Math.ceil(4 / processes));
  return Math.max(2, Math.ceil((HOT_LANES_PER_CORE * cores) / processes));
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

/** Where the rate limit is counted, as the "listening" log line says it. */
export function rateLimitStore(redisUrl: string | undefined): string {
  return redisUrl ? redactUrl(redisUrl) : 'this machine';
}

/**
 * What happens once per machine before serving: open the database (and own the embedded one),
 * apply migrations, and on an empty database create the default project and its first key.
 */
export async function prepareDatabase(options: ServeOptions, logger: Logger): Promise<{ database: Database; orm: MikroORM }> {
  const database = await openDatabase(options, 'server');
  let orm: MikroORM | undefined;
  try {
    orm = await openOrm(database, { log: (message) => logger.debug(message), createDatabase: true });
    logger.info('database ready', { database: database.description });
    await prepareSchema(orm, logger, options.migrate ?? true);
    await mintFirstKey(orm, options.onFirstKey);
    return { database, orm };
  } catch (error) {
    await orm?.close().catch(() => {});
    await database.close().catch(() => {});
    throw error;
  }
}

async function prepareSchema(orm: MikroORM, logger: Logger, migrate: boolean): Promise<void> {
  if (migrate) {
    const applied = await migrateUp(orm);
    for (const name of applied) logger.info('migration applied', { name });
    return;
  }
  const { pending } = await migrationStatus(orm);
  if (pending.length > 0) logger.warn('pending migrations not applied (--no-migrate); run `feedback migrate up`', { pending: pending.join(',') });
}

async function mintFirstKey(orm: MikroORM, onFirstKey: ((key: string) => void) | undefined): Promise<void> {
  const em = orm.em.fork();
  if (!(await hasNoProjects(em))) return;
  const { created } = await ensureProject(em);
  // Another instance starting on the same database may have won the race: it prints the key.
  if (!created) return;
  const { key } = await createApiKey(em, { name: 'first key' });
  onFirstKey?.(key);
}
