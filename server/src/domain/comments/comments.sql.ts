import type { Statement } from '../../db/pool.js';
import { isoTimestamp, jsonObject, type JsonFields } from '../../db/json.sql.js';
import { endUserCtes } from '../people/end-user.sql.js';
import { notBlocked } from '../moderation/posting-blocks.sql.js';
import { notificationItem, notifySubscribers } from '../events/outbox.sql.js';
import { subscribeRows } from '../subscriptions/reasons.js';

/*
 * The conversation's statements (docs/api.md, "Comments"). Every writer takes its locks in the
 * house order (domain/items/item-locks.ts): the item (`key share`), its counters row, then comment rows.
 * The create statement does so within itself (each step reads the one before it, so PostgreSQL
 * runs them in that order); the edit and delete statements run after domain/comments/comments.service.ts has
 * taken the first two in its transaction, so they see every reply committed before them and no
 * reply can join a thread while it is being deleted.
 */

/** Where a comment's parts come from: `cm` a comments row, and its end-user author's columns. */
interface CommentSources {
  cm: string;
  userName: string;
  userAvatar: string;
  userExternalId: string;
}

// An end user's comment kept after the person was erased has no user and the name "Deleted user"
// (domain/people/erasure.service.ts): shown as an end user's, without an avatar or an id. An
// anonymous comment (a project that allows them) has no author: `null`, as spec 2.4 allows.
function commentAuthor({ cm, userName, userAvatar, userExternalId }: CommentSources): string {
  return `case
    when ${cm}.is_team then ${jsonObject([['name', `${cm}.author_name`], ['isTeam', 'true']])}
    when ${cm}.author_end_user_id is not null then ${jsonObject([['name', userName], ['avatarUrl', userAvatar], ['id', userExternalId]])}
    when ${cm}.author_name is not null then ${jsonObject([['name', `${cm}.author_name`], ['avatarUrl', 'null::text']])}
  end`;
}

/**
 * A comment as JSON (spec 2.4's fields in its order, then the extensions); `internal: true` only
 * on an internal note, which only a secret key (`secret`) sees.
 */
export function commentJson(sources: CommentSources, secret: boolean): string {
  const { cm } = sources;
  const fields: JsonFields = [
    ['id', `${cm}.id`],
    ['content', `${cm}.content`],
    ['createdAt', isoTimestamp(`${cm}.created_at`)],
    ['author', commentAuthor(sources)],
    ['parentId', `${cm}.parent_id`],
    ['editedAt', `case when ${cm}.edited_at is null then null else ${isoTimestamp(`${cm}.edited_at`)} end`],
    ['isPinned', `${cm}.is_pinned`],
  ];
  const object = jsonObject(fields);
  // `internal` is present, and true, on the team's notes only (as spec 2.4's `isTeam` on the team's
  // comments), so a visible comment reads the same to either kind of key. The object's text always
  // ends with its closing brace: the key goes in just before it.
  return secret ? `(case when ${cm}.is_internal then left(${object}::text, -1) || ',"internal":true}' else ${object}::text end)::json` : object;
}

/** The detail's and the list's comment of a `comments cm left join end_users cu` row. */
export const STORED_COMMENT = { cm: 'cm', userName: 'cu.name', userAvatar: 'cu.avatar_url', userExternalId: 'cu.external_id' } as const;

/** The order of an item's comments: the pinned answer first, then oldest first (ids break ties of one millisecond). */
export const COMMENT_ORDER = 'cm.is_pinned desc, cm.created_at, cm.id';

/** Which of an item's comments a caller sees: a public key never sees the team's internal notes. */
export function visibleComments(secret: boolean): string {
  return secret ? 'true' : 'not cm.is_internal';
}

/**
 * The comment's `comment.*` event data (jsonb) of row `cm`, its author's externalId `externalId`
 * and the item's count `count`: as `comment.created` always had it, plus the conversation's fields.
 */
export function commentEventData(cm: string, authorName: string, externalId: string, count: string): string {
  return `jsonb_build_object(
    'feedback', jsonb_build_object('id', ${cm}.feedback_id, 'commentCount', ${count}),
    'comment', jsonb_build_object(
      'id', ${cm}.id, 'content', ${cm}.content,
      'createdAt', ${isoTimestamp(`${cm}.created_at`)},
      'author', jsonb_build_object('isTeam', ${cm}.is_team, 'name', coalesce(${cm}.author_name, ${authorName}), 'externalId', ${externalId}),
      'parentId', ${cm}.parent_id, 'internal', ${cm}.is_internal, 'isPinned', ${cm}.is_pinned,
      'editedAt', case when ${cm}.edited_at is null then null else ${isoTimestamp(`${cm}.edited_at`)} end))`;
}

/** A commenter as votes key them: the end user's id (a blocked one exists already), else the anonymous caller's voter key ($10). */
const COMMENT_AUTHOR_KEY = `coalesce((select e.id::text from end_users e where e.project_id = $2::uuid and e.external_id = $4::text), $10::text)`;

