import type { MikroORM } from '@mikro-orm/postgresql';
import { ormConnection } from '../../db/orm-connections.js';
import { ProjectNotFoundError } from '../../domain/projects/projects.service.js';
import { DUMP_FORMAT, DUMP_VERSION, RECORD_TYPES, recordLine, type DumpCounts, type DumpHeader } from './format.js';
import type { TransferProgress } from './import.js';
import { Spool } from './spool.js';
import { exportCount, exportSelect, rowToData } from './export-sql.js';
import { TABLES, type SqlClient } from './tables.js';

export interface ExportOptions {
  /** Export this project only (by slug); default every project. */
  project?: string | undefined;
  /** The header's export time; default now. */
  exportedAt?: Date;
  /** Called after each page of rows. */
  onProgress?: (progress: TransferProgress) => void;
  /** Rows fetched per round trip (default 2000). */
  pageSize?: number;
}

export interface ExportSummary {
  project: string | null;
  counts: DumpCounts;
  records: number;
  seconds: number;
  recordsPerSecond: number;
}

/**
 * Writes a dump of a project, or of every project, to `write`, one chunk per page of rows (each
 * chunk whole lines); `write` may return a promise to hold the export back until the chunk is
 * taken (a stream's backpressure). The header comes first, with the counts of every record type.
 *
 * It reads one snapshot (a read-only repeatable-read transaction), so the counts, the rows and
 * their references agree with each other whatever the server changes meanwhile. Rows come in id
 * order through cursors, a page at a time, never the whole database at once. Two exports of the
 * same data are the same bytes, save the header's `exportedAt`.
 *
 * Where the snapshot waits for `write` depends on the database. PostgreSQL keeps a snapshot
 * without stopping anyone, so there each page goes to `write` as it is fetched. The embedded
 * database is one session: while the transaction is open every other connection, the server's
 * included, waits. There the pages go to a private temporary file (spool.ts) as fast as the
 * database gives them, the transaction ends, and only then does the file go to `write`: the
 * server waits for the reading of the data, never for a slow reader of the dump (or for an
 * import that needs the same database to read it).
 */
export async function exportDump(orm: MikroORM, write: (chunk: string) => unknown, options: ExportOptions = {}): Promise<ExportSummary> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const pageSize = options.pageSize ?? 2000;
  const client = await ormConnection(orm);
  let spool: Spool | undefined;
  const counts = {} as DumpCounts;
  let total = 0;
  let done = 0;
  const deliver = async (text: string, records: number) => {
    await write(text);
    done += records;
    if (records > 0) options.onProgress?.({ done, total, seconds: seconds() });
  };
  try {
    const kept = (await isOneSession(client)) ? (spool = await Spool.open()) : undefined;
    const out = kept ? (text: string, records: number) => kept.append(text, records) : deliver;
    await client.query('begin transaction isolation level repeatable read read only');
    try {
      const { rows: projects } = await client.query<{ id: string }>(
        options.project === undefined ? 'select id::text as id from projects' : 'select id::text as id from projects where slug = $1',
        options.project === undefined ? [] : [options.project],
      );
      if (options.project !== undefined && projects.length === 0) throw new ProjectNotFoundError(options.project);
      const projectIds = projects.map((project) => project.id);

      for (const type of RECORD_TYPES) {
        const { rows } = await client.query<{ n: number }>(exportCount(TABLES[type]), [projectIds]);
        counts[type] = rows[0]!.n;
      }
      total = RECORD_TYPES.reduce((sum, type) => sum + counts[type], 0);
      const header: DumpHeader = {
        type: 'header',
        format: DUMP_FORMAT,
        version: DUMP_VERSION,
        exportedAt: (options.exportedAt ?? new Date()).toISOString(),
        project: options.project ?? null,
        counts,
      };
      await out(`${JSON.stringify(header)}\n`, 0);

      for (const type of RECORD_TYPES) {
        const spec = TABLES[type];
        await client.query(`declare dump_rows no scroll cursor for ${exportSelect(spec)}`, [projectIds]);
        const fetchPage = () => {
          const page = client.query(`fetch forward ${pageSize} from dump_rows`);
          // Awaited below, unless writing the page before it failed: that error is the one to report.
          page.catch(() => {});
          return page;
        };
        let page = fetchPage();
        for (;;) {
          const { rows } = await page;
          if (rows.length === 0) break;
          // The database reads the next page while this one becomes lines: a shorter snapshot.
          page = fetchPage();
          await out(rows.map((row) => `${recordLine(type, rowToData(spec, row))}\n`).join(''), rows.length);
        }
        await client.query('close dump_rows');
      }
    } finally {
      // Read only: there is nothing to keep, whichever way it ended.
      await client.query('rollback').catch(() => {});
    }
  } catch (error) {
    await spool?.close();
    throw error;
  } finally {
    client.release();
  }
  if (spool) {
    // The snapshot is closed and the connection back in the pool: the reader may take its time.
    try {
      for await (const chunk of spool.chunks()) await deliver(chunk.text, chunk.records);
    } finally {
      await spool.close();
    }
  }
  const elapsed = seconds();
  return {
    project: options.project ?? null,
    counts,
    records: total,
    seconds: Math.round(elapsed * 1000) / 1000,
    recordsPerSecond: elapsed > 0 ? Math.round(total / elapsed) : 0,
  };
}

/**
 * Whether the database is the embedded one (PGlite), where every connection shares one backend
 * session. Asked of the database itself, so that every caller gets it right however it connected.
 */
async function isOneSession(client: SqlClient): Promise<boolean> {
  const { rows } = await client.query<{ pglite: boolean }>(`select version() like '%PGlite%' as pglite`);
  return rows[0]!.pglite;
}
