import { resolve } from 'node:path';
import type { DatabaseLocation, MikroORM } from '@feedbackd/server';
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
 * Runs an operator command on the database. On the embedded database it owns the data directory
 * when no server runs, and otherwise goes through the running server's socket. The server stack
 * (MikroORM, PGlite) is imported here, on first use, so that the other commands never load it.
 */
export async function withDatabase<T>(
  location: DatabaseLocation,
  action: (orm: MikroORM, server: ServerModule) => Promise<T>,
  need: DatabaseNeed = 'migrated',
): Promise<T> {
  const server = await import('@feedbackd/server');
  const database = await server.openDatabase(location, 'operator', { mustExist: need !== 'create' }).catch((error: unknown) => {
    throw explainOpenError(error, location, server);
  });
  try {
    const orm = await server.openOrm(database, { createDatabase: need === 'create' }).catch((error: unknown) => {
      throw explainOpenError(error, location, server);
    });
    try {
      // MikroORM connects lazily: a database PostgreSQL cannot find or reach shows up at the first query.
      const pending = await server.unappliedMigrations(orm).catch((error: unknown) => {
        throw explainOpenError(error, location, server);
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
      return await action(orm, server);
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
function explainOpenError(error: unknown, location: DatabaseLocation, server: ServerModule): unknown {
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
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT') {
    return new CliError(`could not reach PostgreSQL at ${describe(location, server)} (${code}); is it running?`, EXIT.error);
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
