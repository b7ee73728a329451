import { ADDRESS_BLOCK_DAYS } from '@feedbackd/sdk/contract';
import { countInsertedRows } from '../../db/counters.sql.js';
import { isoTimestamp, jsonArrayText, jsonObject } from '../../db/json.sql.js';
import { feedbackCreatedEvents } from '../events/outbox.sql.js';
import { commentEventData } from '../comments/comments.sql.js';
import { countersAndVote } from '../feedback/submit.sql.js';

/*
 * The team's side of moderation (docs/moderation.md): the queue, approval and rejection. An
 * approved post moves from `held_posts` into `feedback` or `comments` with the id and the time it
 * was given, through the submission's and the comment's own fragments (the counters and the
 * submitter's vote of domain/feedback/submit.sql.ts, the comment counter of db/counters.sql.ts, the events of
 * domain/events/outbox.sql.ts and domain/comments/comments.sql.ts): its webhook goes out then, once, as the post's would
 * have. Each runs in moderation.service.ts's transaction, after the item's lock.
 */

/** The project's queue, oldest first: $1 project, $2 most rows. `items` (JSON text) and `total`. */
export const HELD_QUEUE = `select (
    select ${jsonArrayText(
      jsonObject([
        ['id', 'q.id'],
        ['kind', 'q.kind'],
        ['reason', 'q.reason'],
        ['createdAt', isoTimestamp('q.created_at')],
        ['feedbackId', 'q.feedback_id'],
        ['parentId', 'q.parent_id'],
        ['editOf', 'q.comment_id'],
        ['title', 'q.title'],
        ['description', 'q.description'],
        ['type', 'q.type'],
        ['metadata', 'q.metadata'],
        ['content', 'q.content'],
        ['author', `case when q.end_user_id is null then null else ${jsonObject([['externalId', 'q.external_id'], ['name', 'q.name']])} end`],
      ]),
      'q.created_at, q.id',
    )}
    from (
      select h.*, e.external_id, e.name from held_posts h left join end_users e on e.id = h.end_user_id
      where h.project_id = $1::uuid order by h.created_at, h.id limit $2
    ) q
  ) as items, (select count(*)::int from held_posts where project_id = $1::uuid) as total`;

/** How many posts the project holds: $1 project (the team inbox's Held tab). */
export const HELD_COUNT = { name: 'held_count', text: 'select count(*)::int as n from held_posts where project_id = $1::uuid' };

/** The project's held posts among ids $2 (a uuid[]), locked for the decision: $1 project. `comment_id`: an edit's comment. */
export const HELD_FOR_DECISION = `select id, kind, feedback_id, comment_id from held_posts where project_id = $1::uuid and id = any($2::uuid[]) order by id for update`;

/** Approves held submission $1: the item with its id and time, its counters, the submitter's vote and `feedback.created`. */
export const APPROVE_SUBMISSION = `with h as (
    delete from held_posts where id = $1::uuid and kind = 'feedback' returning *
  ), f as (
    insert into feedback (id, project_id, end_user_id, title, description, type, metadata, created_at)
    select h.id, h.project_id, h.end_user_id, h.title, h.description, h.type, h.metadata, h.created_at from h
    returning *
  ), ${countersAndVote('h.voter_key', 'f join h on h.id = f.id')}, w as (
    ${feedbackCreatedEvents('f left join end_users eu on eu.id = f.end_user_id', 'eu.external_id')}
  )
  select f.id from f`;

/**
 * Approves held comment $1 (after the item's and its counters' locks): the comment with its id
 * and time, counted, and `comment.created` with the count after it. Not an edit (APPROVE_EDIT).
 */
export const APPROVE_COMMENT = `with h as (
    delete from held_posts where id = $1::uuid and kind = 'comment' and comment_id is null returning *
  ), ins as (
    insert into comments (id, feedback_id, parent_id, author_end_user_id, content, created_at)
    select h.id, h.feedback_id, h.parent_id, h.end_user_id, h.content, h.created_at from h
    returning *
  ), counted as (
    ${countInsertedRows('ins', 'comments')}
    returning c.comment_count
  ), event as (
    insert into webhook_events (project_id, type, data)
    select f.project_id, 'comment.created', ${commentEventData('ins', 'e.name', 'e.external_id', '(select comment_count from counted)')}
    from ins join feedback f on f.id = ins.feedback_id left join end_users e on e.id = ins.author_end_user_id
    where webhooks_wanted(f.project_id, 'comment.created')
  )
  select ins.id, ins.feedback_id from ins`;

