import { isoTimestamp } from '../../db/json.sql.js';

/**
 * The outbox: events are rows of `webhook_events`, written in the transaction (or the very
 * statement) of the change they report, and only while an enabled endpoint of the project
 * subscribes to the type (`webhooks_wanted`, Migration0010_webhooks). The writer inserts
 * the event alone; the sender fans it out into deliveries later (deliveries.sql.ts). Votes write
 * theirs inside `toggle_vote`; the statements here are for everything else.
 */

/**
 * The type of a grouped row: the events of one batch statement (of toggles, of submissions) as
 * `data` = `[{type, data}, ...]`, one row instead of one per event, on the request's own time. The
 * sender expands it into its events before their fan-out (deliveries.sql.ts, EXPAND_GROUPED); it is
 * never delivered itself.
 */
export const GROUPED_EVENTS = 'batch';

/**
 * A data-modifying CTE's statement that writes `feedback.created` for the items of `from` (a
 * relation with `f`, the inserted `feedback` rows, and whatever `externalId` reads), as part of
 * the submit statement itself. A new item has its submitter's vote and no comment. `grouped`: the
 * items' events as one grouped row (a batch of submissions, all of one project).
 */
export function feedbackCreatedEvents(from: string, externalId: string, grouped = false): string {
  const data = `jsonb_build_object('feedback',
      webhook_feedback(row(f.*)::feedback, 1, 0, ${externalId}) || jsonb_build_object('description', f.description, 'metadata', f.metadata))`;
  if (grouped) {
    return `insert into webhook_events (project_id, type, data)
    select f.project_id, '${GROUPED_EVENTS}', jsonb_agg(jsonb_build_object('type', 'feedback.created', 'data', ${data}) order by f.id)
    from ${from} where webhooks_wanted(f.project_id, 'feedback.created') group by f.project_id`;
  }
  return `insert into webhook_events (project_id, type, data)
    select f.project_id, 'feedback.created', ${data}
    from ${from} where webhooks_wanted(f.project_id, 'feedback.created')`;
}

/**
 * Events about items, as they are now, one per row of `from`: a relation with `f`, rows of
 * `feedback` (the table itself, or the rows a data-modifying CTE returned, as the change left
 * them), and whatever `type`, `key` (the key the item goes under: `feedback` or `target`) and
 * `rest` (the rest of `data`, jsonb) read. Its statement runs after the change, or in the change's
 * own statement reading what the change returned.
 */
export function itemEvents(from: string, type: string, key: string, rest: string): string {
  return `insert into webhook_events (project_id, type, data)
  select f.project_id, ${type}, jsonb_build_object(${key}, webhook_feedback(row(f.*)::feedback, c.vote_count, c.comment_count, u.external_id)) || ${rest}
  from ${from} join feedback_counters c on c.feedback_id = f.id left join end_users u on u.id = f.end_user_id
  where webhooks_wanted(f.project_id, ${type}) order by f.id`;
}

/** An event about one item (itemEvents): $1 item, $2 type, $3 the key the item goes under, $4 the rest of `data`. */
export const ITEM_EVENT = itemEvents('(select * from feedback where id = $1::uuid) f', '$2::text', '$3::text', '$4::jsonb');

/** `feedback.deleted`, written before the item's row goes: $1 item. */
export const ITEM_DELETED_EVENT = `insert into webhook_events (project_id, type, data)
  select f.project_id, 'feedback.deleted', jsonb_build_object('feedback', jsonb_build_object('id', f.id, 'title', f.title, 'type', f.type, 'status', f.status))
  from feedback f where f.id = $1::uuid and webhooks_wanted(f.project_id, 'feedback.deleted')`;

// The `comment.*` events are written by the conversation's own statements (domain/comments/comments.sql.ts).

/**
 * Notifications (docs/notifications.md): a call of `notify_subscribers` (Migration0023,
 * Migration0027), which writes one `notifications` row per subscriber of `items`
 * (uuid[]) and the `notification.created` events, in one INSERT ... SELECT each. A statement calls
 * it from a materialized CTE over the rows it changed, and reads that CTE in its final select: a
 * CTE that only selects is run only when something reads it. `feedback` is the item the row links
 * to. `hold` (SQL, boolean): the change is held, its events written only when the machine's jobs
 * release it (domain/notifications/holds.sql.ts), so that an Undo before then takes it back unsent.
 */
export function notifySubscribers(project: string, items: string, feedback: string, kind: 'status_changed' | 'team_reply' | 'merged' | 'shipped', change: string, hold?: string): string {
  return `notify_subscribers(${project}, ${items}, ${feedback}, '${kind}', ${change}${hold === undefined ? '' : `, null, ${hold}`})`;
}

/** Item `f` (a row of `feedback`) as a notification names it (NotificationItemSchema), jsonb. */
export function notificationItem(f: string): string {
  return `jsonb_build_object('id', ${f}.id, 'title', ${f}.title, 'type', ${f}.type, 'status', ${f}.status)`;
}
