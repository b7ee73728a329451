/*
 * The mail sender's statements (delivery/mail/mail-sender.ts, docs/notifications.md). Every time is the
 * sender's own `now` ($-parameters), so a test can move its clock; rows were written at the
 * database's now().
 */

/** A notification claimed for mail, with its recipient and project. */
export interface ClaimedNotification extends Record<string, unknown> {
  id: string;
  end_user_id: string;
  project_id: string;
  feedback_id: string | null;
  kind: 'status_changed' | 'team_reply' | 'merged' | 'shipped';
  data: Record<string, unknown>;
  attempts: number;
  email: string;
  name: string | null;
  project_name: string;
  project_slug: string;
  board_locale: string | null;
}

/**
 * Claims the pending mail of up to $3 recipients whose oldest pending notification has waited its
 * window: $2 seconds (`serve --notify-window`), or a day for a project that chose the daily digest
 * (`projects.notify_digest`). A person with any row past the window has their oldest past it too,
 * so the rows are read oldest first on the pending rows' time index: under a backlog of 100,000 a
 * claim reads a few rows, not all of them. All of a recipient's pending rows are claimed together, so what came
 * within the window leaves as one message. A claim is a lease until $1 + $4 seconds: rows locked by
 * another sender are skipped (FOR UPDATE SKIP LOCKED), and rows whose lease ran out (a sender that
 * died mid-send) are claimed again. $1 is now.
 *
 * The rows of a held change (notification_holds, domain/notifications/holds.sql.ts) are never claimed: they
 * leave once the change is released, or never if it was taken back. The hold row is what decides,
 * read in this statement's snapshot: a change taken back or released while a claim runs is, for
 * that claim, still held (its rows wait for the next one, or are gone by then).
 */
export const CLAIM_DUE = `with due_users as (
    select distinct d.end_user_id from (
      select n.end_user_id from notifications n join projects p on p.id = n.project_id
      where n.mail_state = 'pending' and n.next_attempt_at <= $1::timestamptz and (n.claimed_until is null or n.claimed_until < $1::timestamptz)
        and n.created_at <= $1::timestamptz - make_interval(secs => case when p.notify_digest then 86400 else $2::int end)
        and not exists (select 1 from notification_holds h where h.change_id = n.change_id)
      order by n.created_at limit $3 * 4
    ) d limit $3
  ), claimable as (
    select n.id from notifications n
    where n.end_user_id in (select end_user_id from due_users) and n.mail_state = 'pending'
      and n.next_attempt_at <= $1::timestamptz and (n.claimed_until is null or n.claimed_until < $1::timestamptz)
      and not exists (select 1 from notification_holds h where h.change_id = n.change_id)
    order by n.id for update skip locked
  )
  update notifications n set claimed_until = $1::timestamptz + make_interval(secs => $4::int), attempts = n.attempts + 1
  from claimable c, end_users u, projects p
  where n.id = c.id and u.id = n.end_user_id and p.id = n.project_id
  returning n.id::text as id, n.end_user_id::text as end_user_id, n.project_id::text as project_id, n.feedback_id::text as feedback_id,
    n.kind, n.data, n.attempts, u.email, u.name, p.name as project_name, p.slug as project_slug, p.board_locale`;

/** Marks rows $1 (uuid[]) sent at $2. */
export const MARK_SENT = `update notifications set mail_state = 'sent', sent_at = $2::timestamptz, claimed_until = null, last_error = null where id = any($1::uuid[])`;

/**
 * A failure that may pass (the server down, a 4xx): rows $1 are tried again at $2, or marked
 * `failed` when $3 (their retries are spent); $4 the error.
 */
export const MARK_RETRY = `update notifications set mail_state = case when $3::boolean then 'failed' else 'pending' end,
    next_attempt_at = $2::timestamptz, claimed_until = null, last_error = $4::text where id = any($1::uuid[])`;

/**
 * A permanent refusal (5xx) of end user $2's address: rows $1 and every other pending row of the
 * address are `suppressed`, and so is the end user, so no further mail is tried. $3 the error.
 */
export const SUPPRESS = `with who as (
    update end_users set email_suppressed_at = coalesce(email_suppressed_at, now()) where id = $2::uuid returning id
  )
  update notifications set mail_state = 'suppressed', claimed_until = null, last_error = $3::text
  where id = any($1::uuid[]) or (end_user_id in (select id from who) and mail_state = 'pending')`;
