import type { MikroORM } from '@mikro-orm/postgresql';

/** What `feedback migrate status` reports. */
export interface MigrationStatus {
  executed: { name: string; executedAt: string }[];
  pending: string[];
}

/** Applies every pending migration, in one transaction; returns the names applied. */
export async function migrateUp(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((migration) => migration.name);
}

/** Reverts the most recent migration; returns its name, or nothing when none was applied. */
export async function migrateDown(orm: MikroORM): Promise<string[]> {
  const reverted = await orm.migrator.down();
  return reverted.map((migration) => migration.name);
}

export async function migrationStatus(orm: MikroORM): Promise<MigrationStatus> {
  // One after the other: on a fresh database each call creates the migrations table, and two at once collide.
  const executed = await orm.migrator.getExecutedMigrations();
  const pending = await orm.migrator.getPendingMigrations();
  return {
    executed: executed.map((row) => ({ name: row.name, executedAt: new Date(row.executed_at).toISOString() })),
    pending: pending.map((migration) => migration.name),
  };
}
