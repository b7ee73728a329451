import { migrateUp, openDatabase, openOrm, type DatabaseLocation, type MikroORM } from '@feedbackd/server';
import type { Output } from './output.js';

/**
 * Runs an operator command on the database. On the embedded database it owns the data directory
 * when no server runs, and otherwise goes through the running server's socket.
 */
export async function withDatabase<T>(location: DatabaseLocation, action: (orm: MikroORM) => Promise<T>): Promise<T> {
  const database = await openDatabase(location, 'operator');
  try {
    const orm = await openOrm(database);
    try {
      return await action(orm);
    } finally {
      await orm.close();
    }
  } finally {
    await database.close();
  }
}

/** Commands that need the tables apply pending migrations first, as `serve` would, and say so. */
export async function ensureMigrated(orm: MikroORM, output: Output): Promise<void> {
  for (const name of await migrateUp(orm)) output.err(`applied migration ${name}`);
}
