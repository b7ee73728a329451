import { FEEDBACK_STATUSES, type FeedbackStatus, type ListFeedbackQuery } from '@feedbackd/sdk/contract';
import { statusCountsStatement, statusCountsValues } from '../../domain/feedback/status-counts.sql.js';
import type { SqlPool } from '../../db/pool.js';

/** How many items each status has (every status of the contract, 0 when none), and all of them. */
export type StatusCounts = Record<FeedbackStatus, number> & { all: number };

/**
 * The inbox's tab counts for a list query, in one statement (domain/feedback/status-counts.sql.ts): its type
 * and search filters apply, its status does not (each tab is a status), so a tab's count is the
 * total its link lists.
 */
export async function readStatusCounts(sql: SqlPool, projectId: string, query: Pick<ListFeedbackQuery, 'type' | 'search'>): Promise<StatusCounts> {
  const statement = statusCountsStatement(query);
  const rows = await sql.query<{ status: string; items: number }>(statement.name, statement.text, statusCountsValues(statement, projectId, query));
  const counts = Object.fromEntries(FEEDBACK_STATUSES.map((status) => [status, 0])) as StatusCounts;
  counts.all = 0;
  for (const row of rows) {
    if ((FEEDBACK_STATUSES as readonly string[]).includes(row.status)) counts[row.status as FeedbackStatus] = row.items;
    counts.all += row.items;
  }
  return counts;
}
