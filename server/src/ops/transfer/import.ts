import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ormConnection } from '../../db/orm-connections.js';
import { LEGACY_VOTER_KEY, rekeyLegacyVoterKey } from '../../db/voter-secret.js';
import { DumpFormatError, parseHeader, parseRecord, RECORD_TYPES, type DumpCounts, type DumpHeader, type DumpRecord, type RecordData, type RecordType } from './format.js';
import { ADVANCE_STATUS_CHANGE_IDS, BATCH_SQL, SUBSCRIBE_PARTICIPANTS, type BatchStatement, type BatchType } from './import-sql.js';
import { importProject, type ProjectOutcome } from './import-projects.js';
import { spoolLines } from './spool.js';
import { TABLES, type SqlClient } from './tables.js';

export interface ImportOptions {
  /** Import the dump's one project under this slug instead of its own. */
  project?: string | undefined;
  /** Called after each batch, with the records read so far and the header's total. */
  onProgress?: (progress: TransferProgress) => void;
  /** Records per statement (default 2000). */
  batchSize?: number;
  /**
   * Read `lines` to their end (into a private temporary file) before the transaction begins. For
   * input that may itself wait on this database, a pipe from `feedback export` above all: the
   * transaction would otherwise wait for its writer, and on the embedded database, where an open
   * transaction holds the one session, the writer would wait for the transaction.
   */
  spoolInput?: boolean;
  /**
   * The voter secret of this database (db/voter-secret.ts, voterSecretOf), asked for at the first
   * anonymous vote keyed as before it (`ip:`, a dump of an older server): such a key is re-keyed
   * as this server keys the same voter. Without it, such a dump is refused.
   */
  voterSecret?: () => Promise<Buffer>;
}

export interface TransferProgress {
  done: number;
  total: number;
  seconds: number;
}

export interface ImportSummary {
  /** The dump's format version and export time, from its header. */
  version: number;
  exportedAt: string;
  projects: ProjectOutcome[];
  /** Records read, per type. */
  records: DumpCounts;
  /** Rows added, per type (projects: those created). The rest were there already, identical. */
  inserted: DumpCounts;
  seconds: number;
  recordsPerSecond: number;
}

/**
 * Rows of a dump that do not fit the database: an id that holds other data here, another row with
 * the same unique key, or a reference outside the row's project. The import then changes nothing.
 */
export class ImportConflictError extends Error {
  constructor(readonly problems: { line: number; problem: string }[]) {
    super(
      `the dump does not fit this database, nothing was imported: ${problems.map((p) => `line ${p.line}: ${p.problem}`).join('; ')}` +
        (problems.length >= 5 ? '; …' : ''),
    );
    this.name = 'ImportConflictError';
  }
}

/** The lines of a dump read from a stream (a file, stdin), without their line breaks. */
export function dumpLines(input: Readable): AsyncIterable<string> {
  // The iterator is made at once: readline starts reading now, and a line it reads before anyone
  // iterates (importDump first opens its transaction) would otherwise be dropped, not buffered.
  const iterator = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  return { [Symbol.asyncIterator]: () => iterator };
}

const zeroCounts = (): DumpCounts => Object.fromEntries(RECORD_TYPES.map((type) => [type, 0])) as DumpCounts;

/**
 * Imports a dump of `feedback export` in one transaction: all of it, or (on any error) nothing.
 * Rows keep their ids and timestamps. A row already there with the same data is left alone, so
 * importing a dump twice changes nothing the second time; a row whose id holds other data stops
 * the import (ImportConflictError). Counters move with the rows they count, in the statements
 * that insert them (db/counters.sql.ts), and the (status, type) totals by the triggers on
 * `feedback`, so every counter is exact whatever the database held before.
 *
 * Operator side, raw SQL on one connection of the ORM's pool: the records go in as set-based
 * batches (arrays unnested), never one statement per row, and are read line by line, never held
 * whole. `input` is read inside the transaction unless `spoolInput` says otherwise.
 */
