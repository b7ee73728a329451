import type { EntityManager } from '@mikro-orm/postgresql';
import { transaction } from '../../db/conflicts.js';
import type { FeedbackStatus, FeedbackType } from '@feedbackd/sdk/contract';
import { lockItem } from './item-locks.js';
import { Feedback } from '../../db/entities/feedback.entity.js';
import { transactionSql } from '../../db/request-transaction.js';
import { ITEM_DELETED_EVENT, itemEvents, notificationItem, notifySubscribers } from '../events/outbox.sql.js';

/** The fields an operator may change; undefined keeps a field, `description: null` clears it. */
export interface ItemChanges {
  status?: FeedbackStatus | undefined;
  title?: string | undefined;
  description?: string | null | undefined;
  type?: FeedbackType | undefined;
}

/**
 * Who changes an item: the key (recorded with a status change) and the optional name the caller
 * gave. No key for a team session the operator opened on the database (web/team/).
 */
export interface ChangedBy {
  keyId: string | null;
  actor: string | null;
}

/**
 * What a status change did: the items it found in the project, those of them whose status it
 * changed, and the status each found item had before (what an undo puts back).
 */
export interface StatusesUpdated {
  found: string[];
  changed: string[];
  before: Record<string, FeedbackStatus>;
}

/** A condition on a status change. */
export interface StatusesCondition {
  /**
   * Change only the items whose status is still this one, read under their lock (an undo: an item
   * someone moved since is left as it is, found but not changed).
   */
  onlyFrom?: FeedbackStatus | undefined;
  /**
   * Hold the change's notifications (the team's bulk change, which offers an Undo): written, but
   * neither mailed nor sent as `notification.created` until the machine's jobs release them, so a
   * change put back before then tells nobody (docs/notifications.md, domain/notifications/holds.sql.ts).
   */
  hold?: boolean | undefined;
}

/**
 * The status change of a set of items, as one statement: $1 project, $2 items (uuid[]), $3 the
 * status, $4 the key, $5 the actor. It locks the items of the project among $2 in id order
 * (`no key update`, as every other writer of an item), then the counters rows of those whose
 * status changes, in id order too (the status trigger rewrites their copies, and a batch of
 * toggles takes its counters rows in that order after its item locks); then it changes their
 * status, records each change (from, to, key, actor) and writes `feedback.status_changed` from
 * the rows the update returned. An item gone meanwhile is skipped by its lock. With $6 (not
 * null), only the items whose status is $6 under their lock change. Each changed item's
 * subscribers are told in the same statement (`notified`, docs/notifications.md), the change held
 * when $7 is true; a change that puts an item back where a held change took it from takes that
 * one back instead, and tells nobody (`notify_subscribers`). Returns one row per item found with
 * its status before, `changed` false for one already at the status (or not at $6).
 */
const UPDATE_STATUSES = `with locked as materialized (
    select id, status from feedback where project_id = $1::uuid and id = any($2::uuid[]) order by id for no key update
  ), moving as materialized (
    select c.feedback_id as id, l.status as from_status from feedback_counters c join locked l on l.id = c.feedback_id
    where l.status <> $3::text and ($6::text is null or l.status = $6::text) order by c.feedback_id for no key update of c
  ), changed as (
    update feedback f set status = $3::text from moving m where f.id = m.id returning f.*
  ), history as (
    insert into feedback_status_changes (feedback_id, from_status, to_status, api_key_id, actor)
    select f.id, m.from_status, f.status, $4::uuid, $5::text from changed f join moving m on m.id = f.id order by f.id
  ), events as (
    ${itemEvents('changed f join moving m on m.id = f.id', `'feedback.status_changed'`, `'feedback'`, `jsonb_build_object('from', m.from_status, 'to', f.status, 'actor', $5::text)`)}
  ), notified as materialized (
    select ${notifySubscribers('f.project_id', 'array[f.id]', 'f.id', 'status_changed', `jsonb_build_object('feedback', ${notificationItem('f')}, 'from', m.from_status, 'to', f.status, 'actor', $5::text)`, '$7::boolean')} as n
    from changed f join moving m on m.id = f.id order by f.id
  )
  select l.id::text as id, m.id is not null as changed, l.status as before, (select count(*) from notified)::int as notified
  from locked l left join moving m on m.id = l.id order by l.id`;

/**
 * Changes the status of items `ids` of the project in one transaction of one statement
 * (UPDATE_STATUSES): the (status, type) counts and the counters' copies follow by trigger. An id
 * that is not an item of the project (another project's, deleted or merged meanwhile) is skipped,
 * and the others change.
 */
export async function updateStatuses(em: EntityManager, projectId: string, ids: readonly string[], status: FeedbackStatus, by: ChangedBy, condition: StatusesCondition = {}): Promise<StatusesUpdated> {
  return transaction(em, (tx) => statusesIn(tx, projectId, ids, status, by, condition));
}

/**
 * Changes an item in one transaction: its title, description and type, then its status through
 * the statement of updateStatuses (its history and event then show the item's new fields). The
 * same status again records nothing. Returns false when the item is not in the project.
 */
export async function updateItem(em: EntityManager, projectId: string, id: string, changes: ItemChanges, by: ChangedBy): Promise<boolean> {
  return transaction(em, async (tx) => {
    const { status, ...rest } = changes;
    const fields = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    const changesFields = Object.keys(fields).length > 0;
    // The update takes the row lock a status change takes (`no key update`), first.
    if (changesFields && (await tx.nativeUpdate(Feedback, { id, project: projectId }, fields)) === 0) return false;
    if (status !== undefined) return (await statusesIn(tx, projectId, [id], status, by)).found.length === 1;
    return changesFields || (await lockItem(tx, projectId, id, 'no key update')) !== undefined;
  });
}

/** UPDATE_STATUSES in the open transaction `tx`. */
async function statusesIn(tx: EntityManager, projectId: string, ids: readonly string[], status: FeedbackStatus, by: ChangedBy, condition: StatusesCondition = {}): Promise<StatusesUpdated> {
  const rows = await transactionSql(tx).query<{ id: string; changed: boolean; before: FeedbackStatus }>('', UPDATE_STATUSES, [projectId, [...ids], status, by.keyId, by.actor, condition.onlyFrom ?? null, condition.hold ?? false]);
  return {
    found: rows.map((row) => row.id),
    changed: rows.filter((row) => row.changed).map((row) => row.id),
    before: Object.fromEntries(rows.map((row) => [row.id, row.before])),
  };
}

/**
 * Deletes an item with its votes, comments, counters and history, and writes `feedback.deleted`
 * when the project wants it, in one transaction; the
 * (status, type) counts follow by trigger. Returns false when the item is not in the project
 * (so a second delete of one item is a 404).
 */
export async function deleteItem(em: EntityManager, projectId: string, id: string): Promise<boolean> {
  return transaction(em, async (tx) => {
    if (!(await lockItem(tx, projectId, id, 'update'))) return false;
    // Votes first, explicitly: a toggle holding one of them is waited for here, before the
    // counters row goes (the cascade below), in the order the toggle takes them itself.
    await tx.execute('delete from votes where feedback_id = ?', [id]);
    // The event says what the item was, so it is written while the row is still there.
    await transactionSql(tx).query('', ITEM_DELETED_EVENT, [id]);
    await tx.nativeDelete(Feedback, { id });
    return true;
  });
}
