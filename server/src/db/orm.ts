import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Database } from './database.js';
import { entities } from './entities.js';
import { migrationsList } from './migrations/index.js';

export interface OrmOptions {
  debug?: boolean;
  log?: (message: string) => void;
  /**
   * Create the PostgreSQL database of the URL when it does not exist (MikroORM's default). Only
   * the commands whose job is to make a database ask for it (serve, migrate up, seed, import);
   * for any other a missing database is an error, never a new empty one.
   */
  createDatabase?: boolean;
  /**
   * Give up opening a connection after this long, and close its socket. Operator commands set it:
   * on the embedded database a connection opens only once no other one holds a transaction. Without
   * it the pool stops waiting after 30 s but leaves the attempt open, which keeps a command alive.
   */
  connectTimeoutMs?: number;
}

/** Opens MikroORM on an open database. Nothing here is global: tests open as many as they like. */
export async function openOrm(database: Pick<Database, 'connection' | 'poolMax'>, options: OrmOptions = {}): Promise<MikroORM> {
  const bounded = options.connectTimeoutMs !== undefined;
  const orm = await MikroORM.init({
    ...database.connection,
    // MikroORM's own connect logs a first connection that fails and goes on, so the next query waits
    // as long again: with a bound, connectBounded makes that first failure the error.
    connect: !bounded,
    ensureDatabase: options.createDatabase ?? false,
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: database.poolMax },
    driverOptions: {
      ...(options.connectTimeoutMs === undefined ? {} : { connection: { connectionTimeoutMillis: options.connectTimeoutMs } }),
      // knex, under MikroORM, prints its warnings to the console ("Connection Error: ..." for every
      // pooled connection a database restart cut): they go to our logger, at debug level, like
      // MikroORM's own; what they are about reaches the caller as the request's own error (a 503).
      log: knexLog(options.log ?? (() => {})),
    },
    // Every unit of work uses a fork made for it (one per request); a stray global use is a bug.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: options.debug ?? false,
    colors: false,
    // MikroORM's own messages (migrator progress, debug SQL) go to our logger, not straight to stdout.
    logger: options.log ?? (() => {}),
    discovery: { warnWhenNoEntities: true, disableDynamicFileAccess: true },
    migrations: {
      // Listed explicitly, so that no glob decides between .ts and .js files at run time.
      migrationsList,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      // The default issues `set session_replication_role`, which needs a superuser.
      disableForeignKeys: false,
      snapshot: false,
    },
  });
  if (bounded) await connectBounded(orm, options.createDatabase ?? false);
  return orm;
}

/**
 * What MikroORM.init's connect does (the pool itself starts on first use), except that a
 * connection that cannot be had is an error.
 */
async function connectBounded(orm: MikroORM, createDatabase: boolean): Promise<void> {
  try {
    if (createDatabase) await orm.schema.ensureDatabase();
    const check = await orm.checkConnection();
    if (!check.ok) throw check.error ?? new Error(check.reason);
  } catch (error) {
    await orm.close(true).catch(() => {});
    throw error;
  }
}

/** knex's logger interface, every level sent to `log`. */
function knexLog(log: (message: string) => void): Record<'warn' | 'error' | 'deprecate' | 'debug', (message: unknown) => void> {
  const write = (message: unknown) => log(`knex: ${typeof message === 'string' ? message : String(message)}`);
  return { warn: write, error: write, deprecate: write, debug: write };
}
