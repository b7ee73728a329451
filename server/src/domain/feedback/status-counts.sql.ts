import type { ListFeedbackQuery } from '@feedbackd/sdk/contract';
import { FIELD_SEPARATOR, itemFilters, type ListStatement } from './feedback.sql.js';
import { escapeLike } from './lists.js';

/*
 * How many of a project's items each status has, under a list's type and search filters: the
 * team inbox's status tabs (web/team/status-counts.ts). The list's status filter is left out, as
 * the tabs are the choice of status; the type and search filters are kept, so each tab's count is
 * the total of the list its link opens.
 */

/** The statement for one shape (which of type and search are given); $1 the project, then those. */
export interface StatusCountsStatement {
  name: string;
  text: string;
  params: ('type' | 'search')[];
}

const statements = new Map<string, StatusCountsStatement>();

/**
 * One row per status with items: `status`, `items`. Without a search, it sums the project's
 * feedback_stats cells (the counts the list's total sums, kept by trigger); with one, it counts
 * the matches in one pass of the trigram index, with the list's own conditions (itemFilters).
 */
export function statusCountsStatement(query: Pick<ListFeedbackQuery, 'type' | 'search'>): StatusCountsStatement {
  const params: StatusCountsStatement['params'] = [];
  if (query.type) params.push('type');
  if (query.search) params.push('search');
  const perColumn = query.search?.includes(FIELD_SEPARATOR) ?? false;
  const name = `status_counts_${params.join('_') || 'all'}${perColumn ? '_per_column' : ''}`;
  let statement = statements.get(name);
  if (!statement) {
    const placeholder = (param: ListStatement['params'][number]) => `$${2 + params.indexOf(param as 'type' | 'search')}`;
    const text = query.search
      ? `select f.status, count(*)::int as items from feedback f where ${itemFilters(params, perColumn, placeholder).join(' and ')} group by f.status`
      : `select s.status, sum(s.item_count)::int as items from feedback_stats s
         where s.project_id = $1${params.includes('type') ? ` and s.type = any(${placeholder('type')}::text[])` : ''} group by s.status`;
    statement = { name, text, params };
    statements.set(name, statement);
  }
  return statement;
}

/** The statement's values, in its order. */
export function statusCountsValues(statement: StatusCountsStatement, projectId: string, query: Pick<ListFeedbackQuery, 'type' | 'search'>): unknown[] {
  const values: unknown[] = [projectId];
  for (const param of statement.params) {
    if (param === 'type') values.push(query.type);
    if (param === 'search') values.push(`%${escapeLike(query.search ?? '')}%`);
  }
  return values;
}
