import type { EntityManager } from '@mikro-orm/postgresql';
import type { ListFeedbackQuery, PaginatedFeedback, SortBy } from '@feedback/sdk/contract';
import { FEEDBACK_ITEM_COLUMNS, FEEDBACK_ITEM_FROM, toFeedbackListItem, type FeedbackItemRow } from './feedback-row.js';

/**
 * The order of each sort, always ending in a unique column so that pages never overlap or skip.
 * Each is served by an index (see the initial migration): newest and oldest by
 * feedback (project_id, created_at desc, id desc), forwards and backwards; votes and comments by
 * the feedback_counters indexes (project_id, count desc, created_at desc, feedback_id desc), whose
 * ties fall back to newest.
 */
const ORDER_BY: Record<SortBy, string> = {
  newest: 'f.created_at desc, f.id desc',
  oldest: 'f.created_at asc, f.id asc',
  votes: 'c.vote_count desc, c.created_at desc, c.feedback_id desc',
  comments: 'c.comment_count desc, c.created_at desc, c.feedback_id desc',
};

/** Spec 4.3: one page of the caller's project, filtered, searched and sorted, with the exact total. */
export async function listFeedback(em: EntityManager, projectId: string, query: ListFeedbackQuery): Promise<PaginatedFeedback> {
  const sql = listFeedbackSql(projectId, query);
  const [items, counted] = await Promise.all([
    em.execute<FeedbackItemRow[]>(sql.page.text, sql.page.params),
    em.execute<{ total: number }[]>(sql.count.text, sql.count.params),
  ]);
  const total = counted[0]?.total ?? 0;
  return {
    items: items.map(toFeedbackListItem),
    total,
    page: query.page,
    limit: query.limit,
    totalPages: Math.ceil(total / query.limit),
  };
}

/** A statement with `?` placeholders and its parameters. */
export interface Statement {
  text: string;
  params: unknown[];
}

/** The two statements of a list: the page, and the count of every matching item (the benchmark EXPLAINs them). */
export function listFeedbackSql(projectId: string, query: ListFeedbackQuery): { page: Statement; count: Statement } {
  const where = filters(projectId, query);
  return {
    page: {
      text: `select ${FEEDBACK_ITEM_COLUMNS}
       from ${FEEDBACK_ITEM_FROM}
       where c.project_id = ? and ${where.sql}
       order by ${ORDER_BY[query.sortBy]}
       limit ? offset ?`,
      params: [projectId, ...where.params, query.limit, (query.page - 1) * query.limit],
    },
    count: { text: `select count(*)::int as total from feedback f where ${where.sql}`, params: where.params },
  };
}

/** The WHERE clause on `feedback f`: the project, then the optional filters and search. */
function filters(projectId: string, query: ListFeedbackQuery): { sql: string; params: unknown[] } {
  const clauses = ['f.project_id = ?'];
  const params: unknown[] = [projectId];
  if (query.status) {
    clauses.push(`f.status in (${placeholders(query.status)})`);
    params.push(...query.status);
  }
  if (query.type) {
    clauses.push(`f.type in (${placeholders(query.type)})`);
    params.push(...query.type);
  }
  if (query.search) {
    // ILIKE is served by the trigram indexes on title and description (a bitmap OR of the two).
    const pattern = `%${escapeLike(query.search)}%`;
    clauses.push('(f.title ilike ? or f.description ilike ?)');
    params.push(pattern, pattern);
  }
  return { sql: clauses.join(' and '), params };
}

/** A search is a plain substring: `%`, `_` and `\` match themselves (backslash is LIKE's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}
