/**
 * SQL fragments that build the API's JSON inside PostgreSQL. The hot statements return the
 * response body as one text column, so the server neither parses rows nor serialises objects:
 * the text is built compact here, as JSON.stringify would write it.
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

/** The keys of a JSON object and the SQL expressions of their values, in the order the object lists them. */
export type JsonFields = ReadonlyArray<readonly [key: string, value: string]>;

/**
 * A JSON object with `fields` in their order, as compact json: `{"id":"…","title":"…"}`. It is
 * row_to_json of a row whose columns are named after the keys; json_build_object would write
 * `{"id" : "…", "title" : "…"}`, spaces the server passed on to every client. A json value (a
 * nested object or array) goes in as it is. Measured on PostgreSQL 15, a page of 100 items takes
 * no longer this way than with json_build_object and json_agg (a little less: about 2.7 ms
 * against 3.3 ms, medians of ten alternating runs).
 */
export function jsonObject(fields: JsonFields): string {
  const columns = fields.map(([key, value]) => {
    if (!/^[A-Za-z]+$/.test(key)) throw new Error(`not a JSON key this helper quotes safely: ${key}`);
    return `${value} as "${key}"`;
  });
  return `row_to_json((select r from (select ${columns.join(', ')}) r))`;
}

/**
 * The compact JSON array of `element` (a json expression) over the rows in `order`, as text; `[]`
 * for no rows. json_agg would put `, ` and a line break between the elements.
 */
export function jsonArrayText(element: string, order: string): string {
  return `coalesce('[' || string_agg((${element})::text, ',' order by ${order}) || ']', '[]')`;
}

/** The fields of a FeedbackListItem (spec 2.2), for jsonObject. */
export function itemFields(sources: ItemSources = DEFAULT_SOURCES): JsonFields {
  const { feedback: f, user: u } = sources;
  return [
    ['id', `${f}.id`],
    ['title', `${f}.title`],
    ['description', `${f}.description`],
    ['type', `${f}.type`],
    ['status', `${f}.status`],
    ['voteCount', sources.voteCount],
    ['commentCount', sources.commentCount],
    ['createdAt', isoTimestamp(`${f}.created_at`)],
    // A deleted submitter leaves end_user_id null: the item reads as anonymous.
    [
      'endUser',
      u === null
        ? 'null::json'
        : `case when ${f}.end_user_id is null then null else ${jsonObject([['name', `${u}.name`], ['avatarUrl', `${u}.avatar_url`]])} end`,
    ],
  ];
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
