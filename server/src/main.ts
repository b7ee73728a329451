import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createApp } from './app.js';
import { openDatabase, type Database, type DatabaseLocation } from './db/database.js';
import { migrateUp, migrationStatus } from './db/migrate.js';
import { openOrm } from './db/orm.js';
import { DEFAULT_RATE_LIMIT } from './http/middleware/rate-limit.js';
import { createLogger, type Logger } from './logger.js';
import { createApiKey } from './modules/keys/keys.service.js';
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
  /** Requests per minute per API key (default 100, spec part 8). */
  rateLimit?: number;
  /** Reverse proxies to trust for the caller's IP (X-Forwarded-For); 0 or absent ignores the header. */
  trustProxy?: number;
  /** Called once, on the first start with an empty database, with the key minted for it. */
  onFirstKey?: (key: string) => void;
}

export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  port: number;
  orm: MikroORM;
  database: Database;
  /** Stops accepting, lets in-flight requests finish (up to the drain timeout), closes the database. */
  close(): Promise<void>;
}

/** Opens the database, migrates, makes the first key on an empty database, and listens. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger();
  const database = await openDatabase(options, 'server');
  let orm: MikroORM | undefined;
  try {
    orm = await openOrm(database, { log: (message) => logger.debug(message) });
    logger.info('database ready', { database: database.description });
    await prepareSchema(orm, logger, options.migrate ?? true);
    await mintFirstKey(orm, options.onFirstKey);

    const app = createApp({
      orm,
      logger,
      validateResponses: options.validateResponses ?? false,
      rateLimit: { points: options.rateLimit ?? DEFAULT_RATE_LIMIT },
      trustProxy: options.trustProxy ?? 0,
    });
    const server = createServer(app.callback());
    await listen(server, options.port, options.host);
    const port = (server.address() as AddressInfo).port;
    const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
    logger.info('listening', { url, rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT, trustProxy: options.trustProxy ?? 0 });
    const opened = orm;
    return { url, port, orm: opened, database, close: () => shutdown(server, opened, database, logger, options.drainTimeoutMs ?? 8_000) };
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

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function shutdown(server: Server, orm: MikroORM, database: Database, logger: Logger, drainTimeoutMs: number): Promise<void> {
  logger.info('shutting down: no new connections, finishing requests in flight');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive connections would hold close() open until they time out.
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), drainTimeoutMs);
  });
  const cut = await Promise.race([closed.then(() => false), timedOut]);
  clearTimeout(timer);
  if (cut) {
    logger.warn('drain timeout: closing the remaining connections', { ms: drainTimeoutMs });
    server.closeAllConnections();
    await closed;
  }
  await orm.close();
  await database.close();
  logger.info('stopped');
}
