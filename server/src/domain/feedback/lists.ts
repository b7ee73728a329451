import type { ListFeedbackQuery } from '@feedbackd/sdk/contract';
import { buildList, FIELD_SEPARATOR, type ListStatement } from './feedback.sql.js';

/*
 * A list's statement (spec 4.3), the one way to read a list: the API's handler (feedback.route.ts)
 * and the board's and the team's lists (web/) all read theirs here.
 */

const listStatements = new Map<string, ListStatement>();

/**
 * The statement for one shape of list (sort x which filters are present x search), built once by
 * `buildList` (feedback.sql.ts, which says how each shape reads). One statement per shape keeps
 * every generic plan simple: no `$n is null or ...` branches.
 */
export function listStatement(query: Pick<ListFeedbackQuery, 'sortBy' | 'status' | 'type' | 'search'>, options: { votedBy?: boolean } = {}): ListStatement {
  const params: ListStatement['params'] = [];
  if (query.status) params.push('status');
  if (query.type) params.push('type');
  if (query.search) params.push('search');
  const perColumn = query.search?.includes(FIELD_SEPARATOR) ?? false;
  const votedBy = options.votedBy ?? false;
  const name = `list_${query.sortBy}_${params.join('_') || 'all'}${perColumn ? '_per_column' : ''}${votedBy ? '_voted' : ''}`;
  let statement = listStatements.get(name);
  if (!statement) {
    statement = { name, params, votedBy, text: buildList(query.sortBy, params, perColumn, votedBy) };
    listStatements.set(name, statement);
  }
  return statement;
}

/** The values of a list statement's parameters, in its order; `voterKey` for a statement made with `votedBy`. */
export function listValues(statement: ListStatement, projectId: string, query: ListFeedbackQuery, voterKey?: string): unknown[] {
  const values: unknown[] = [projectId, query.limit, (query.page - 1) * query.limit];
  for (const param of statement.params) {
    if (param === 'status') values.push(query.status);
    if (param === 'type') values.push(query.type);
    if (param === 'search') values.push(`%${escapeLike(query.search ?? '')}%`);
  }
  if (statement.votedBy) values.push(voterKey);
  return values;
}

/** A search is a plain substring: `%`, `_` and `\` match themselves (backslash is LIKE's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
