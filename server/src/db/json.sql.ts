/**
 * SQL fragments that build the API's JSON inside PostgreSQL. The hot statements return the
 * response body as one text column, so the server neither parses rows nor serialises objects.
 */

/** A timestamp as the API shows it: ISO 8601 in UTC with milliseconds and a Z (spec 2.2). */
export function isoTimestamp(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** Where the columns of one FeedbackListItem come from in a statement. */
export interface ItemSources {
  /** Alias of a `feedback` row (or a CTE returning its columns). */
  feedback: string;
  voteCount: string;
  commentCount: string;
  /** Alias of the submitter's `end_users` row (left joined: no row for an anonymous item); null: anonymous. */
  user: string | null;
}

const DEFAULT_SOURCES: ItemSources = { feedback: 'f', voteCount: 'c.vote_count', commentCount: 'c.comment_count', user: 'u' };

/** The key-value list of a FeedbackListItem (spec 2.2), for `json_build_object(...)`. */
export function itemFields(sources: ItemSources = DEFAULT_SOURCES): string {
  const { feedback: f, user: u } = sources;
  return [
    `'id', ${f}.id`,
    `'title', ${f}.title`,
    `'description', ${f}.description`,
    `'type', ${f}.type`,
    `'status', ${f}.status`,
    `'voteCount', ${sources.voteCount}`,
    `'commentCount', ${sources.commentCount}`,
    `'createdAt', ${isoTimestamp(`${f}.created_at`)}`,
    // A deleted submitter leaves end_user_id null: the item reads as anonymous.
    u === null
      ? `'endUser', null`
      : `'endUser', case when ${f}.end_user_id is null then null else json_build_object('name', ${u}.name, 'avatarUrl', ${u}.avatar_url) end`,
  ].join(', ');
}

/** An item with its counters and submitter, as `f`, `c` and `u`. */
export const ITEM_FROM = 'feedback f join feedback_counters c on c.feedback_id = f.id left join end_users u on u.id = f.end_user_id';

/**
 * Whether the end user whose external id is `externalIdParam` (a `$n`; null: nobody) has voted on
 * the item `f`: its vote is keyed by the end user's id as text.
 */
export function userHasVoted(externalIdParam: string): string {
  return `exists (
      select 1 from votes v
      where v.feedback_id = f.id
        and v.voter_key = (select e.id::text from end_users e where e.project_id = f.project_id and e.external_id = ${externalIdParam})
    )`;
}
