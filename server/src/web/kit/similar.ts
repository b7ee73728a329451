import { TITLE_MAX_LENGTH, type SimilarFeedbackItem } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import { similarItems } from '../../domain/feedback/similar.js';
import { VOTED_AMONG } from './similar.sql.js';

/** What the similar-items hint shows: the items, and which the visitor votes for; or 'no-title' when no title was given. */
export type SimilarFound = 'no-title' | { items: SimilarFeedbackItem[]; voted: Set<string> };

/** Similar items the submit form shows. */
const SIMILAR_ON_BOARD = 5;

/**
 * The items like a title, as the submit form lists them, from the API's own statement
 * (domain/feedback/similar.ts), with which of them the visitor votes for (their vote buttons). A title that is
 * not text or is empty asks nothing: 'no-title', which the form answers by asking for one; a title
 * too long has no similar items.
 */
export async function similarTo(sql: SqlPool, project: { id: string }, voterKey: string, title: unknown): Promise<SimilarFound> {
  const text = typeof title === 'string' ? title.trim() : '';
  if (text === '') return 'no-title';
  if (text.length > TITLE_MAX_LENGTH) return { items: [], voted: new Set() };
  const items = JSON.parse(await similarItems(sql, project.id, text, { limit: SIMILAR_ON_BOARD })) as SimilarFeedbackItem[];
  if (items.length === 0) return { items, voted: new Set() };
  const [row] = await sql.query<{ voted: string }>(VOTED_AMONG.name, VOTED_AMONG.text, [items.map((item) => item.id), voterKey]);
  return { items, voted: new Set(JSON.parse(row!.voted) as string[]) };
}

