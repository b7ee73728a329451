import { exportDump, migrateUp, openDatabase, openOrm, type ExportOptions, type MikroORM } from '@feedbackd/server';
import type { Backend, FreshDatabase } from './backends.js';

/** The export time written into the test dumps, so that two dumps of the same data are the same bytes. */
export const EXPORTED_AT = new Date('2026-06-01T12:00:00.000Z');

/** A dump as one string. */
export async function dumpOf(orm: MikroORM, options: ExportOptions = {}): Promise<string> {
  let text = '';
  await exportDump(orm, (chunk) => void (text += chunk), { exportedAt: EXPORTED_AT, ...options });
  return text;
}

/** A dump's lines, as importDump reads them from a file. */
export async function* linesOf(text: string): AsyncIterable<string> {
  for (const line of text.split('\n')) yield line;
}

/**
 * Per table of the schema, the row count and an md5 over every row in a fixed order: two equal
 * digests mean the table did not change at all.
 */
export async function tableDigests(orm: MikroORM): Promise<Record<string, string>> {
  const em = orm.em.fork();
  const tables = await em.execute<{ name: string }[]>(`select tablename as name from pg_tables where schemaname = 'public' order by tablename`);
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await em.execute<{ n: number; md5: string | null }[]>(`select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as md5 from "${name}" t`);
    digests[name] = `${row!.n} ${row!.md5 ?? ''}`;
  }
  return digests;
}

/** An empty, migrated database opened as an operator command opens it, and how to let go of it. */
export interface EmptyDatabase {
  fresh: FreshDatabase;
  orm: MikroORM;
  /** Closes the ORM and the database, keeping the data (for a server to start on it). */
  close(): Promise<void>;
  /** Closes and drops it. */
  drop(): Promise<void>;
}

export async function emptyDatabase(backend: Backend): Promise<EmptyDatabase> {
  const fresh = await backend.createMigrated();
  const database = await openDatabase(fresh.location, 'operator');
  const orm = await openOrm(database);
  await migrateUp(orm);
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await orm.close();
    await database.close();
  };
  return { fresh, orm, close, drop: async () => (await close(), await fresh.drop()) };
}
