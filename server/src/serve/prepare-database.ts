import type { MikroORM } from '@mikro-orm/postgresql';
import { openDatabase, type Database } from '../db/database.js';
import { migrateUp, migrationStatus } from '../db/migrate.js';
import { openOrm } from '../db/orm.js';
import { ormConnection } from '../db/orm-connections.js';
import { loadVoterSecret, rekeyLegacyVoters, VOTER_SECRET_VARIABLE } from '../db/voter-secret.js';
import type { Logger } from '../logger.js';
import { createApiKey } from '../domain/projects/keys.service.js';
import { ensureProject, hasNoProjects } from '../domain/projects/projects.service.js';
import type { ServeOptions } from './serve-options.js';

/**
 * What happens once per machine before serving: open the database (and own the embedded one),
 * apply migrations, on an empty database create the default project and its first key, and read
 * the voter secret (made on the first start), re-keying anonymous votes made before it.
 */
export async function prepareDatabase(options: ServeOptions, logger: Logger): Promise<{ database: Database; orm: MikroORM; voterSecret: Buffer }> {
  const database = await openDatabase(options, 'server');
  let orm: MikroORM | undefined;
  try {
    orm = await openOrm(database, { log: (message) => logger.debug(message), createDatabase: true });
    logger.info('database ready', { database: database.description });
    await prepareSchema(orm, logger, options.migrate ?? true);
    await mintFirstKey(orm, options.onFirstKey);
    const voterSecret = await prepareVoterSecret(orm, options, logger);
    return { database, orm, voterSecret };
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

async function prepareVoterSecret(orm: MikroORM, options: ServeOptions, logger: Logger): Promise<Buffer> {
  const client = await ormConnection(orm);
  try {
    const secret = await loadVoterSecret(client, options, options.voterSecret === undefined ? process.env : { [VOTER_SECRET_VARIABLE]: options.voterSecret });
    const rekeyed = await rekeyLegacyVoters(client, secret);
    if (rekeyed > 0) logger.info('anonymous voters re-keyed under the voter secret', { votes: rekeyed });
    return secret;
  } finally {
    client.release();
  }
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
