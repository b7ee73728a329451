import type { EntityManager } from '@mikro-orm/postgresql';
import { transactionSql } from '../../db/request-transaction.js';

/**
 * What an erasure does to the copies of a person that live outside their own rows: the events of
 * the webhook outbox and its delivery log (`webhook_events.data`, from which every delivery's body
 * is built when it is sent), what receivers answered to those deliveries, and the answers stored
 * for Idempotency-Keys. All are kept for a while (30 days, a day) and would otherwise outlive the
 * erasure.
 */

/** How an erased person's comments are signed from now on, in the detail view and in events. */
export const DELETED_USER = 'Deleted user';

/** What content an erasure deleted: events that carry it (the text the person wrote) go with it. */
export interface DeletedContent {
  items: ReadonlySet<string>;
  comments: ReadonlySet<string>;
}

/** One event: the `{type, data}` of a row, or of an entry of a grouped row. */
type EventEntry = { type: string; data: unknown };

/**
 * Rewrites every event of the project that names `externalId` (anywhere in its data, grouped rows
 * included): a reference `{externalId}` becomes null, an author `{name, externalId}` becomes
 * "Deleted user" with a null externalId, their item's creation loses its metadata; the creation
 * events of deleted content are removed (a grouped row keeps its other entries). Returns how many rows changed or went. Reads the project's
 * outbox and log once (jsonpath over `data`): an erasure is rare, and the log holds 30 days.
 */
export async function forgetInEvents(tx: EntityManager, projectId: string, externalId: string, deleted: DeletedContent): Promise<number> {
  const sql = transactionSql(tx);
  // The notice of an erasure (user.erased) is left alone: it must reach the receivers, and a
  // repeated erasure must not count it.
  const rows = await sql.query<{ id: string; type: string; data: unknown }>(
    '',
    `select id, type, data from webhook_events
     where project_id = $1::uuid and type <> 'user.erased' and jsonb_path_exists(data, '$.** ? (@.externalId == $x)', jsonb_build_object('x', $2::text))
     order by id for update`,
    [projectId, externalId],
  );
  for (const row of rows) {
    const grouped = Array.isArray(row.data);
    const entries: EventEntry[] = grouped ? (row.data as EventEntry[]) : [{ type: row.type, data: row.data }];
    const kept = entries
      .filter((entry) => !carriesDeletedContent(entry, deleted))
      .map((entry) => withoutRecipient(entry, externalId))
      .filter((entry): entry is EventEntry => entry !== undefined)
      .map((entry) => ({ type: entry.type, data: forget(withoutSubmittersMetadata(entry, externalId), externalId) }));
    if (kept.length === 0) {
      // Its deliveries and their attempts go with it (on delete cascade).
      await sql.query('', 'delete from webhook_events where id = $1::uuid', [row.id]);
    } else {
      await sql.query('', 'update webhook_events set data = $1::jsonb where id = $2::uuid', [JSON.stringify(grouped ? kept : kept[0]!.data), row.id]);
    }
  }
  return rows.length;
}

/**
 * Deletes the project's stored Idempotency-Key answers that hold any of `values` (the person's
 * internal id, externalId, email, name) as a JSON string: an identify's answer shows the profile,
 * a comment's its author's name. A retry of such a request after the erasure runs again, as one
 * a day late would. Returns how many went.
 */
export async function forgetInIdempotencyRecords(tx: EntityManager, projectId: string, values: ReadonlyArray<string | null>): Promise<number> {
  const strings = values.filter((value): value is string => value !== null && value !== '');
  if (strings.length === 0) return 0;
  // Answers are JSON text; a value is found as the JSON string it is written as (to_json), so a
  // name never matches inside a longer string.
  const gone = await transactionSql(tx).query<{ key: string }>(
    '',
    `delete from idempotency_keys
     where project_id = $1::uuid and body is not null and exists (select 1 from unnest($2::text[]) v where strpos(body, to_json(v)::text) > 0)
     returning key`,
    [projectId, strings],
  );
  return gone.length;
}

/**
 * Clears the receivers' answers kept in the project's delivery log (`webhook_attempts.response`,
 * an excerpt of what an endpoint answered) that hold any of `values`: a receiver that echoes the
 * body it was sent would otherwise keep the person's name or address there for the log's 30 days.
 * The attempt itself (when, status, latency) stays. Plain text, so a value is found anywhere in it;
 * a short name may clear an answer that only happened to contain it, which costs a diagnostic
 * excerpt, never data. Returns how many answers were cleared.
 */
export async function forgetInDeliveryAnswers(tx: EntityManager, projectId: string, values: ReadonlyArray<string | null>): Promise<number> {
  const strings = values.filter((value): value is string => value !== null && value !== '');
  if (strings.length === 0) return 0;
  const cleared = await transactionSql(tx).query<{ id: string }>(
    '',
    `update webhook_attempts a set response = null
     from webhook_deliveries d join webhook_events e on e.id = d.event_id
     where a.delivery_id = d.id and e.project_id = $1::uuid and a.response is not null
       and exists (select 1 from unnest($2::text[]) v where strpos(a.response, v) > 0)
     returning a.id`,
    [projectId, strings],
  );
  return cleared.length;
}

/** Whether an event is the creation of content the erasure deleted (it carries the text). */
function carriesDeletedContent(entry: EventEntry, deleted: DeletedContent): boolean {
  const data = entry.data as { feedback?: { id?: unknown }; comment?: { id?: unknown } } | null;
  if (entry.type === 'feedback.created') return deleted.items.has(String(data?.feedback?.id));
  if (entry.type === 'comment.created' || entry.type === 'comment.updated') return deleted.comments.has(String(data?.comment?.id));
  return false;
}

/**
 * A notification for its recipients (notification.created) without the person among them: their
 * address and name go, not only their externalId; one that told no one else goes entirely.
 */
function withoutRecipient(entry: EventEntry, externalId: string): EventEntry | undefined {
  const data = entry.data as { recipients?: { externalId?: unknown }[] } | null;
  if (entry.type !== 'notification.created' || !Array.isArray(data?.recipients)) return entry;
  const recipients = data.recipients.filter((recipient) => recipient.externalId !== externalId);
  return recipients.length === 0 ? undefined : { type: entry.type, data: { ...data, recipients } };
}

/**
 * The creation event of an item the person submitted, without its metadata: what the host
 * application attached about the person, cleared from the kept item too (erasure.service.ts).
 */
function withoutSubmittersMetadata(entry: EventEntry, externalId: string): unknown {
  const data = entry.data as { feedback?: { endUser?: { externalId?: unknown } | null; metadata?: unknown } } | null;
  if (entry.type !== 'feedback.created' || data?.feedback?.endUser?.externalId !== externalId) return entry.data;
  return { ...data, feedback: { ...data.feedback, metadata: null } };
}

/** `value` without the person: see forgetInEvents. */
function forget(value: unknown, externalId: string): unknown {
  if (Array.isArray(value)) return value.map((item) => forget(item, externalId));
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  if (object.externalId === externalId) {
    // An end user as events name them ({externalId}): nothing is left of them.
    if (Object.keys(object).length === 1) return null;
    const rest = Object.fromEntries(Object.entries(object).map(([key, item]) => [key, forget(item, externalId)]));
    return { ...rest, externalId: null, ...('name' in object ? { name: DELETED_USER } : {}) };
  }
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, forget(item, externalId)]));
}
