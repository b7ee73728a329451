import type { Column, TableSpec } from './tables.js';

/*
 * The export's statements, generated from TABLES (tables.ts) as import-sql.ts generates the
 * import's: each record type's rows of the dump's projects, and how a row becomes a record.
 */

/** A column as the export reads it: text the record carries as is (timestamps in UTC, with milliseconds). */
function exportExpression(column: Column): string {
  const name = `t.${column.column}`;
  switch (column.type) {
    case 'timestamptz':
      return `to_char(${name} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    case 'uuid':
    case 'jsonb':
    case 'bigint':
      return `${name}::text`;
    default:
      return name;
  }
}

/** Every row of the table that belongs to the projects `$1`, in id order: the same data gives the same order. */
export function exportSelect(spec: TableSpec): string {
  const columns = spec.columns.map((column) => `${exportExpression(column)} as "${column.field}"`).join(', ');
  return `select ${columns} from ${spec.table} t where ${spec.inProjects} order by ${spec.order ?? `t.${spec.columns[0]!.column}`}`;
}

export function exportCount(spec: TableSpec): string {
  return `select count(*)::int as n from ${spec.table} t where ${spec.inProjects}`;
}

/** A row of exportSelect as the record's data, its fields in the column order. */
export function rowToData(spec: TableSpec, row: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const column of spec.columns) {
    const value = row[column.field] ?? null;
    data[column.field] = value === null ? null : column.type === 'jsonb' ? JSON.parse(value as string) : column.type === 'bigint' ? Number(value) : value;
  }
  return data;
}
