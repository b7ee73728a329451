import { countInsertedRows } from '../db/counters.sql.js';
import { isoTimestamp, jsonArrayText, jsonObject } from '../db/json.sql.js';
import { feedbackCreatedEvents } from '../db/outbox.sql.js';
import { commentEventData } from '../api/comments.sql.js';
import { countersAndVote } from '../api/submit.sql.js';

/*
 * The team's side of moderation (docs/moderation.md): the queue, approval and rejection. An
 * approved post moves from `held_posts` into `feedback` or `comments` with the id and the time it
 * was given, through the submission's and the comment's own fragments (the counters and the
 * submitter's vote of api/submit.sql.ts, the comment counter of db/counters.sql.ts, the events of
 * db/outbox.sql.ts and api/comments.sql.ts): its webhook goes out then, once, as the post's would
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

/**
 * Takes held edit $1 out of the queue for its approval: its comment and the text that replaces the
 * comment's (moderation.service.ts then runs the edit as the author's own would have run).
 */
export const TAKE_HELD_EDIT = `delete from held_posts where id = $1::uuid and comment_id is not null returning comment_id, content`;

/**
 * Rejects held posts $2 (uuid[]) of project $1: deleted; with $3, their authors blocked. Answers
 * `rejected` (JSON text: id and kind of each) and `blocked`, the authors now blocked.
 */
export const REJECT_HELD = `with r as (
    delete from held_posts where project_id = $1::uuid and id = any($2::uuid[]) returning id, kind, voter_key, end_user_id
  ), b as (
    insert into posting_blocks (project_id, voter_key, end_user_id)
    select distinct on (r.voter_key) $1::uuid, r.voter_key, r.end_user_id from r where $3::boolean
    on conflict (project_id, voter_key) do nothing
  )
  select ${jsonArrayText(jsonObject([['id', 'r.id'], ['kind', 'r.kind']]), 'r.id')} as rejected,
    (case when $3::boolean then count(distinct r.voter_key) else 0 end)::int as blocked
  from r`;
