import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Database } from './database.js';
import { entities } from './entities/index.js';
import { releaseDeadConnections } from './orm-pool-guard.js';
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

/**
 * How long a unit of work waits for one of the ORM's connections when none was bounded: as long
 * as MikroORM 6 (on knex) waited, after which the request is answered 503.
 */
const ORM_CONNECT_TIMEOUT_MS = 60_000;

/** Opens MikroORM on an open database. Nothing here is global: tests open as many as they like. */
export async function openOrm(database: Pick<Database, 'connection' | 'poolMax'>, options: OrmOptions = {}): Promise<MikroORM> {
  const bounded = options.connectTimeoutMs !== undefined;
  const orm = await MikroORM.init({
    ...database.connection,
    ensureDatabase: options.createDatabase ?? false,
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: database.poolMax },
    // Options of node-postgres's pool itself. Its connectionTimeoutMillis bounds both the wait for a
    // free connection and the opening of a new one.
    driverOptions: { connectionTimeoutMillis: options.connectTimeoutMs ?? ORM_CONNECT_TIMEOUT_MS, onPoolCreated: releaseDeadConnections },
    // Every unit of work uses a fork made for it (one per request); a stray global use is a bug.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: options.debug ?? false,
    colors: false,
    // MikroORM's own messages (migrator progress, debug SQL) go to our logger, not straight to stdout.
    logger: options.log ?? (() => {}),
    discovery: { warnWhenNoEntities: true },
    // The functions (toggle_vote, time_ordered_uuid, ...) and triggers (the counters and stats that
    // follow `feedback`) are written by hand in the migrations, not declared on the entities: a
    // schema diff compares the tables the entities describe, and leaves those alone.
    schemaGenerator: { ignoreRoutines: true, ignoreTriggers: true },
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
  if (bounded) await connectBounded(orm);
  return orm;
}

/**
 * Connects now rather than at the first query (MikroORM connects lazily), so that a database that
 * cannot be reached is the command's first error, within the bound.
 */
async function connectBounded(orm: MikroORM): Promise<void> {
  try {
    // connect() makes the pool and, with `ensureDatabase`, creates the database; only the check
    // below opens a connection.
    await orm.connect();
    const check = await orm.checkConnection();
    if (!check.ok) throw check.error ?? new Error(check.reason);
  } catch (error) {
    await orm.close(true).catch(() => {});
    throw error;
  }
}

