import type { SortBy } from '@feedbackd/sdk/contract';
import type { Statement } from '../../db/pool.js';
import { COMMENT_ORDER, commentJson, STORED_COMMENT, visibleComments } from '../comments/comments.sql.js';
import { isoTimestamp, ITEM_FROM, itemFields, jsonArrayText, jsonObject, userHasVoted, type JsonFields } from '../../db/json.sql.js';
import { userIsSubscribed } from '../subscriptions/reasons.js';


// ---------------------------------------------------------------------------------- detail (4.4)

/**
 * From how many comments an item's thread is worth keeping (domain/feedback/comment-threads.ts): below it,
 * building the thread costs less than its stamp.
 */
export const KEEP_THREAD_FROM = 50;

/** Where the detail's fields come from: those before `comments`, and those after it. */
function detailFields(extraFields: JsonFields, subscription: boolean): { before: JsonFields; after: JsonFields } {
  // `userIsSubscribed` is only in the answer read with an endUserId (`subscription`), so the
  // answer without one stays the spec's, unchanged; with one, it follows the spec's fields (after
  // `comments`), so they keep the spec's order.
  return {
    before: [...itemFields(), ['userHasVoted', userHasVoted('$3')]],
    after: [...(subscription ? ([['userIsSubscribed', userIsSubscribed('$3')]] as const) : []), ...extraFields],
  };
}

/** The item's comments a caller sees, as rows `cm` with their end-user authors `cu`. */
function threadRows(secret: boolean): string {
  return `from comments cm left join end_users cu on cu.id = cm.author_end_user_id
      where cm.feedback_id = f.id and ${visibleComments(secret)}`;
}

/**
 * The detail view's text: `body`, the whole object, and `comment_count`, from which the reader
 * (domain/feedback/comment-threads.ts) tells an item whose thread is worth keeping. `extraFields` follow the
 * comments. `secret`: the team's view, with its internal notes (domain/comments/comments.sql.ts); a public
 * key's comments never include them.
 */
function detailText(extraFields: JsonFields, secret: boolean, subscription = false): string {
  const { before, after } = detailFields(extraFields, subscription);
  return `select ${jsonObject([...before, ['comments', `(select ${jsonArrayText(commentJson(STORED_COMMENT, secret), COMMENT_ORDER)}::json ${threadRows(secret)})`], ...after])}::text as body,
    c.comment_count
  from ${ITEM_FROM}
  where f.id = $1 and f.project_id = $2`;
}

/**
 * The same detail for an item with a long thread, as the parts of one object (the reader puts
 * them together): `head`, the object of the fields before `comments`; `thread`, the comments as
 * JSON text, or null when the reader sent as $4 the stamp it holds and that stamp is still the
 * thread's; `tail`, the object of the fields after `comments`, or null; `stamp`, the thread's
 * version, or null once the item has fewer than KEEP_THREAD_FROM comments.
 *
 * The stamp is the visible comments' count and the sums of the xmin of their rows and of their
 * authors' end_users rows. Every write of a comment or of its author's profile makes a new row
 * version with the writing transaction's id, newer than every id already there; a thread whose
 * count is unchanged has as many new versions as it lost old ones, so its sum grows. So any change
 * that could change the thread's JSON changes its stamp (a change that leaves the JSON as it was
 * may change it too: that only rebuilds it). Transaction ids are 32 bits and wrap after about four
 * billion transactions; only then could a change bring the sums back to earlier values, and only
 * if its new ids summed exactly to the ones they replaced. Reading the stamp is an index scan of
 * the item's comments, about a tenth of building 1,000 of them.
 *
 * Only items known to be long are read so: the parts, the stamp and the lateral subqueries cost
 * a short item's detail about a tenth more than detailText. The lateral subqueries end in
 * `offset 0`: without it PostgreSQL pulls them up and writes their expressions into every place
 * that names `t.stamp`, each a subplan of its own, which a generic plan sets up on every execution.
 */
function threadDetailText(extraFields: JsonFields, secret: boolean, subscription = false): string {
  const { before, after } = detailFields(extraFields, subscription);
  return `select ${jsonObject(before)}::text as head,
    k.thread,
    ${after.length > 0 ? `${jsonObject(after)}::text` : 'null::text'} as tail,
    t.stamp
  from ${ITEM_FROM}
  cross join lateral (
    select case when c.comment_count >= ${KEEP_THREAD_FROM} then (
      select count(*) || ':' || sum(cm.xmin::text::bigint) || ':' || coalesce(sum(cu.xmin::text::bigint), 0)
      ${threadRows(secret)}
    ) end as stamp
    offset 0
  ) t
  cross join lateral (
    select case when t.stamp = $4::text then null else (select ${jsonArrayText(commentJson(STORED_COMMENT, secret), COMMENT_ORDER)} ${threadRows(secret)}) end as thread
    offset 0
  ) k
  where f.id = $1 and f.project_id = $2`;
}

