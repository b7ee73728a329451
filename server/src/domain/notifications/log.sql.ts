import { isoTimestamp } from '../../db/json.sql.js';

/*
 * The notifications' log for operators (GET /api/v1/notifications, docs/notifications.md): the
 * rows of `notifications` as NotificationSchema shows them, built as JSON in PostgreSQL.
 */

const NOTIFICATION_JSON = `jsonb_build_object(
    'id', n.id, 'changeId', n.change_id, 'kind', n.kind, 'feedbackId', n.feedback_id, 'entryId', n.data->'entry'->>'id',
    'recipient', jsonb_build_object('externalId', u.external_id, 'email', u.email),
    'mailState', n.mail_state, 'attempts', n.attempts, 'lastError', n.last_error,
    'createdAt', ${isoTimestamp('n.created_at')}, 'sentAt', case when n.sent_at is null then null else ${isoTimestamp('n.sent_at')} end)`;

/** A page of a project's notifications, newest first, with the count of all: $1 project, $2 mail state or null, $3 limit, $4 offset. */
export const NOTIFICATION_PAGE = `with listed as (
    select n.* from notifications n where n.project_id = $1::uuid and ($2::text is null or n.mail_state = $2::text)
  )
  select (select count(*) from listed)::int as total,
    coalesce((select jsonb_agg(p.row order by p.created_at desc, p.id desc) from (
      select ${NOTIFICATION_JSON} as row, n.created_at, n.id from listed n join end_users u on u.id = n.end_user_id
      order by n.created_at desc, n.id desc limit $3 offset $4
    ) p), '[]'::jsonb)::text as items`;

/**
 * Sends failed mail again: rows $2 (uuid[]), or with $2 null every failed row of project $1, back
 * to `pending`, due now, with their tries counted afresh. Rows already sent, skipped or
 * suppressed are left as they are (a suppressed address stays suppressed).
 */
export const RETRY = `update notifications set mail_state = 'pending', attempts = 0, next_attempt_at = now(), claimed_until = null
  where project_id = $1::uuid and mail_state = 'failed' and ($2::uuid[] is null or id = any($2::uuid[])) returning 1`;

/** The project's digest choice: $1 project, $2 digest. */
export const SET_DIGEST = `update projects set notify_digest = $2::boolean where id = $1::uuid returning notify_digest as digest`;

/** How long the log keeps a notification whose mail is settled (sent, skipped, suppressed, failed), in days. */
export const NOTIFICATION_LOG_DAYS = 30;

/**
 * Deletes settled notifications older than NOTIFICATION_LOG_DAYS, by the age of their time-ordered
 * id (the primary key: no index on the time is kept up by the fan-out). Pending ones stay.
 */
export const PRUNE_NOTIFICATIONS = `delete from notifications
  where id < time_ordered_uuid_floor(now() - ${NOTIFICATION_LOG_DAYS} * interval '1 day') and mail_state <> 'pending'`;
