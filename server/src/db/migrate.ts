import type { MikroORM } from '@mikro-orm/postgresql';
import { FORMER_NAMES } from './migrations/former-names.js';
import { migrationsList } from './migrations/index.js';

/** What `feedback migrate status` reports. */
export interface MigrationStatus {
  executed: { name: string; executedAt: string }[];
  pending: string[];
}

/** Applies every pending migration, in one transaction; returns the names applied. */
export async function migrateUp(orm: MikroORM): Promise<string[]> {
  await adoptFormerNames(orm);
  const applied = await orm.migrator.up();
  return applied.map((migration) => migration.name);
}

/** Reverts the most recent migration; returns its name, or nothing when none was applied. */
export async function migrateDown(orm: MikroORM): Promise<string[]> {
  await adoptFormerNames(orm);
  const reverted = await orm.migrator.down();
  return reverted.map((migration) => migration.name);
}

export async function migrationStatus(orm: MikroORM): Promise<MigrationStatus> {
  await adoptFormerNames(orm);
  // One after the other: on a fresh database each call creates the migrations table, and two at once collide.
  const executed = await orm.migrator.getExecuted();
  const pending = await orm.migrator.getPending();
  return {
    executed: executed.map((row) => ({ name: row.name, executedAt: new Date(row.executed_at).toISOString() })),
    pending: pending.map((migration) => migration.name),
  };
}

/**
 * The migrations this version has that the database has not applied, read without writing: the
 * migrator's own status calls create its table, and a command that must not create anything
 * (`feedback keys` on a database nobody migrated) asks this instead.
 */
export async function unappliedMigrations(orm: MikroORM): Promise<string[]> {
  const connection = orm.em.getConnection();
  const known = migrationsList.map((migration) => migration.name);
  const [table] = await connection.execute<{ present: boolean }[]>(`select to_regclass('mikro_orm_migrations') is not null as present`);
  if (!table?.present) return known;
  const rows = await connection.execute<{ name: string }[]>('select name from mikro_orm_migrations');
  const applied = new Set(rows.map((row) => currentName(row.name)));
  return known.filter((name) => !applied.has(name));
}

/** A recorded name as this version calls it: without the file ending some MikroORM versions stored, and renamed if it was renamed. */
function currentName(recorded: string): string {
  const bare = recorded.replace(/\.[jt]s$/, '');
  return FORMER_NAMES.get(bare) ?? bare;
}

/**
 * Rewrites the names of migrations recorded before 0.2.0 numbered them (former-names.ts) to the
 * names they have now, so that the migrator sees them as applied and does not run them again. One
 * statement, so it is whole or not at all, and nothing to do once done: two processes starting on
 * one database both run it harmlessly. The rows keep their ids and times.
 */
async function adoptFormerNames(orm: MikroORM): Promise<void> {
  const connection = orm.em.getConnection();
  const [table] = await connection.execute<{ present: boolean }[]>(`select to_regclass('mikro_orm_migrations') is not null as present`);
  if (!table?.present) return;
  await connection.execute(
    `update mikro_orm_migrations m set name = r.value
       from jsonb_each_text(?::jsonb) as r
      where regexp_replace(m.name, '\\.[jt]s$', '') = r.key`,
    // One JSON object, not arrays: the driver would spread an array into a list of placeholders.
    [JSON.stringify(Object.fromEntries(FORMER_NAMES))],
  );
}
