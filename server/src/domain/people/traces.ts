import { isDeepStrictEqual } from 'node:util';
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

/**
 * What content an erasure deleted: events that carry it (the text the person wrote) go with it,
 * and so do the events about a deleted item that carry its title; `titles` are those items'
 * titles, cleared from the receivers' answers to the events that stay.
 */
export interface DeletedContent {
  items: ReadonlySet<string>;
  comments: ReadonlySet<string>;
  titles: readonly string[];
}

/** One event: the `{type, data}` of a row, or of an entry of a grouped row. */
type EventEntry = { type: string; data: unknown };

/**
 * Rewrites every event of the project that names `externalId` (anywhere in its data, grouped rows
 * included) or a deleted item: a reference `{externalId}` becomes null, an author `{name,
 * externalId}` becomes "Deleted user" with a null externalId, their item's creation loses its
 * metadata; the creation events of deleted content are removed, and so are the events about a
 * deleted item that carry its title (its status changes, a merge into it, the notifications about
 * it); elsewhere a deleted item leaves the lists that name it (a changelog entry's items) and its
 * title becomes empty (its own `feedback.deleted`, written by the erasure: the id is what a
 * receiver needs). A grouped row keeps its other entries. What receivers answered to the events
 * that stay is cleared where it holds a deleted item's title. Returns how many rows changed or
 * went, and how many answers were cleared. Reads the project's outbox and log once (jsonpath over `data`, and the deleted items' ids
 * in its text): an erasure is rare, and the log holds 30 days.
 */
export async function forgetInEvents(tx: EntityManager, projectId: string, externalId: string, deleted: DeletedContent): Promise<{ events: number; answers: number }> {
  const sql = transactionSql(tx);
  // The notice of an erasure (user.erased) is left alone: it must reach the receivers, and a
  // repeated erasure must not count it.
  const rows = await sql.query<{ id: string; type: string; data: unknown }>(
    '',
    `select id, type, data from webhook_events
     where project_id = $1::uuid and type <> 'user.erased'
       and (jsonb_path_exists(data, '$.** ? (@.externalId == $x)', jsonb_build_object('x', $2::text))
         or exists (select 1 from unnest($3::text[]) i where strpos(data::text, i) > 0))
     order by id for update`,
    [projectId, externalId, [...deleted.items]],
  );
  const rewritten: string[] = [];
  let changed = 0;
  for (const row of rows) {
    const grouped = Array.isArray(row.data);
    const entries: EventEntry[] = grouped ? (row.data as EventEntry[]) : [{ type: row.type, data: row.data }];
    const left = entries
      .filter((entry) => !carriesDeletedContent(entry, deleted))
      .map((entry) => withoutRecipient(entry, externalId))
      .filter((entry): entry is EventEntry => entry !== undefined)
      .map((entry) => ({ type: entry.type, data: withoutItems(forget(withoutSubmittersMetadata(entry, externalId), externalId), deleted.items) }));
    if (left.length === 0) {
      // Its deliveries and their attempts go with it (on delete cascade).
      await sql.query('', 'delete from webhook_events where id = $1::uuid', [row.id]);
      changed += 1;
      continue;
    }
    // An event that only mentions a deleted item's id (a vote on it, someone else's comment) stays as it is.
    const data = grouped ? left : left[0]!.data;
    if (isDeepStrictEqual(data, row.data)) continue;
    await sql.query('', 'update webhook_events set data = $1::jsonb where id = $2::uuid', [JSON.stringify(data), row.id]);
    rewritten.push(row.id);
    changed += 1;
  }
  const titles = deleted.titles.filter((title) => title !== '');
  if (rewritten.length === 0 || titles.length === 0) return { events: changed, answers: 0 };
  const cleared = await sql.query(
    '',
    `update webhook_attempts a set response = null from webhook_deliveries d
     where a.delivery_id = d.id and d.event_id = any($1::uuid[]) and a.response is not null
       and exists (select 1 from unnest($2::text[]) t where strpos(a.response, t) > 0)
     returning a.id`,
    [rewritten, titles],
  );
  return { events: changed, answers: cleared.length };
}

/**
 * What other people were told about the items an erasure deleted, as the notifications' log keeps
 * it (`notifications.data` holds the item's title; the row's item reference is already null): a
 * notification about a deleted item goes, so a pending one is never mailed; a changelog
 * announcement (`shipped`) stays without the deleted items in its list. The person's own
 * notifications went with their profile (on delete cascade).
 */
