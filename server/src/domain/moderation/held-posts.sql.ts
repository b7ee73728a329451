import type { Statement } from '../../db/pool.js';
import { itemFields, jsonObject } from '../../db/json.sql.js';
import { commentJson } from '../comments/comments.sql.js';
import { endUserCtes } from '../people/end-user.sql.js';
import { notBlocked } from './posting-blocks.sql.js';

/*
 * Moderation's hot statements (docs/moderation.md): a held post is written to `held_posts`, not
 * to `feedback` or `comments`, so no public read, counter, total or webhook sees it until the
 * team approves it (domain/moderation/moderation.sql.ts). One round trip each, like the posts they stand in
 * for; which one runs is decided before (domain/moderation/hold-reason.ts), from the cached setting.
 */

/** A held submission as the item it will be (the same id and time): `h` a held_posts row, new as a submission is. */
function heldItem(user: string | null): string {
  const item = `(select h.id, h.title, h.description, h.type, 'new'::text as status, h.created_at, h.end_user_id)`;
  return `(select ${jsonObject(itemFields({ feedback: 'hf', voteCount: '1', commentCount: '0', user }))}::text from ${item} hf)`;
}

/**
 * A held submission by an identified end user (upserted as a submission's): $1 project, $2 title,
 * $3 description, $4 type, $5 metadata, $6 externalId, $7 given profile, $8 reason. One row:
 * `blocked`, and `body`, the item as it will be (null when blocked).
 */
export const HOLD_SUBMISSION_IDENTIFIED: Statement = {
  name: 'hold_submission_identified',
  text: `with ${endUserCtes({ project: '$1::uuid', externalId: '$6::text', profile: '$7' })},
  h as (
    insert into held_posts (project_id, kind, end_user_id, voter_key, title, description, type, metadata, reason)
    select $1::uuid, 'feedback', uid.id, uid.id::text, $2::text, $3::text, $4::text, $5::jsonb, $8::text from uid
    where ${notBlocked('$1::uuid', 'uid.id::text')}
    returning *
  )
  select not exists (select 1 from h) as blocked, (select ${heldItem('uid')} from h cross join uid) as body`,
};

/** A held anonymous submission: $1 to $5 as above, $6 the caller's voter key, $7 reason. */
export const HOLD_SUBMISSION_ANONYMOUS: Statement = {
  name: 'hold_submission_anonymous',
  text: `with h as (
    insert into held_posts (project_id, kind, end_user_id, voter_key, title, description, type, metadata, reason)
    select $1::uuid, 'feedback', null, $6::text, $2::text, $3::text, $4::text, $5::jsonb, $7::text
    where ${notBlocked('$1::uuid', '$6::text')}
    returning *
  )
  select not exists (select 1 from h) as blocked, (select ${heldItem(null)} from h) as body`,
};

/**
 * A held comment of an end user or an anonymous caller, checked as CREATE_COMMENT checks one (the
 * item in the project, a visible parent of it, anonymous comments allowed): $1 item, $2 project,
 * $3 content, $4 externalId (null: anonymous), $5 profile, $6 parentId, $7 the anonymous caller's
 * voter key, $8 reason. One row, as CREATE_COMMENT's: `item_found`, `parent_found`,
 * `anonymous_refused`, `blocked`, the comment as it will be and the item's unchanged count.
 */
export const HOLD_COMMENT: Statement = {
  name: 'hold_comment',
  text: `with f as (
    select f.id from feedback f where f.id = $1::uuid and f.project_id = $2::uuid
  ), par as (
    select coalesce(p.parent_id, p.id) as id from comments p join f on f.id = p.feedback_id where p.id = $6::uuid and not p.is_internal
  ), allowed as (
    select f.id as feedback_id from f
    where ($6::uuid is null or exists (select 1 from par))
      and ($4::text is not null or (select pr.anonymous_comments from projects pr where pr.id = $2::uuid))
  ), ${endUserCtes({ project: '$2::uuid', externalId: '$4::text', profile: '$5::jsonb' }, '$4::text is not null and exists (select 1 from allowed)')},
  author as (
    select coalesce((select id::text from uid where $4::text is not null), $7::text) as voter_key
  ), h as (
    insert into held_posts (project_id, kind, feedback_id, parent_id, end_user_id, voter_key, content, reason)
    select $2::uuid, 'comment', a.feedback_id, (select id from par), (select id from uid where $4::text is not null), au.voter_key, $3::text, $8::text
    from allowed a cross join author au
    where ${notBlocked('$2::uuid', 'au.voter_key')}
    returning *
  )
  select exists (select 1 from f) as item_found,
    ($6::uuid is null or exists (select 1 from par)) as parent_found,
    ($4::text is null and not coalesce((select pr.anonymous_comments from projects pr where pr.id = $2::uuid), false)) as anonymous_refused,
    exists (select 1 from allowed) and not exists (select 1 from h) as blocked,
    (select ${commentJson({ cm: 'hc', userName: 'u.name', userAvatar: 'u.avatar_url', userExternalId: '$4::text' }, false)}::text
      from (select h.id, h.content, h.created_at, false as is_team, h.end_user_id as author_end_user_id, null::text as author_name,
        h.parent_id, null::timestamptz as edited_at, false as is_pinned, false as is_internal from h) hc
      left join uid u on true) as comment,
    (select c.comment_count from feedback_counters c where c.feedback_id = $1::uuid) as comment_count`,
};

/*
 * An end user's edit of their published comment passes the same checks as a new comment
 * (docs/moderation.md, "Edits"): domain/comments/comments.service.ts runs these in the edit's transaction,
 * after it has locked the item, its counters and the comment, and domain/moderation/hold-reason.ts's holdReason
 * has decided.
 */

/** Whether the author of comment $2 (an end user's) may no longer post to project $1: the block check of every post. */
export const COMMENT_AUTHOR_BLOCKED = `select not ${notBlocked('$1::uuid', 'cm.author_end_user_id::text')} as blocked
  from comments cm where cm.id = $2::uuid and cm.author_end_user_id is not null`;

/**
 * Locks the edit of comment $1 (project $2) that waits for the team, if any, before the edit
 * locks the item: the order of the team's decision (held post, item, counters, comment), so an
 * approval and an edit of one comment wait for each other instead of deadlocking.
 */
export const LOCK_HELD_EDIT = `select 1 from held_posts where comment_id = $1::uuid and project_id = $2::uuid for update`;

/** Drops the edit of comment $1 that waits for the team, if any: its author's newer edit replaces it. */
export const DROP_HELD_EDIT = `delete from held_posts where comment_id = $1::uuid`;

/**
 * Holds an edit of comment $1 (project $2): $3 the new content, $4 the reason. The held row is a
 * comment of the same item, parent and author, whose `comment_id` names the comment it would
 * rewrite; the comment itself is not touched.
 */
export const HOLD_EDIT = `insert into held_posts (project_id, kind, feedback_id, parent_id, end_user_id, voter_key, content, reason, comment_id)
  select $2::uuid, 'comment', cm.feedback_id, cm.parent_id, cm.author_end_user_id, cm.author_end_user_id::text, $3::text, $4::text, cm.id
  from comments cm where cm.id = $1::uuid and cm.author_end_user_id is not null`;
