import { counterRowsOfNewItems } from '../../db/counters.sql.js';
import { SUBSCRIPTION_REASONS } from '../../domain/subscriptions/reasons.js';
import { ROWS_PER_ITEM, seedIdSql } from './seed-ids.js';
import { COMMENT_TAILS, TEAM_COMMENTS, TEAM_NAMES, USER_COMMENTS } from './vocabulary.js';

/**
 * The seeder's statements: set-based inserts of whole batches, the rows handed over as arrays and
 * expanded by `unnest`. Votes and comments are not sent at all: they are generated inside
 * PostgreSQL from each item's counts, so a batch of items is one round trip however many votes it
 * carries. Everything is derived from the parameters (no random(), no now()), so the same batch
 * gives the same rows in any database.
 */

/** $1 project; then one array per column of SeedUser. Users that exist already are left alone. */
export const INSERT_USERS = `insert into end_users (id, project_id, external_id, email, name, avatar_url, metadata, created_at, updated_at)
select u.id, $1::uuid, u.external_id, u.email, u.name, u.avatar_url, u.metadata::jsonb, to_timestamp(u.created_ms::float8 / 1000), to_timestamp(u.created_ms::float8 / 1000)
from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[])
  as u (id, external_id, email, name, avatar_url, metadata, created_ms)
on conflict do nothing`;

/** The parameters of INSERT_ITEMS, in order. */
export const ITEM_PARAMS = [
  'project', 'epochMs', 'mix', 'votePrefix', 'commentPrefix', 'userPrefix', 'anonymousBase', 'users', 'anonymousVoters',
  'teamComments', 'userComments', 'commentTails', 'teamNames',
  'ids', 'indexes', 'submitters', 'titles', 'descriptions', 'types', 'statuses', 'metadata', 'createdMs',
  'identifiedVotes', 'anonymousVotes', 'anonymousFirst', 'userStarts', 'anonymousStarts', 'comments',
] as const;

const p = (name: (typeof ITEM_PARAMS)[number]) => `$${ITEM_PARAMS.indexOf(name) + 1}`;

/** The fixed parameters of INSERT_ITEMS: the comment texts. */
export const COMMENT_TEXTS = {
  teamComments: [...TEAM_COMMENTS],
  userComments: [...USER_COMMENTS],
  commentTails: [...COMMENT_TAILS],
  teamNames: [...TEAM_NAMES],
};

/**
 * A deterministic pseudo-random number in [0, 2^31 - 1) for row `n` of item `t.idx`: two steps
 * of the Park–Miller generator over a mix of both, in bigint arithmetic that cannot overflow.
 */
function rowHash(n: string, salt: number): string {
  return `((((t.idx * 40503 + ${n} * 2654435 + ${p('mix')}::bigint + ${salt}) % 2147483647) * 48271 % 2147483647) * 48271 % 2147483647)`;
}

const userId = (index: string) => seedIdSql(p('userPrefix'), `(${index}) % ${p('users')}::int`);
/** An anonymous voter's key has the form of a real one: `ip2:` and 43 base64url characters. */
const anonymousKey = (index: string) =>
  `'ip2:' || rtrim(translate(encode(sha256(convert_to(${p('anonymousBase')}::text || ((${index}) % ${p('anonymousVoters')}::int), 'UTF8')), 'base64'), '+/', '-_'), '=')`;
/**
 * A moment between the item's creation and the epoch; `fraction` is a float8 in [0, 1). Float
 * arithmetic (exact IEEE-754 operations only, no libm function) is deterministic and much
 * faster than numeric here.
 */
const between = (fraction: string) => `to_timestamp((t.created_ms + floor((${p('epochMs')}::bigint - t.created_ms) * (${fraction}))::bigint)::float8 / 1000)`;
/** A float8 in [0, 1) from a rowHash. */
const unit = (hash: string) => `(${hash})::float8 / 2147483647`;

/**
 * One batch of items in one statement: the items, their counters (exactly the vote and comment
 * rows generated below), their votes (identified and anonymous, the submission first, at the
 * item's creation), their comments (by the team or by end users, oldest first) and their
 * subscriptions (issue 40: each submitter, identified voter and commenting end user, with the
 * reasons a submission, a vote and a comment write, as the API's statements would have).
 * The feedback_stats triggers count the items in the same statement.
 */
