import { resolve } from 'node:path';
import type { Database, DatabaseLocation, MikroORM } from '@feedbackd/server';
import { CliError, EXIT } from './exit-codes.js';
import type { Output } from './output.js';

/** The server package. Only the commands that open the database load it (see withDatabase). */
export type ServerModule = typeof import('@feedbackd/server');

/**
 * What a command may do to the database it names:
 * - `migrated`: it must be there and migrated (keys, and every command that reads or changes data);
 *   otherwise the command stops with a message naming the place and what to run, and creates nothing.
 * - `present`: it must be there, migrated or not (`migrate status`, `migrate down`).
 * - `create`: making or filling a database is the command's job (`migrate up`, `seed`, `import`).
 */
export type DatabaseNeed = 'migrated' | 'present' | 'create';

/**
 * How long a command waits for a connection before it says so and ends, in seconds. On the
 * embedded database while the server runs, that is a wait for any transaction of another command
 * (an import) to end. A script that would rather fail fast sets FEEDBACK_CONNECT_TIMEOUT.
 */
const DEFAULT_CONNECT_TIMEOUT_S = 30;
const CONNECT_TIMEOUT_VARIABLE = 'FEEDBACK_CONNECT_TIMEOUT';

/** The wait for a connection, from FEEDBACK_CONNECT_TIMEOUT (whole seconds, 1 to 3600) or the default. */
function connectTimeoutSeconds(): number {
  const value = process.env[CONNECT_TIMEOUT_VARIABLE];
  if (value === undefined || value === '') return DEFAULT_CONNECT_TIMEOUT_S;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 3600) {
    throw new CliError(`${CONNECT_TIMEOUT_VARIABLE} must be a whole number of seconds from 1 to 3600, not "${value}"`, EXIT.usage);
  }
  return Number(value);
}

/**
 * Runs an operator command on the database. On the embedded database it owns the data directory
 * when no server runs, and otherwise goes through the running server's socket. The server stack
 * (MikroORM, PGlite) is imported here, on first use, so that the other commands never load it.
 */
export async function withDatabase<T>(
  location: DatabaseLocation,
  action: (orm: MikroORM, server: ServerModule) => Promise<T>,
  need: DatabaseNeed = 'migrated',
): Promise<T> {
  const connectTimeoutS = connectTimeoutSeconds();
  const server = await import('@feedbackd/server');
  const database = await server.openDatabase(location, 'operator', { mustExist: need !== 'create' }).catch((error: unknown) => {
    throw explainOpenError(error, location, server);
  });
  try {
    const orm = await server.openOrm(database, { createDatabase: need === 'create', connectTimeoutMs: connectTimeoutS * 1000 }).catch((error: unknown) => {
      throw explainOpenError(error, location, server, database);
    });
    try {
      // MikroORM connects lazily: a database PostgreSQL cannot find or reach shows up at the first query.
      const pending = await server.unappliedMigrations(orm).catch((error: unknown) => {
        throw explainOpenError(error, location, server, database);
      });
      if (need === 'migrated') {
        if (pending.length > 0) {
          throw new CliError(
            `the database ${describe(location, server)} is not migrated (${pending.length} migration${pending.length === 1 ? '' : 's'} pending); ` +
              `run \`feedback migrate${locationFlags(location, server)}\` or start \`feedback serve\` on it first`,
            EXIT.notFound,
          );
        }
      }
      return await action(orm, server).catch((error: unknown) => {
        throw explainConnectionError(error, database);
      });
    } finally {
      await orm.close();
    }
  } finally {
    await database.close();
  }
}

/** Commands that make or fill a database apply pending migrations first, as `serve` would, and say so. */
export async function ensureMigrated(orm: MikroORM, server: ServerModule, output: Output): Promise<void> {
  for (const name of await server.migrateUp(orm)) output.err(`applied migration ${name}`);
}

/** A missing database, or one PostgreSQL cannot find or reach, as one sentence that says what to do. */
function explainOpenError(error: unknown, location: DatabaseLocation, server: ServerModule, database?: Database): unknown {
  if (error instanceof server.DatabaseMissingError) {
    const flags = locationFlags(location, server);
    return new CliError(
      `no feedback database in ${error.where}: start the server there once (\`feedback serve${flags}\`) or create it with ` +
        `\`feedback migrate${flags}\`. Set FEEDBACK_DATA_DIR to use one data directory from anywhere`,
      EXIT.notFound,
    );
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '3D000') {
    return new CliError(`${(error as Error).message} (${describe(location, server)}): create it (createdb), then run \`feedback migrate${locationFlags(location, server)}\``, EXIT.notFound);
  }
  if (location.databaseUrl && (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT')) {
    return new CliError(`could not reach PostgreSQL at ${describe(location, server)} (${code}); is it running?`, EXIT.error);
  }
  return database ? explainConnectionError(error, database) : error;
}

/**
 * A connection the command could not get, or lost, as one line naming the database, instead of
 * the pool's or the driver's own words ("timeout exceeded when trying to connect").
 */
function explainConnectionError(error: unknown, database: Database): unknown {
  if (error instanceof CliError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  // The pool's words for a wait that ran out, and node-postgres's for a connection that took too long to open.
  if (/^timeout expired$|^timeout exceeded when trying to connect$|due to connection timeout/.test(error.message)) {
    const why =
      database.kind === 'embedded'
        ? 'the embedded database runs one transaction at a time: is another command holding it, or the server stuck?'
        : 'is it overloaded, or out of connections?';
    return new CliError(`could not get a connection to the database (${database.description}) within ${connectTimeoutSeconds()} s: ${why}`, EXIT.error);
  }
  // The socket of a server that has just stopped: gone (ENOENT) or refusing (ECONNREFUSED).
  const connect = (error as { syscall?: unknown }).syscall === 'connect';
  if (connect && typeof code === 'string') return new CliError(`could not connect to the database (${database.description}): ${code}; is it running?`, EXIT.error);
  if (code === 'ECONNRESET' || /^Connection terminated/.test(error.message)) {
    return new CliError(`lost the connection to the database (${database.description}): it closed the connection`, EXIT.error);
  }
  return error;
}

function describe(location: DatabaseLocation, server: ServerModule): string {
  return location.databaseUrl ? server.redactUrl(location.databaseUrl) : `in ${resolve(location.dataDir)}`;
}

/** The flags that name the same database again, for the command a message suggests. */
function locationFlags(location: DatabaseLocation, server: ServerModule): string {
  if (!location.databaseUrl) return ` --data-dir '${resolve(location.dataDir)}'`;
  const shown = server.redactUrl(location.databaseUrl);
  // Never print a password back; the reader knows which URL they gave.
  return shown === location.databaseUrl ? ` --database-url '${shown}'` : ' --database-url <the same URL>';
}