/**
 * A detail statement: `text` for any item ($1 item, $2 project, $3 the endUserId or null),
 * `thread` for an item with a long thread ($4 the stamp of the thread the reader holds, or null),
 * and whether its thread has the team's internal notes (`secret`). Read through
 * domain/feedback/comment-threads.ts.
 */
export interface DetailStatement extends Statement {
  secret: boolean;
  thread: Statement;
}

function detailStatement(name: string, extraFields: JsonFields, secret: boolean, subscription = false): DetailStatement {
  return {
    name,
    text: detailText(extraFields, secret, subscription),
    secret,
    thread: { name: `${name}_thread`, text: threadDetailText(extraFields, secret, subscription) },
  };
}

/**
 * Spec 4.4 in one statement: the item, whether the end user $3 (external id, may be null) has
 * voted, and its comments (the pinned answer first, then oldest first; never an internal note).
 * $1 item id, $2 project. No row: not found.
 */
export const DETAIL = detailStatement('detail', [], false);

/** The secret key's `statusHistory` (DETAIL_WITH_HISTORY). */
const STATUS_HISTORY: JsonFields = [
  [
    'statusHistory',
    `(
    select ${jsonArrayText(
      jsonObject([
        ['from', 'h.from_status'],
        ['to', 'h.to_status'],
        ['changedAt', isoTimestamp('h.changed_at')],
        ['keyId', 'h.api_key_id'],
        ['keyPrefix', 'k.key_prefix'],
        ['actor', 'h.actor'],
      ]),
      'h.id',
    )}::json
    from feedback_status_changes h left join api_keys k on k.id = h.api_key_id
    where h.feedback_id = f.id
  )`,
  ],
];

/**
 * DETAIL for a secret key (an extension): the same object with `statusHistory` last, the item's
 * status changes oldest first (by id: a sequence, in the order the item's row lock let them
 * happen). The public statement stays as it is, so a public key's answer and cost do not change.
 */
export const DETAIL_WITH_HISTORY = detailStatement('detail_with_history', STATUS_HISTORY, true);

/** DETAIL and DETAIL_WITH_HISTORY read with an endUserId: the same, with `userIsSubscribed` after `comments` (and before a secret key's `statusHistory`). */
export const DETAIL_FOR_USER = detailStatement('detail_for_user', [], false, true);
export const DETAIL_WITH_HISTORY_FOR_USER = detailStatement('detail_with_history_for_user', STATUS_HISTORY, true, true);

// ---------------------------------------------------------------------------------- list (4.3)

/**
 * Each sort: the order of the page (always ending in a unique column, so pages never overlap),
 * over `f` and `c` and over the materialised matches `m` of a search. newest and oldest walk
 * feedback (project_id, created_at desc, id desc) include (status, type) forwards or backwards;
 * votes and comments walk their feedback_counters index, ties by newest. Each index includes
 * status and type (the counters keep a copy), so a filtered page is an index-only scan.
 */
const SORTS: Record<SortBy, { order: string; matchOrder: string; counters: boolean }> = {
  newest: { order: 'f.created_at desc, f.id desc', matchOrder: 'm.created_at desc, m.id desc', counters: false },
  oldest: { order: 'f.created_at asc, f.id asc', matchOrder: 'm.created_at asc, m.id asc', counters: false },
  votes: { order: 'c.vote_count desc, c.created_at desc, c.feedback_id desc', matchOrder: 'm.vote_count desc, m.created_at desc, m.id desc', counters: true },
  comments: { order: 'c.comment_count desc, c.created_at desc, c.feedback_id desc', matchOrder: 'm.comment_count desc, m.created_at desc, m.id desc', counters: true },
};

/**
 * A list statement and the parameters it takes, in order after $1 project, $2 limit, $3 offset;
 * with `votedBy`, the voter key is the last.
 */
export interface ListStatement extends Statement {
  params: ('status' | 'type' | 'search')[];
  votedBy: boolean;
}

/** What joins the title and description in `search_text`; no match can span it. */
export const FIELD_SEPARATOR = '\u001f';