/** How much of a rejected post a block keeps (its title, or a comment's text): enough to tell blocks apart. */
export const BLOCK_EXCERPT_LENGTH = 100;

/** A block in force of `pb`: not yet expired (domain/moderation/posting-blocks.sql.ts checks the same). */
const IN_FORCE = '(pb.expires_at is null or pb.expires_at > now())';

/**
 * Takes held edit $1 out of the queue for its approval: its comment and the text that replaces the
 * comment's (moderation.service.ts then runs the edit as the author's own would have run).
 */
export const TAKE_HELD_EDIT = `delete from held_posts where id = $1::uuid and comment_id is not null returning comment_id, content`;

/**
 * Rejects held posts $2 (uuid[]) of project $1: deleted; with $3, their authors blocked (docs/moderation.md,
 * "Blocks"): an end user by their id, an anonymous caller by their voter key (the address), for $4 days
 * if given (an int, or null), else an end user until lifted and an address for ADDRESS_BLOCK_DAYS days.
 * Each block keeps the start of its author's newest rejected post. A block already in force is only
 * ever lengthened (one until lifted stays so); one that had ended is made anew (a new id and time).
 * Answers `rejected` (JSON text: id and kind of each) and `blocked`, the authors now blocked.
 */
export const REJECT_HELD = `with r as (
    delete from held_posts where project_id = $1::uuid and id = any($2::uuid[]) returning id, kind, voter_key, end_user_id, title, content, created_at
  ), b as (
    insert into posting_blocks as pb (project_id, voter_key, end_user_id, excerpt, expires_at)
    select distinct on (r.voter_key) $1::uuid, r.voter_key, r.end_user_id, left(coalesce(r.title, r.content), ${BLOCK_EXCERPT_LENGTH}),
      case when $4::int is not null then now() + make_interval(days => $4::int)
        when r.end_user_id is null then now() + interval '${ADDRESS_BLOCK_DAYS} days' end
    from r where $3::boolean
    order by r.voter_key, r.created_at desc, r.id desc
    on conflict (project_id, voter_key) do update set
      id = case when pb.expires_at <= now() then excluded.id else pb.id end,
      created_at = case when pb.expires_at <= now() then excluded.created_at else pb.created_at end,
      excerpt = excluded.excerpt,
      expires_at = case
        when pb.expires_at <= now() then excluded.expires_at
        when pb.expires_at is null or excluded.expires_at is null then null
        else greatest(pb.expires_at, excluded.expires_at) end
  )
  select ${jsonArrayText(jsonObject([['id', 'r.id'], ['kind', 'r.kind']]), 'r.id')} as rejected,
    (case when $3::boolean then count(distinct r.voter_key) else 0 end)::int as blocked
  from r`;

/** The project's blocks in force, newest first: $1 project, $2 most rows. `items` (JSON text, PostingBlock each) and `total`. */
export const BLOCK_LIST = `select (
    select ${jsonArrayText(
      jsonObject([
        ['id', 'q.id'],
        ['scope', `case when q.end_user_id is null then 'address' else 'endUser' end`],
        ['author', `case when q.end_user_id is null then null else ${jsonObject([['externalId', 'q.external_id'], ['name', 'q.name']])} end`],
        ['excerpt', 'q.excerpt'],
        ['createdAt', isoTimestamp('q.created_at')],
        ['expiresAt', `case when q.expires_at is null then null else ${isoTimestamp('q.expires_at')} end`],
      ]),
      'q.created_at desc, q.id desc',
    )}
    from (
      select pb.*, e.external_id, e.name from posting_blocks pb left join end_users e on e.id = pb.end_user_id
      where pb.project_id = $1::uuid and ${IN_FORCE} order by pb.created_at desc, pb.id desc limit $2
    ) q
  ) as items, (select count(*)::int from posting_blocks pb where pb.project_id = $1::uuid and ${IN_FORCE}) as total`;

/**
 * Lifts block $2 of project $1: deleted, so its author may post at once. One row, `lifted`, when
 * it was in force; none when there was no such block (an expired one is deleted all the same).
 */
export const LIFT_BLOCK = `with gone as (
    delete from posting_blocks pb where pb.project_id = $1::uuid and pb.id = $2::uuid returning ${IN_FORCE} as in_force
  )
  select true as lifted from gone where in_force`;
