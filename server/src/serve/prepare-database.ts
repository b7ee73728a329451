import type { MikroORM } from '@mikro-orm/postgresql';
import { openDatabase, type Database } from '../db/database.js';
import { migrateUp, migrationStatus } from '../db/migrate.js';
import { openOrm } from '../db/orm.js';
import type { Logger } from '../logger.js';
import { createApiKey } from '../admin/keys.service.js';
import { ensureProject, hasNoProjects } from '../admin/projects.service.js';
import type { ServeOptions } from './serve-options.js';

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