export async function importDump(orm: MikroORM, input: AsyncIterable<string>, options: ImportOptions = {}): Promise<ImportSummary> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const spooled = options.spoolInput ? await spoolLines(input) : undefined;
  try {
    return await importLines(orm, spooled?.lines ?? input, options, seconds);
  } finally {
    await spooled?.close();
  }
}

async function importLines(orm: MikroORM, lines: AsyncIterable<string>, options: ImportOptions, seconds: () => number): Promise<ImportSummary> {
  const batchSize = options.batchSize ?? 2000;
  const client = await ormConnection(orm);
  let header: DumpHeader | undefined;
  const records = zeroCounts();
  const inserted = zeroCounts();
  const projects: ProjectOutcome[] = [];
  // The dump's project ids, and the ids of the projects they go into here.
  const projectIds = new Map<string, string>();
  let batch: Batch | undefined;
  let current = -1;
  let total = 0;
  let done = 0;

  const flush = async () => {
    if (!batch || batch.lines.length === 0) return;
    const sql = BATCH_SQL[batch.type];
    const rowsParameters = [...batch.columns, batch.lines];
    const parameters = (statement: BatchStatement) => (statement.takesProjects ? [...rowsParameters, [...projectIds.values()]] : rowsParameters);
    const { rows } = await client.query<{ inserted: number }>(sql.insert.text, parameters(sql.insert));
    if (rows[0]!.inserted < batch.lines.length) {
      // Some rows were left out: those already here, identical, are fine; any other is a problem.
      const { rows: problems } = await client.query<{ line: number; problem: string }>(sql.problems.text, parameters(sql.problems));
      if (problems.length > 0) throw new ImportConflictError(problems);
    }
    inserted[batch.type] += rows[0]!.inserted;
    done += batch.lines.length;
    batch = newBatch(batch.type);
    options.onProgress?.({ done, total, seconds: seconds() });
  };

  let secret: Buffer | undefined;
  const rekeyLegacyVote = async (vote: RecordData<'vote'>, lineNumber: number) => {
    if (!LEGACY_VOTER_KEY.test(vote.voterKey)) return;
    if (!options.voterSecret) throw new DumpFormatError(lineNumber, 'an anonymous vote keyed as before the voter secret needs the voter secret to be imported');
    secret ??= await options.voterSecret();
    vote.voterKey = rekeyLegacyVoterKey(secret, vote.voterKey);
  };

  try {
    await client.query('begin');
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber += 1;
      // A blank line (an editor's last line) carries nothing.
      if (line.trim() === '') continue;
      if (!header) {
        if (lineNumber !== 1) throw new DumpFormatError(lineNumber, 'the header must be the first line');
        header = parseHeader(line);
        total = RECORD_TYPES.reduce((sum, type) => sum + header!.counts[type], 0);
        if (options.project !== undefined && header.counts.project !== 1) {
          throw new DumpFormatError(1, `importing under another slug (--project) needs a dump of one project; this one holds ${header.counts.project}`);
        }
        continue;
      }
      const record = parseRecord(line, lineNumber);
      const order = RECORD_TYPES.indexOf(record.type);
      if (order < current) {
        throw new DumpFormatError(lineNumber, `${/^[aeiou]/.test(record.type) ? 'an' : 'a'} ${record.type} record after ${RECORD_TYPES[current]} records: a dump holds ${RECORD_TYPES.join(', ')} records, in that order`);
      }
      if (order > current) {
        await flush();
        current = order;
        if (record.type !== 'project') batch = newBatch(record.type);
      }
      records[record.type] += 1;
      if (record.type === 'project') {
        const data = record.data as RecordData<'project'>;
        if (projectIds.has(data.id)) throw new DumpFormatError(lineNumber, `the project ${data.id} appears twice`);
        if (options.project !== undefined && projects.length > 0) throw new DumpFormatError(lineNumber, 'importing under another slug (--project) needs a dump of one project');
        const outcome = await importProject(client, data, options.project ?? data.slug);
        projects.push(outcome);
        projectIds.set(data.id, outcome.id);
        if (outcome.created) inserted.project += 1;
        done += 1;
        continue;
      }
      if (record.type === 'vote') await rekeyLegacyVote(record.data as RecordData<'vote'>, lineNumber);
      add(batch!, record, lineNumber, projectIds);
      if (batch!.lines.length >= batchSize) await flush();
    }
    if (!header) throw new DumpFormatError(Math.max(1, lineNumber), 'the dump is empty: it has no header');
    await flush();
    const missing = RECORD_TYPES.filter((type) => records[type] !== header!.counts[type]);
    if (missing.length > 0) {
      const which = missing.map((type) => `${records[type]} ${type} records where the header announces ${header!.counts[type]}`).join(', ');
      throw new DumpFormatError(lineNumber, `the dump ends with ${which}: is it cut short, or edited?`);
    }
    if (inserted.statusChange > 0) await client.query(ADVANCE_STATUS_CHANGE_IDS);
    if (header.version < 3 && projects.length > 0) await client.query(SUBSCRIBE_PARTICIPANTS, [projects.map((project) => project.id)]);
    // Fresh statistics for the rows added, so that the planner sees them at once.
    if (RECORD_TYPES.some((type) => type !== 'project' && inserted[type] > 0)) await client.query('analyze feedback, feedback_counters, votes, comments, end_users');
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  const elapsed = seconds();
  const count = RECORD_TYPES.reduce((sum, type) => sum + records[type], 0);
  return {
    version: header!.version,
    exportedAt: header!.exportedAt,
    projects,
    records,
    inserted,
    seconds: Math.round(elapsed * 1000) / 1000,
    recordsPerSecond: elapsed > 0 ? Math.round(count / elapsed) : 0,
  };
}

