/*
 * Held notifications (docs/notifications.md, "Held while the Undo is offered";
 * Migration0027_notification_holds). The team's bulk status change holds its
 * notifications: their rows are written, but no mail leaves (the mail sender's claim skips them,
 * mail.sql.ts) and no `notification.created` event is written, until the machine's jobs release
 * the change here. A change that puts an item back before then takes the hold back, and nobody is
 * told of either (`notify_subscribers`).
 */

/**
 * The longest a change is held, in seconds: as long as the team's Undo is offered
 * (web/team/undo-token.ts). Holding longer would delay the news with nothing left to wait for.
 */
export const NOTIFY_HOLD_MAX_SECONDS = 10 * 60;

/**
 * How long a change is held on a server whose notifications wait `windowSeconds` to leave as one
 * message (`serve --notify-window`): that window, at most NOTIFY_HOLD_MAX_SECONDS. So a held change
 * never waits longer than its mail would anyway, and `--notify-window 0` holds nothing (the jobs
 * release it at their next turn, within a second).
 */
export function notifyHoldSeconds(windowSeconds: number): number {
  return Math.min(Math.max(0, windowSeconds), NOTIFY_HOLD_MAX_SECONDS);
}

/** Holds released by one statement at most; the job runs it again while it releases that many. */
export const RELEASES_PER_STATEMENT = 500;

/**
 * Releases the holds older than $2 seconds at $1 (the database's now() when null; a test moves it),
 * oldest first, RELEASES_PER_STATEMENT at most: each goes, and its change's `notification.created`
 * events are written (`release_notifications`), in one statement. `for update skip locked`: a hold
 * that a change is taking back at this moment is left to it, and two machines never release one
 * twice. One row: how many were released.
 */
export const RELEASE_DUE = `with due as (
    select h.change_id from notification_holds h
    where h.created_at <= coalesce($1::timestamptz, now()) - make_interval(secs => $2::int)
    order by h.created_at limit ${RELEASES_PER_STATEMENT}
    for update skip locked
  )
  select release_notifications(array(select change_id from due)) as released`;