/**
 * The text of one shape of list (feedback.route.ts builds each shape once). It returns one row:
 * `total` and `items` (the page's JSON array), and with `votedBy` (the board's list) `voted`.
 * - Without search, `total` sums the project's feedback_stats cells; the page's ids are found
 *   first (an index-only scan where the sort allows) and only those rows are read and built.
 *   The ids go in as `f.id = any(array(...))`, for which even the generic plan expects a handful
 *   of rows and joins by primary key.
 * - With search, the matches are collected once from the trigram index on `search_text` (the
 *   title and description lower-cased, joined by U+001F: Migration0006_search_text),
 *   and the page and its total both come from that one pass (a window count). A search that
 *   itself contains U+001F could match across the two fields there, so it takes its own shape
 *   (`perColumn`) that also matches each column with `ilike` (slower: it lower-cases every
 *   candidate row).
 */
export function buildList(sortBy: SortBy, params: ListStatement['params'], perColumn: boolean, votedBy = false): string {
  const placeholder = (param: ListStatement['params'][number]) => `$${4 + params.indexOf(param)}`;
  const sort = SORTS[sortBy];
  const filters = itemFilters(params, perColumn, placeholder);
  const page = (ids: string) => `(
    select ${jsonArrayText(jsonObject(itemFields()), sort.order)}
    from ${ITEM_FROM}
    where f.id = any(array(${ids}))
  ) as items${votedBy ? `, ${voted(ids)}` : ''}`;
  // The board's question (web/board/pages.ts): which of the page's items the voter (the last
  // parameter) votes for, as a JSON array of ids; one probe of the votes' unique index per item.
  const voted = (ids: string) => `(
    select coalesce(json_agg(v.feedback_id), '[]')::text from votes v
    where v.feedback_id = any(array(${ids})) and v.voter_key = $${4 + params.length}
  ) as voted`;

  if (params.includes('search')) {
    const columns = sort.counters ? 'f.id, f.created_at, c.vote_count, c.comment_count' : 'f.id, f.created_at';
    const from = sort.counters ? 'feedback f join feedback_counters c on c.feedback_id = f.id' : 'feedback f';
    return `with m as materialized (
      select ${columns} from ${from} where ${filters.join(' and ')}
    ), p as materialized (
      select m.id, count(*) over () as total from m order by ${sort.matchOrder} limit $2 offset $3
    )
    select coalesce((select total from p limit 1), (select count(*) from m))::int as total, ${page('select id from p')}`;
  }

  const cells = ['s.project_id = $1'];
  const counterFilters = ['c.project_id = $1'];
  if (params.includes('status')) counterFilters.push(`c.status = any(${placeholder('status')}::text[])`);
  if (params.includes('type')) counterFilters.push(`c.type = any(${placeholder('type')}::text[])`);
  if (params.includes('status')) cells.push(`s.status = any(${placeholder('status')}::text[])`);
  if (params.includes('type')) cells.push(`s.type = any(${placeholder('type')}::text[])`);
  const ids = sort.counters
    ? `select c.feedback_id from feedback_counters c where ${counterFilters.join(' and ')} order by ${sort.order} limit $2 offset $3`
    : `select f.id from feedback f where ${filters.join(' and ')} order by ${sort.order} limit $2 offset $3`;
  return `select (select coalesce(sum(s.item_count), 0) from feedback_stats s where ${cells.join(' and ')})::int as total, ${page(ids)}`;
}

/**
 * The list's conditions on `feedback f` for the filters `params` ($1 is the project; `placeholder`
 * names each filter's parameter): the list's statements and the team's status counts
 * (status-counts.sql.ts) filter by these same words.
 */
export function itemFilters(params: readonly ListStatement['params'][number][], perColumn: boolean, placeholder: (param: ListStatement['params'][number]) => string): string[] {
  const filters = ['f.project_id = $1'];
  if (params.includes('status')) filters.push(`f.status = any(${placeholder('status')}::text[])`);
  if (params.includes('type')) filters.push(`f.type = any(${placeholder('type')}::text[])`);
  if (params.includes('search')) {
    const pattern = placeholder('search');
    // `ilike` lower-cases the pattern and each row's text; search_text is lower-cased already.
    // Every row that matches one column also matches search_text, so the index still narrows
    // the per-column form, and the two `ilike`s then decide on those rows alone.
    filters.push(`f.search_text like lower(${pattern}::text)`);
    if (perColumn) filters.push(`(f.title ilike ${pattern} or f.description ilike ${pattern})`);
  }
  return filters;
}