/** The records of one type waiting for their statement: one array per column, and their lines. */
interface Batch {
  type: BatchType;
  columns: unknown[][];
  lines: number[];
  /** Every unique key of the batch's rows (the id, and each other unique key), with its line. */
  keys: Map<string, number>;
}

function newBatch(type: RecordType): Batch {
  if (type === 'project') throw new Error('projects are not batched');
  return { type, columns: TABLES[type].columns.map(() => []), lines: [], keys: new Map() };
}

function add(batch: Batch, record: DumpRecord, lineNumber: number, projectIds: Map<string, string>): void {
  const spec = TABLES[batch.type];
  const data = { ...record.data };
  if ('projectId' in data) {
    const target = projectIds.get(data.projectId as string);
    if (!target) throw new DumpFormatError(lineNumber, `projectId ${String(data.projectId)} is not a project of the dump`);
    data.projectId = target;
  }
  // Two rows of one statement with the same key would meet in no table yet: look for them here.
  // (Rows of earlier batches are in the table by now, where the problems statement finds them.)
  for (const key of [spec.key ?? [spec.columns[0]!.column], ...spec.uniques]) {
    const values = key.map((name) => data[spec.columns.find((column) => column.column === name)!.field]);
    // As in a unique index, a key with a null in it is no one's (a held post that is not an edit).
    if (values.some((value) => value === null || value === undefined)) continue;
    const value = `${key.join(',')}:${values.map(String).join('\u0000')}`;
    const seen = batch.keys.get(value);
    if (seen !== undefined) throw new DumpFormatError(lineNumber, `the same ${key.length === 1 ? 'id' : 'key'} as line ${seen} (${key.join(', ')})`);
    batch.keys.set(value, lineNumber);
  }
  spec.columns.forEach((column, i) => {
    const value = data[column.field] ?? null;
    batch.columns[i]!.push(value !== null && column.type === 'jsonb' ? JSON.stringify(value) : value);
  });
  batch.lines.push(lineNumber);
}