export async function forgetInNotifications(tx: EntityManager, projectId: string, items: ReadonlySet<string>): Promise<void> {
  if (items.size === 0) return;
  const sql = transactionSql(tx);
  const ids = [...items];
  await sql.query('', `delete from notifications where project_id = $1::uuid and kind <> 'shipped' and data->'feedback'->>'id' = any($2::text[])`, [projectId, ids]);
  await sql.query(
    '',
    `update notifications n set data = jsonb_set(n.data, '{entry,items}', (
       select coalesce(jsonb_agg(i.item order by i.n), '[]'::jsonb) from jsonb_array_elements(n.data->'entry'->'items') with ordinality i(item, n)
       where not (i.item->>'id' = any($2::text[]))))
     where n.project_id = $1::uuid and n.kind = 'shipped'
       and exists (select 1 from jsonb_array_elements(n.data->'entry'->'items') i where i->>'id' = any($2::text[]))`,
    [projectId, ids],
  );
}

/**
 * Deletes the project's stored Idempotency-Key answers that hold any of `values` (the person's
 * internal id, externalId, email, name, and the titles of the items an erasure deleted) as a JSON
 * string: an identify's answer shows the profile, a comment's its author's name, a changelog
 * entry's the titles of the items it links. A retry of such a request after the erasure runs again, as one
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
 * excerpt, never data. The answers to an erasure's own notice (user.erased) stay, as the notice
 * does (forgetInEvents): they can echo only what it says, and clearing them made a repeated
 * erasure count answers whenever a delivery of the first one's notice came back in between.
 * Returns how many answers were cleared.
 */
export async function forgetInDeliveryAnswers(tx: EntityManager, projectId: string, values: ReadonlyArray<string | null>): Promise<number> {
  const strings = values.filter((value): value is string => value !== null && value !== '');
  if (strings.length === 0) return 0;
  const cleared = await transactionSql(tx).query<{ id: string }>(
    '',
    `update webhook_attempts a set response = null
     from webhook_deliveries d join webhook_events e on e.id = d.event_id
     where a.delivery_id = d.id and e.project_id = $1::uuid and e.type <> 'user.erased' and a.response is not null
       and exists (select 1 from unnest($2::text[]) v where strpos(a.response, v) > 0)
     returning a.id`,
    [projectId, strings],
  );
  return cleared.length;
}

/**
 * Whether an event carries content the erasure deleted: the creation of an item or a comment (its
 * text), an edit of the comment, or an event about a deleted item that shows its title (a status
 * change, a merge into it, a notification about it). Other events about the item (votes, other
 * people's comments) carry no text of the person's and stay.
 */
function carriesDeletedContent(entry: EventEntry, deleted: DeletedContent): boolean {
  const data = entry.data as {
    feedback?: { id?: unknown };
    comment?: { id?: unknown };
    target?: { id?: unknown };
    notification?: { feedback?: { id?: unknown } };
  } | null;
  switch (entry.type) {
    case 'feedback.created':
    case 'feedback.status_changed':
      return deleted.items.has(String(data?.feedback?.id));
    case 'feedback.merged':
      return deleted.items.has(String(data?.target?.id));
    case 'notification.created':
      return deleted.items.has(String(data?.notification?.feedback?.id));
    case 'comment.created':
    case 'comment.updated':
      return deleted.comments.has(String(data?.comment?.id));
    default:
      return false;
  }
}

/**
 * `value` without the deleted items' titles: an item in a list (a changelog entry's) leaves it,
 * any other object naming one (`{id, title}`, as `feedback.deleted` does) keeps its id with an
 * empty title.
 */
function withoutItems(value: unknown, items: ReadonlySet<string>): unknown {
  if (items.size === 0) return value;
  const named = (item: unknown) => typeof item === 'object' && item !== null && !Array.isArray(item) && items.has(String((item as { id?: unknown }).id));
  if (Array.isArray(value)) return value.filter((item) => !named(item)).map((item) => withoutItems(item, items));
  if (typeof value !== 'object' || value === null) return value;
  const object = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutItems(item, items)]));
  return named(value) && 'title' in object ? { ...object, title: '' } : object;
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