/**
 * A new comment, in one statement (one round trip, no ORM): $1 item, $2 project, $3 content,
 * $4 the end user's externalId (null: the team or an anonymous caller), $5 the end user's profile
 * (jsonb, as identify takes it), $6 the team's display name (null: not the team), $7 parentId
 * (null: top level), $8 internal, $9 whether the caller is a secret key (it may reply under an
 * internal note), $10 the anonymous caller's voter key (null: none). The end user is upserted as
 * identify does, and subscribed to the item (issue 40: reason "commented"). A reply to a reply
 * joins its top-level comment; a reply under an internal note is internal too, so no visible
 * comment hangs under one a public key cannot see. Internal notes are not counted in `comment_count`.
 *
 * A public team reply (not an internal note, not an end user's comment) tells the item's
 * subscribers in the same statement (`notified`, docs/notifications.md).
 *
 * One row: `item_found`, `parent_found`, `anonymous_refused`, `blocked` (the team blocked this
 * author: docs/moderation.md) (why nothing was written), and the
 * comment (JSON text, as a secret key sees it when $9) with the item's `comment_count` after it.
 */
export const CREATE_COMMENT: Statement = {
  name: 'create_comment',
  text: `with f as (
    select f.id from feedback f where f.id = $1::uuid and f.project_id = $2::uuid for key share
  ), counters as (
    select c.feedback_id, c.comment_count from feedback_counters c join f on f.id = c.feedback_id for no key update of c
  ), par as (
    select coalesce(p.parent_id, p.id) as id, p.is_internal from comments p join counters k on k.feedback_id = p.feedback_id
    where p.id = $7::uuid and (not p.is_internal or $9::boolean)
    for key share of p
  ), allowed as (
    select k.feedback_id from counters k
    where ($7::uuid is null or exists (select 1 from par))
      and ($4::text is not null or $6::text is not null or (select pr.anonymous_comments from projects pr where pr.id = $2::uuid))
      and ($6::text is not null or ${notBlocked('$2::uuid', COMMENT_AUTHOR_KEY)})
  ), ${endUserCtes({ project: '$2::uuid', externalId: '$4::text', profile: '$5::jsonb' }, '$4::text is not null and exists (select 1 from allowed)')},
  ins as (
    insert into comments (feedback_id, parent_id, author_end_user_id, author_name, is_team, is_internal, content)
    select a.feedback_id, (select id from par), (select id from uid where $4::text is not null), $6::text, $6::text is not null,
      $8::boolean or coalesce((select is_internal from par), false), $3::text
    from allowed a
    returning *
  ), counted as (
    update feedback_counters c set comment_count = c.comment_count + 1 from ins
    where c.feedback_id = ins.feedback_id and not ins.is_internal
    returning c.comment_count
  ), now_count as (
    select coalesce((select comment_count from counted), (select comment_count from counters)) as comment_count
  ), subscribed as (
    ${subscribeRows('ins', { item: 'ins.feedback_id', endUser: 'ins.author_end_user_id', project: '$2::uuid' }, ['commented'])}
  ), event as (
    insert into webhook_events (project_id, type, data)
    select $2::uuid, 'comment.created', ${commentEventData('ins', '(select name from uid)', '$4::text', '(select comment_count from now_count)')}
    from ins where webhooks_wanted($2::uuid, 'comment.created')
  ), notified as materialized (
    select ${notifySubscribers('$2::uuid', 'array[ins.feedback_id]', 'ins.feedback_id', 'team_reply', `jsonb_build_object('feedback', (select ${notificationItem('fi')} from feedback fi where fi.id = ins.feedback_id),
      'reply', jsonb_build_object('id', ins.id, 'content', ins.content, 'authorName', ins.author_name, 'createdAt', ${isoTimestamp('ins.created_at')}))`)} as n
    from ins where ins.is_team and not ins.is_internal
  )
  select exists (select 1 from f) as item_found, (select count(*) from notified)::int as notified,
    ($7::uuid is null or exists (select 1 from par)) as parent_found,
    ($4::text is null and $6::text is null and not coalesce((select pr.anonymous_comments from projects pr where pr.id = $2::uuid), false)) as anonymous_refused,
    ($6::text is null and not ${notBlocked('$2::uuid', COMMENT_AUTHOR_KEY)}) as blocked,
    (select ${commentJson({ cm: 'ins', userName: 'u.name', userAvatar: 'u.avatar_url', userExternalId: '$4::text' }, true)}::text
      from ins left join uid u on true) as comment,
    (select comment_count from now_count) as comment_count`,
};

/**
 * The item's comments as the detail shows them (GET .../comments): $1 item, $2 project. No row:
 * no such item in the project. `secret`: with the team's internal notes, each with `internal`.
 */
export function listComments(secret: boolean): Statement {
  return {
    name: secret ? 'list_comments_secret' : 'list_comments',
    text: `select (
      select coalesce('[' || string_agg((${commentJson(STORED_COMMENT, secret)})::text, ',' order by ${COMMENT_ORDER}) || ']', '[]')
      from comments cm left join end_users cu on cu.id = cm.author_end_user_id
      where cm.feedback_id = f.id and ${visibleComments(secret)}
    ) as comments
    from feedback f where f.id = $1::uuid and f.project_id = $2::uuid`,
  };
}

