import { counterRowsOfNewItems, countInsertedRows } from '../../db/counters.sql.js';
import type { RecordType } from './format.js';
import { TABLES, type TableSpec } from './tables.js';
import { SUBSCRIPTION_REASONS } from '../../domain/subscriptions/reasons.js';

/**
 * The two statements an import runs per batch of one record type, generated from TABLES. The
 * batch travels as one array parameter per column, then the records' line numbers (and, where a
 * reference check names them, the ids of the target projects), and is unnested into the rows `b`:
 *
 * - INSERT adds the rows that are not there yet and whose references stay inside their project
 *   (`on conflict do nothing`: a row already there is left alone), and moves the counters by
 *   exactly the rows it added;
 * - PROBLEMS runs only when INSERT added fewer rows than the batch holds, and tells why: it lists
 *   (at most five) rows whose id holds other data, rows with another row's unique key, and rows
 *   that point outside their project. Rows already there, identical, are no problem. Any problem
 *   rolls the whole import back.
 *
 * So a fresh import pays one statement per batch, and the checks run where rows were left out.
 */

function batchRows(spec: TableSpec): string {
  const arrays = spec.columns.map((column, i) => `$${i + 1}::${column.type}[]`);
  arrays.push(`$${spec.columns.length + 1}::int[]`);
  return `b as (select * from unnest(${arrays.join(', ')}) as b (${spec.columns.map((column) => column.column).join(', ')}, line))`;
}

function projectsParameter(spec: TableSpec): string {
  return `$${spec.columns.length + 2}`;
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

function problemsSql(spec: TableSpec): string {
  const key = spec.key ?? [spec.columns[0]!.column];
  const idColumn = key[0]!;
  const rest = spec.columns.filter((column) => !key.includes(column.column));
  const differs = rest.map((column) => `case when t.${column.column} is distinct from b.${column.column} then ${quote(column.field)} end`);
  const named = key.map((column) => `b.${column}::text`).join(` || ' ' || `);
  const parts = [
    `select b.line, ${quote(`${spec.type} `)} || ${named} || ' exists with other data (' || array_to_string(array_remove(array[${differs.join(', ')}], null), ', ') || ')' as problem
     from b join ${spec.table} t on ${key.map((column) => `t.${column} = b.${column}`).join(' and ')}
     where row(${rest.map((column) => `t.${column.column}`).join(', ')}) is distinct from row(${rest.map((column) => `b.${column.column}`).join(', ')})`,
  ];
  for (const unique of spec.uniques) {
    const fields = unique.map((name) => spec.columns.find((column) => column.column === name)!.field);
    parts.push(
      `select b.line, ${quote(`another ${spec.type} (`)} || t.${idColumn}::text || ${quote(`) has the same ${fields.join(' and ')}`)}
       from b join ${spec.table} t on ${unique.map((name) => `t.${name} = b.${name}`).join(' and ')} and t.${idColumn} <> b.${idColumn}`,
    );
  }
  for (const reference of spec.references) {
    parts.push(
      `select b.line, ${quote(`${reference.field} `)} || b.${reference.column}::text || ${quote(` is not ${reference.what}`)}
       from b where b.${reference.column} is not null and not exists (${reference.exists.replace('$projects', projectsParameter(spec))})`,
    );
  }
  return `with ${batchRows(spec)}
select line, problem from (${parts.join('\nunion all\n')}) p order by line limit 5`;
}

function insertSql(spec: TableSpec): string {
  const columns = spec.columns.map((column) => column.column).join(', ');
  const returning = spec.type === 'item' ? 'id, project_id, created_at, status, type' : spec.type === 'vote' ? 'feedback_id' : spec.type === 'comment' ? 'feedback_id, is_internal' : '1';
  const valid = spec.references.map((reference) => `(b.${reference.column} is null or exists (${reference.exists.replace('$projects', projectsParameter(spec))}))`);
  const rows = `select ${spec.columns.map((column) => `b.${column.column}`).join(', ')} from b${valid.length > 0 ? ` where ${valid.join(' and ')}` : ''}`;
  const ctes = [batchRows(spec), `inserted as (insert into ${spec.table} (${columns}) ${rows} on conflict do nothing returning ${returning})`];
  if (spec.type === 'item') ctes.push(`counters as (${counterRowsOfNewItems('inserted i')})`);
  if (spec.type === 'vote') ctes.push(`moved as (${countInsertedRows('inserted', 'votes')})`);
  // Internal notes are never counted (comment_count counts what a public key sees).
  if (spec.type === 'comment') ctes.push(`moved as (${countInsertedRows('(select feedback_id from inserted where not is_internal) i', 'comments')})`);
  return `with ${ctes.join(',\n')}
select count(*)::int as inserted from inserted`;
}

export type BatchType = Exclude<RecordType, 'project'>;

/** A statement, and whether it takes the target projects' ids after the batch's arrays and line numbers. */
export interface BatchStatement {
  text: string;
  takesProjects: boolean;
}

/** The statements of each batch type, generated once. */
export const BATCH_SQL = Object.fromEntries(
  (Object.keys(TABLES) as RecordType[])
    .filter((type): type is BatchType => type !== 'project')
    .map((type) => {
      const statement = (text: string): BatchStatement => ({ text, takesProjects: text.includes(projectsParameter(TABLES[type])) });
      return [type, { insert: statement(insertSql(TABLES[type])), problems: statement(problemsSql(TABLES[type])) }];
    }),
) as Record<BatchType, { insert: BatchStatement; problems: BatchStatement }>;

/**
 * Moves the status changes' id sequence past the ids an import wrote, so that the next change
 * made through the API does not collide with one of them. Never moves it backwards.
 */
export const ADVANCE_STATUS_CHANGE_IDS = `select setval(pg_get_serial_sequence('feedback_status_changes', 'id'), m.id)
from (select max(id) as id from feedback_status_changes) m, feedback_status_changes_id_seq s
where m.id is not null and m.id > (case when s.is_called then s.last_value else s.last_value - 1 end)`;

/**
 * A dump older than version 3 carries no subscriptions: the import subscribes the submitters,
 * voters and (end-user) commenters of the projects `$1` (uuid[]) as Migration0021 did for
 * the rows it found, so that no one who took part before is missed. Rows already there stay.
 */
export const SUBSCRIBE_PARTICIPANTS = `insert into subscriptions (feedback_id, end_user_id, project_id, reasons)
  select feedback_id, end_user_id, project_id, bit_or(reason)::smallint from (
    select f.id as feedback_id, f.end_user_id, f.project_id, ${SUBSCRIPTION_REASONS.submitted} as reason
      from feedback f where f.end_user_id is not null and f.project_id = any($1::uuid[])
    union all
    select v.feedback_id, v.end_user_id, f.project_id, ${SUBSCRIPTION_REASONS.voted}
      from votes v join feedback f on f.id = v.feedback_id where v.end_user_id is not null and f.project_id = any($1::uuid[])
    union all
    select c.feedback_id, c.author_end_user_id, f.project_id, ${SUBSCRIPTION_REASONS.commented}
      from comments c join feedback f on f.id = c.feedback_id
      where c.author_end_user_id is not null and not c.is_team and f.project_id = any($1::uuid[])
  ) as taking_part
  group by feedback_id, end_user_id, project_id
  on conflict do nothing`;
