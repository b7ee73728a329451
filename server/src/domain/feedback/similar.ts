import { SIMILAR_LIMIT_DEFAULT, type FeedbackStatus } from '@feedbackd/sdk/contract';
import type { Statements } from '../../db/pool.js';
import { FIELD_SEPARATOR } from './feedback.sql.js';
import { SIMILAR, SIMILAR_WITH_STATUS } from './similar.sql.js';

/** What narrows `similarItems`, besides the title. */
export interface SimilarOptions {
  /** How many items at most (default 5); the API allows 1 to 10. */
  limit?: number;
  /** Only items with one of these statuses; absent: every status. */
  status?: readonly FeedbackStatus[] | undefined;
  /** The end user whose votes `userHasVoted` reports (external id); absent: false everywhere. */
  endUserId?: string | undefined;
}

/**
 * The project's items whose titles are closest to `title`, as the JSON text of the array the
 * API answers. The API's route and the board's submit form (items shown while a title is typed)
 * both call this, so they agree. The order (similar.sql.ts, SAME_REQUEST_SIMILARITY): titles that
 * are near-identical to it first, most votes first; then the others, closest first. `title` is taken as given (the API trims it); a title with no
 * keyword (only short or common words) has no similar items and costs no round trip.
 */
export async function similarItems(sql: Statements, projectId: string, title: string, options: SimilarOptions = {}): Promise<string> {
  const patterns = keywordPatterns(title);
  if (patterns.length === 0) return '[]';
  const values: unknown[] = [projectId, title, patterns, options.limit ?? SIMILAR_LIMIT_DEFAULT, options.endUserId ?? null];
  const statement = options.status ? SIMILAR_WITH_STATUS : SIMILAR;
  if (options.status) values.push(options.status);
  const [row] = await sql.query<{ items: string }>(statement.name, statement.text, values);
  return row!.items;
}

/** Keywords beyond this many are left out: each is one more scan of the index. */
const MAX_KEYWORDS = 8;

/**
 * A keyword is a word's first five characters, a crude stem: "uploads" and "uploading" both
 * find "upload", "crashes" finds "crashing".
 */
const KEYWORD_LENGTH = 5;

/**
 * Words too common in feedback titles to say what an item is about. Each keyword widens the
 * search (an item needs one keyword in its title to be a candidate), so one of these would make
 * a large share of the project candidates, all to be ranked. Words of one or two characters are
 * left out anyway.
 */
const STOP_WORDS = new Set(
  (
    'the and for with when not are was were can cannot does doesn don didn isn won this that these those from have has had ' +
    'but all you your our its into there their they them would could should what which who how why where will been more some ' +
    'any than then also just very only about please add make allow support feature option able want need like use using get ' +
    'let new way'
  ).split(' '),
);

/**
 * The LIKE patterns of `title`'s keywords, matched against `search_text` (lower-cased) in its title
 * part only: each ends in U+001F, which follows the title. A keyword of four or five characters
 * matches anywhere in the title; one of three must start a word, or "app" would make every
 * "happen" and "whatsapp" a candidate (the index then finds it by its first letters too). Longer
 * keywords first: they are the rarer ones, and the cap keeps them. Keywords hold letters and
 * digits only, so none of LIKE's special characters.
 */
export function keywordPatterns(title: string): string[] {
  const words = title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const keywords = new Set<string>();
  for (const word of words) {
    const chars = Array.from(word);
    if (chars.length >= 3 && !STOP_WORDS.has(word)) keywords.add(chars.slice(0, KEYWORD_LENGTH).join(''));
  }
  const kept = [...keywords].sort((a, b) => Array.from(b).length - Array.from(a).length).slice(0, MAX_KEYWORDS);
  const end = `%${FIELD_SEPARATOR}%`;
  return kept.flatMap((keyword) => (Array.from(keyword).length > 3 ? [`%${keyword}${end}`] : [`${keyword}${end}`, `% ${keyword}${end}`]));
}