/**
 * One comment of an item as a caller sees it: $1 comment, $2 item; `secret` as for listComments.
 * No row: no such comment there (or an internal note and a public key).
 */
export function commentById(secret: boolean): Statement {
  return {
    name: secret ? 'comment_by_id_secret' : 'comment_by_id',
    text: `select ${commentJson(STORED_COMMENT, secret)}::text as comment
    from comments cm left join end_users cu on cu.id = cm.author_end_user_id
    where cm.id = $1::uuid and cm.feedback_id = $2::uuid and ${visibleComments(secret)}`,
  };
}

/**
 * A comment about to be changed, locked (`for update`): $1 comment, $2 item. `answered`: the team
 * has replied (visibly) to it or below it in its thread (a reply after it under the same top-level
 * comment), which ends its author's right to edit or delete it.
 */
export const COMMENT_FOR_CHANGE = `select cm.id, cm.content, cm.is_team, cm.is_internal, cm.parent_id, cu.external_id,
    exists (
      select 1 from comments t
      where t.parent_id = coalesce(cm.parent_id, cm.id) and t.is_team and not t.is_internal and (t.created_at, t.id) > (cm.created_at, cm.id)
    ) as answered
  from comments cm left join end_users cu on cu.id = cm.author_end_user_id
  where cm.id = $1::uuid and cm.feedback_id = $2::uuid
  for update of cm`;

/** An edit: the previous content goes to comment_revisions, dated from its writing to now. $1 comment, $2 new content. */
export const EDIT_COMMENT = `with old as (
    select id, content, coalesce(edited_at, created_at) as written_at from comments where id = $1::uuid
  ), revision as (
    insert into comment_revisions (comment_id, content, written_at) select id, content, written_at from old
  )
  update comments set content = $2::text, edited_at = now() where id = $1::uuid`;

/** Unpins the item's pinned comment, if another: $1 item, $2 the comment to pin. Run before PIN_COMMENT (the one-pin index is checked row by row). */
export const UNPIN_OTHERS = `update comments set is_pinned = false where feedback_id = $1::uuid and is_pinned and id <> $2::uuid`;

/** Pins or unpins comment $1 ($2). */
export const SET_PINNED = `update comments set is_pinned = $2::boolean where id = $1::uuid and is_pinned <> $2::boolean`;

/**
 * Deletes comment $1 and its replies: the rows gone, to count the visible ones out of comment_count.
 * An author's delete runs KEEP_NOTES first, so the team's notes are no longer among its replies.
 */
export const DELETE_THREAD = `delete from comments where id = $1::uuid or parent_id = $1::uuid returning id, is_internal`;

/**
 * Before an author deletes their comment $1 (issue 49: an end user's delete destroyed the team's
 * notes): the internal notes under it leave its thread and stay on the item. The oldest becomes a
 * top-level note and the others its replies, so they still read as one thread on the team's pages;
 * a reply under a note is internal too (CREATE_COMMENT), so none of them is ever visible. Returns
 * the notes moved (in no order). Run after the item and its counters are locked
 * (comments.service.ts), so no note can join the thread meanwhile.
 */
export const KEEP_NOTES = `with notes as (
    select id, first_value(id) over (order by created_at, id) as head
    from comments where parent_id = $1::uuid and is_internal
  )
  update comments c set parent_id = nullif(notes.head, c.id) from notes where c.id = notes.id
  returning c.id`;

/** A `comment.updated` event of comment $1 (as it is now), with the item's count: $2 project. */
export const COMMENT_UPDATED_EVENT = `insert into webhook_events (project_id, type, data)
  select $2::uuid, 'comment.updated', ${commentEventData('cm', 'e.name', 'e.external_id', 'c.comment_count')}
  from comments cm join feedback_counters c on c.feedback_id = cm.feedback_id left join end_users e on e.id = cm.author_end_user_id
  where cm.id = $1::uuid and webhooks_wanted($2::uuid, 'comment.updated')`;

/** A `comment.deleted` event: $1 project, $2 its data (built by the service from the rows it deleted). */
export const COMMENT_DELETED_EVENT = `insert into webhook_events (project_id, type, data)
  select $1::uuid, 'comment.deleted', $2::jsonb where webhooks_wanted($1::uuid, 'comment.deleted')`;

/** A comment's previous contents, oldest first: $1 comment. */
export const COMMENT_REVISIONS = `select coalesce('[' || string_agg(${jsonObject([
  ['content', 'r.content'],
  ['writtenAt', isoTimestamp('r.written_at')],
  ['replacedAt', isoTimestamp('r.replaced_at')],
])}::text, ',' order by r.replaced_at, r.id) || ']', '[]') as revisions
  from comment_revisions r where r.comment_id = $1::uuid`;
