import type { EntityManager } from '@mikro-orm/postgresql';
import { transaction } from '../db/conflicts.js';
import type { FeedbackStatus, FeedbackType } from '@feedbackd/sdk/contract';
import { lockItem } from './item-locks.js';
import { Feedback } from '../db/entities/feedback.entity.js';
import { StatusChange } from '../db/entities/status-change.entity.js';
import { transactionSql } from '../db/request-transaction.js';
import { ITEM_DELETED_EVENT, ITEM_EVENT } from '../db/outbox.sql.js';

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
 * Changes an item in one transaction; a status change is recorded in its history (from, to, key,
 * actor), unless the item already has that status, and `feedback.status_changed` is written when
 * the project wants it. The (status, type) counts and the counters'
 * copies follow by trigger in the same transaction. Returns false when the item is not in the
 * project.
 */
export async function updateItem(em: EntityManager, projectId: string, id: string, changes: ItemChanges, by: ChangedBy): Promise<boolean> {
  return transaction(em, async (tx) => {
    // The row lock serialises status changes of one item, so each one records the status it
    // really changed from; votes and comments go on meanwhile.
    if (!(await lockItem(tx, projectId, id, 'no key update'))) return false;
    const item = await tx.findOneOrFail(Feedback, id);
    const from = item.status;
    const statusChanged = changes.status !== undefined && changes.status !== from;
    if (statusChanged) {
      tx.create(StatusChange, { feedback: item, fromStatus: from, toStatus: changes.status!, apiKey: by.keyId, actor: by.actor });
      item.status = changes.status!;
    }
    if (changes.title !== undefined) item.title = changes.title;
    if (changes.description !== undefined) item.description = changes.description;
    if (changes.type !== undefined) item.type = changes.type;
    if (statusChanged) {
      // The event reads the item as changed: the change is written first, in this transaction.
      await tx.flush();
      await transactionSql(tx).query('', ITEM_EVENT, [id, 'feedback.status_changed', 'feedback', JSON.stringify({ from, to: changes.status, actor: by.actor })]);
    }
    return true;
  });
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
