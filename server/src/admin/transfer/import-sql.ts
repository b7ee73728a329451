import { counterRowsOfNewItems, countInsertedRows } from '../../domain/counters.js';
import type { RecordType } from './format.js';
import { TABLES, type TableSpec } from './tables.js';

/**
 * The two statements an import runs per batch of one record type, generated from TABLES. The
 * batch travels as one array parameter per column, then the records' line numbers, then the ids
 * of the target projects, and is unnested into the rows `b`:
 *
 * - PROBLEMS lists (at most five) rows that cannot go in as they are: an id that holds other data,
 *   another row with the same unique key, or a reference outside the row's own project;
 * - INSERT adds the rows that are not there yet (`on conflict do nothing`: a row already there,
 *   identical, is left alone) and moves the counters by exactly the rows it added.
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
  const [id, ...rest] = spec.columns;
  const idColumn = id!.column;
  const differs = rest.map((column) => `case when t.${column.column} is distinct from b.${column.column} then ${quote(column.field)} end`);
  const parts = [
    `select b.line, ${quote(`${spec.type} `)} || b.${idColumn}::text || ' exists with other data (' || array_to_string(array_remove(array[${differs.join(', ')}], null), ', ') || ')' as problem
     from b join ${spec.table} t on t.${idColumn} = b.${idColumn}
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
  const returning = spec.type === 'item' ? 'id, project_id, created_at, status, type' : spec.type === 'vote' || spec.type === 'comment' ? 'feedback_id' : '1';
  const ctes = [batchRows(spec), `inserted as (insert into ${spec.table} (${columns}) select ${columns} from b on conflict do nothing returning ${returning})`];
  if (spec.type === 'item') ctes.push(`counters as (${counterRowsOfNewItems('inserted')})`);
  if (spec.type === 'vote') ctes.push(`moved as (${countInsertedRows('inserted', 'votes')})`);
  if (spec.type === 'comment') ctes.push(`moved as (${countInsertedRows('inserted', 'comments')})`);
  return `with ${ctes.join(',\n')}
select count(*)::int as inserted from inserted`;
}

export type BatchType = Exclude<RecordType, 'project'>;

/**
 * The statements of each batch type, generated once. Both take the batch's arrays and line
 * numbers; `problems` also takes the target projects' ids when a reference check names them.
 */
export const BATCH_SQL = Object.fromEntries(
  (Object.keys(TABLES) as RecordType[])
    .filter((type): type is BatchType => type !== 'project')
    .map((type) => {
      const problems = problemsSql(TABLES[type]);
      return [type, { problems, problemsTakeProjects: problems.includes(projectsParameter(TABLES[type])), insert: insertSql(TABLES[type]) }];
    }),
) as Record<BatchType, { problems: string; problemsTakeProjects: boolean; insert: string }>;

/**
 * Moves the status changes' id sequence past the ids an import wrote, so that the next change
 * made through the API does not collide with one of them. Never moves it backwards.
 */
export const ADVANCE_STATUS_CHANGE_IDS = `select setval(pg_get_serial_sequence('feedback_status_changes', 'id'), m.id)
from (select max(id) as id from feedback_status_changes) m, feedback_status_changes_id_seq s
where m.id is not null and m.id > (case when s.is_called then s.last_value else s.last_value - 1 end)`;