export const INSERT_ITEMS = `with t as (
  select * from unnest(${p('ids')}::uuid[], ${p('indexes')}::bigint[], ${p('submitters')}::int[], ${p('titles')}::text[], ${p('descriptions')}::text[],
                       ${p('types')}::text[], ${p('statuses')}::text[], ${p('metadata')}::text[], ${p('createdMs')}::bigint[],
                       ${p('identifiedVotes')}::int[], ${p('anonymousVotes')}::int[], ${p('anonymousFirst')}::boolean[],
                       ${p('userStarts')}::bigint[], ${p('anonymousStarts')}::bigint[], ${p('comments')}::int[])
    as t (id, idx, submitter, title, description, type, status, metadata, created_ms,
          identified, anonymous, anonymous_first, user_start, anonymous_start, comments)
), items as (
  insert into feedback (id, project_id, end_user_id, title, description, type, status, metadata, created_at)
  select t.id, ${p('project')}::uuid, case when t.submitter is null then null else ${userId('t.submitter')} end,
         t.title, t.description, t.type, t.status, t.metadata::jsonb, to_timestamp(t.created_ms::float8 / 1000)
  from t
  returning id, project_id, end_user_id, created_at, status, type
), counters as (
  ${counterRowsOfNewItems('items i join t on t.id = i.id', { votes: 't.identified + t.anonymous', comments: 't.comments' })}
), votes as (
  insert into votes (id, feedback_id, voter_key, end_user_id, created_at)
  select ${seedIdSql(p('votePrefix'), `t.idx * ${ROWS_PER_ITEM} + k`)}, t.id,
         case when v.user_index is null then ${anonymousKey('t.anonymous_start + v.anonymous_index')} else ${userId('t.user_start + v.user_index')}::text end,
         case when v.user_index is null then null else ${userId('t.user_start + v.user_index')} end,
         case when k = 0 then to_timestamp(t.created_ms::float8 / 1000) else ${between(`${unit(rowHash('k', 1))} * ${unit(rowHash('k', 1))}`)} end
  from t
  cross join generate_series(0::bigint, t.identified + t.anonymous - 1) k
  cross join lateral (
    select case when t.anonymous_first then (case when k >= t.anonymous then k - t.anonymous end) else (case when k < t.identified then k end) end as user_index,
           case when t.anonymous_first then k else k - t.identified end as anonymous_index
  ) v
  returning feedback_id, end_user_id
), comments as (
  insert into comments (id, feedback_id, author_end_user_id, author_name, is_team, content, created_at)
  select ${seedIdSql(p('commentPrefix'), `t.idx * ${ROWS_PER_ITEM} + j`)}, t.id,
         case when h.team then null else ${userId('t.user_start + 1 + j * 7')} end,
         case when h.team then (${p('teamNames')}::text[])[1 + h.a % cardinality(${p('teamNames')}::text[])] end,
         h.team,
         case when h.team then (${p('teamComments')}::text[])[1 + h.b % cardinality(${p('teamComments')}::text[])]
              else (${p('userComments')}::text[])[1 + h.b % cardinality(${p('userComments')}::text[])] end
           || case when h.a % 3 = 0 then ' ' || (${p('commentTails')}::text[])[1 + h.b % cardinality(${p('commentTails')}::text[])] else '' end,
         ${between(`h.at * h.at`)}
  from t
  cross join generate_series(0::bigint, t.comments - 1) j
  cross join lateral (select ${rowHash('j', 2)} as a, ${rowHash('j', 3)} as b) r
  -- Comment j at a random point of its 1/n-th of the item's life, squared: in order, and most of
  -- them soon after the item was posted, as discussions go.
  cross join lateral (select r.a, r.b, r.a % 10 < 3 as team, (j + ${unit('r.b')}) / t.comments as at) h
  returning feedback_id, author_end_user_id
), subscribed as (
  -- Sibling inserts cannot see each other's rows: one insert, each person's reasons OR-ed.
  insert into subscriptions (feedback_id, end_user_id, project_id, reasons)
  select s.item, s.person, ${p('project')}::uuid, bit_or(s.reason)::smallint
  from (
    select id as item, end_user_id as person, ${SUBSCRIPTION_REASONS.submitted} as reason from items
    union all select feedback_id, end_user_id, ${SUBSCRIPTION_REASONS.voted} from votes
    union all select feedback_id, author_end_user_id, ${SUBSCRIPTION_REASONS.commented} from comments
  ) s
  where s.person is not null
  group by s.item, s.person
  on conflict (feedback_id, end_user_id) do nothing
)
select 1`;

/** How many items of a seed exist already, between its first and its last id. */
export const COUNT_ITEMS = 'select count(*)::int as n from feedback where id between $1::uuid and $2::uuid';
/** Which of a batch's item ids exist already (a seed run again completes, never duplicates). */
export const EXISTING_ITEMS = 'select id::text as id from feedback where id between $1::uuid and $2::uuid';
