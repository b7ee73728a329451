import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

/**
 * The SQL of a plain pg_dump, made runnable without psql.
 *
 * pg_dump (15.14, 16.10, 17.6 and later) wraps its output in `\restrict KEY` ... `\unrestrict KEY`:
 * psql meta-commands, which the server would take as a syntax error. They guard psql against
 * meta-commands hidden in dumped data, and nothing in this script runs through psql, so they are
 * dropped. The rest of the dump is sent as it is: its SET lines and `create extension pg_trgm`
 * run on PGlite and PostgreSQL alike (the dump holds INSERT statements, not COPY, for the same
 * reason: COPY FROM stdin needs psql).
 */
export function dumpScript(path: string): string {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => !/^\\(un)?restrict\b/.test(line))
    .join('\n');
}

/** Restores a dump into an empty PostgreSQL database (as a superuser: it creates pg_trgm). */
export async function restoreIntoPostgres(databaseUrl: string, script: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // One simple-protocol query: the whole script runs in one implicit transaction, all or nothing.
    await client.query(script);
  } finally {
    await client.end();
  }
}

/**
 * Makes an embedded data directory holding the dump, as `feedback serve --data-dir` of the
 * release that made the dump would have left it: the directory (mode 0700, as the server makes
 * it) with PGlite's files in `pgdata/` and nothing else (the lock file and the socket exist only
 * while a process owns the directory). PGlite is opened as the server opens it, with pg_trgm.
 */
export async function restoreIntoDataDir(dataDir: string, script: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = await PGlite.create({ dataDir: join(dataDir, 'pgdata'), extensions: { pg_trgm } });
  try {
    await db.exec(script);
  } finally {
    await db.close();
  }
}
