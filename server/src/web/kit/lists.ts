import { ListFeedbackQuerySchema, type FeedbackListItem, type ListFeedbackQuery } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import { checkInputLimits } from '../../http/body.js';
import { toValidationDetails } from '../../http/errors.js';
import { listStatement, listValues } from '../../domain/feedback/lists.js';
import { problemsOf, type Problem } from './views/parts.js';

/*
 * A list of items on a page (the board's list and roadmap, the team's inbox and merge search):
 * the API's list query, checked as the API checks it, and the API's own list statement.
 */

/** The list's controls, by the API's query names: a problem with one of them is shown next to it. */
const LIST_FIELDS: ReadonlySet<string> = new Set(['status', 'type', 'search', 'sortBy']);

/** A query string's list query, checked by the API's limits and contract; or the problems to show beside the controls. */
export function parseListQuery(query: Record<string, unknown>): { query: ListFeedbackQuery; problems?: undefined } | { problems: Problem[]; query?: undefined } {
  const limits = checkInputLimits(query);
  const parsed = limits ? undefined : ListFeedbackQuerySchema.safeParse(query);
  if (!parsed?.success) return { problems: problemsOf(limits ?? toValidationDetails(parsed!.error), LIST_FIELDS) };
  return { query: parsed.data };
}

/** A page of a list, as the pages show it. */
export interface ListedPage {
  items: FeedbackListItem[];
  total: number;
  page: number;
  totalPages: number;
  /** With a voter key: the ids of the listed items that voter votes for. */
  voted: string[];
}

/** The list statement's answer as the database gives it: the total, and the page's items and the voter's votes as JSON text. */
export type ListRow = {
  total: number;
  items: string;
  voted?: string;
};

/**
 * A page of the API's list for a project, in one statement; with `voterKey` (the board), also
 * which of its items that voter votes for (the list statement's `votedBy`). As the database
 * answers: `listedPage` reads it.
 */
export async function readListRow(sql: SqlPool, projectId: string, query: ListFeedbackQuery, voterKey?: string): Promise<ListRow> {
  const statement = listStatement(query, { votedBy: voterKey !== undefined });
  const [row] = await sql.query<ListRow>(statement.name, statement.text, listValues(statement, projectId, query, voterKey));
  return row!;
}

/** The page of a list statement's answer. */
export function listedPage(row: ListRow, query: ListFeedbackQuery): ListedPage {
  return {
    items: JSON.parse(row.items) as FeedbackListItem[],
    total: row.total,
    page: query.page,
    totalPages: Math.ceil(row.total / query.limit),
    voted: row.voted ? (JSON.parse(row.voted) as string[]) : [],
  };
}

/** A page of the API's list for a project, read and parsed (readListRow, listedPage). */
export async function readList(sql: SqlPool, projectId: string, query: ListFeedbackQuery, voterKey?: string): Promise<ListedPage> {
  return listedPage(await readListRow(sql, projectId, query, voterKey), query);
}
