import type { Statement } from '../../db/pool.js';
import { ITEM_FROM, itemFields, jsonArrayText, jsonObject, userHasVoted } from '../../db/json.sql.js';

/**
 * How close a title must be to be shown (pg_trgm's `similarity`, 0 to 1). The keywords already
 * keep out every item that shares no word with the title; this keeps out those that share a word
 * by accident (a keyword inside an unrelated word) or only one word of a long title. "Add a dark
 * mode" is 0.18 from "Dark theme please", and passes; "Dark mode crashes when using Safari" is 0.10.
 */
export const SIMILARITY_THRESHOLD = 0.15;

/**
 * From this similarity up, a title is the same request as the one typed (a word added, case or
 * punctuation: "Export to CSV" is 0.74 from "Export to CSV file", "Dark mode" 1 from "dark mode!";
 * "Export to Excel", another request, is 0.56). Why these are ranked by votes and not by
 * closeness: between near-identical titles the small differences in similarity are noise, and
 * what matters to the visitor is where their vote joins the others, the item with the most votes,
 * which the team usually tracks already (a 500-vote planned item used to come fourth, after
 * copies of it with 14, 1 and 10 votes). Below this band the titles say different things, and
 * closeness is the better guide: ranked by votes, a popular item that merely shares a word would
 * come before the one that is close. So: the near-identical band first, by votes; then the rest,
 * closest first.
 */
export const SAME_REQUEST_SIMILARITY = 0.7;

/**
 * The items whose titles are closest to a title, in one statement: $1 project, $2 the title,
 * $3 the keywords' LIKE patterns (similar.route.ts makes them), $4 how many at most, $5 the end
 * user whose votes `userHasVoted` reports (external id, may be null), and with `status` $6 the
 * statuses to keep. One row: `items`, the JSON array: the near-identical titles first, most votes
 * first (SAME_REQUEST_SIMILARITY), then the others closest first.
 *
 * Why keywords rather than pg_trgm's own operators. The only trigram index is the GIN index on
 * `search_text` (the title and description lower-cased, joined by U+001F:
 * Migration0006_search_text). `similarity`'s `%` and `word_similarity`'s `%>` can use
 * it, but their threshold is a session setting (pg_trgm.similarity_threshold), not a parameter,
 * and "Dark theme please" is only 0.22 (`similarity`) or 0.28 (`word_similarity`) from "Dark
 * mode", so they find it only at a threshold where the index hands over most items: measured on
 * 100,000 seeded items (PostgreSQL 15), `search_text %> 'dark theme please'` at 0.25 read 63,419
 * candidates and took 3.7 s, rechecking `word_similarity` against each long text. Instead, each
 * keyword is a LIKE pattern that the same index serves (a bitmap scan per pattern, ORed), and
 * matches only in the title part (before U+001F); `similarity` is then computed once per
 * candidate title (about 10 us each) to filter by SIMILARITY_THRESHOLD and rank (the vote counts
 * of the titles that pass are read by primary key for the band's order), so the cost
 * follows the number of titles that share a keyword (docs/api.md has the times). EXPLAIN ANALYZE
 * with the forced generic plan of the hot connections (PostgreSQL 15, same table): a Bitmap Index
 * Scan on feedback_search_text_trgm_index, a Bitmap Heap Scan, a top-N sort of the candidates and
 * five primary-key look-ups. The embedded database (PGlite, PostgreSQL 18) plans its unnamed
 * statements with their values: the same index scan for rare keywords, a seq scan when the
 * keywords match a quarter of the items, where that is the cheaper plan.
 *
 * The candidates are materialised so that `similarity` runs once per row: written in the WHERE
 * and in the ORDER BY of one query, PostgreSQL would compute it twice.
 */
function similarText(withStatus: boolean): string {
  const status = withStatus ? ' and f.status = any($6::text[])' : '';
  // The order of `top` and of the array: the band, then votes in the band (0 below it), then closeness.
  const band = (t: string, votes: string) => `(${t}.similarity >= ${SAME_REQUEST_SIMILARITY}) desc, ${votes} desc, ${t}.similarity desc, ${t}.id`;
  const bandVotes = `case when m.similarity >= ${SAME_REQUEST_SIMILARITY} then c.vote_count else 0 end`;
  return `with m as materialized (
    select f.id, similarity(f.title, $2) as similarity
    from feedback f
    where f.project_id = $1 and f.search_text like any($3::text[])${status}
  ), top as materialized (
    select m.id, m.similarity, ${bandVotes} as votes
    from m join feedback_counters c on c.feedback_id = m.id
    where m.similarity >= ${SIMILARITY_THRESHOLD} order by ${band('m', bandVotes)} limit $4
  )
  select ${jsonArrayText(
    jsonObject([...itemFields(), ['userHasVoted', userHasVoted('$5')], ['similarity', 'round(t.similarity::numeric, 3)']]),
    band('t', 't.votes'),
  )} as items
  from ${ITEM_FROM} join top t on t.id = f.id`;
}

/** Items similar to a title, of every status. Ties go to the older item (ids are time-ordered), which has usually gathered the votes. */
export const SIMILAR: Statement = { name: 'similar', text: similarText(false) };

/** SIMILAR with a status filter: a statement of its own, so neither plan carries an `$n is null or ...` branch. */
export const SIMILAR_WITH_STATUS: Statement = { name: 'similar_status', text: similarText(true) };
