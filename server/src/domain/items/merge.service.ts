import type { EntityManager } from '@mikro-orm/postgresql';
import { transaction } from '../../db/conflicts.js';
import { lockCounters, moveCounters } from './counter-moves.js';
import { lockItems } from './item-locks.js';
import { Feedback } from '../../db/entities/feedback.entity.js';
import { transactionSql } from '../../db/request-transaction.js';
import { ITEM_EVENT } from '../events/outbox.sql.js';
import { NOTIFY_MERGED } from '../notifications/notifications.sql.js';
import { MOVE_SUBSCRIBERS } from '../subscriptions/subscriptions.sql.js';

/** What a merge moved to its target. */
export interface MergeResult {
  votesMoved: number;
  commentsMoved: number;
}

/**
 * Merges item `duplicateId` into `intoId`, in one transaction: the duplicate's votes move to the
 * target, except those of voters who voted on both (one voter, one vote); its comments and its
 * subscribers move; the target's counters grow by exactly what moved; then the duplicate is
 * deleted (its (status, type) count follows by trigger); `feedback.merged` is written when the project wants it. Returns
 * undefined when either item is not in the project.
 *
 * Concurrency: the duplicate is locked `for update`, so no vote or comment can be added to it
 * meanwhile (those wait, then fail on their foreign key: 404); its vote rows are locked before
 * they are copied, so a toggle removing one either finishes first or finds it gone. The target is
 * locked `no key update`: it cannot be deleted or merged away meanwhile, and its voters keep
 * voting; its counters row is locked next, as a toggle locks it before its vote row. A voter who votes on the target while the merge runs meets the copy on the unique
 * (feedback, voter) index: the copy waits for the vote and then skips it, or the vote waits for
 * the copy and then toggles it, so either way the voter has one vote and the counter says so.
 */
export async function mergeItems(em: EntityManager, projectId: string, duplicateId: string, intoId: string): Promise<MergeResult | undefined> {
  return transaction(em, async (tx) => {
    const locked = await lockItems(tx, projectId, { id: duplicateId, mode: 'update' }, { id: intoId, mode: 'no key update' });
    if (!locked) return undefined;
    // The target's counters before its vote rows (the order a toggle takes them in): a toggle on
    // the target that holds the counters finishes first, instead of waiting on a vote row this
    // merge copied while this merge waits on its counters.
    await lockCounters(tx, intoId);
    // The duplicate's subscribers are told while its subscriptions are still its own.
    await transactionSql(tx).query('', NOTIFY_MERGED, [projectId, duplicateId, intoId]);

    await tx.execute('select id from votes where feedback_id = ? for update', [duplicateId]);
    const moved = await tx.execute<{ id: string }[]>(
      `insert into votes (feedback_id, voter_key, end_user_id, created_at)
       select ?, voter_key, end_user_id, created_at from votes where feedback_id = ?
       on conflict (feedback_id, voter_key) do nothing
       returning id`,
      [intoId, duplicateId],
    );
    // The target keeps its own pinned answer, if it has one (one pinned comment per item).
    await tx.execute('update comments set is_pinned = false where feedback_id = ? and is_pinned and exists (select 1 from comments t where t.feedback_id = ? and t.is_pinned)', [duplicateId, intoId]);
    const comments = await tx.execute<{ id: string; is_internal: boolean }[]>('update comments set feedback_id = ? where feedback_id = ? returning id, is_internal', [intoId, duplicateId]);
    // Whoever followed the duplicate now follows the target (issue 40), before its rows go with it.
    await transactionSql(tx).query('', MOVE_SUBSCRIBERS, [duplicateId, intoId]);
    // Internal notes move too, but only the visible comments are counted (comment_count).
    await moveCounters(tx, intoId, { votes: moved.length, comments: comments.filter((c) => !c.is_internal).length });
    const [source] = await tx.execute<{ title: string }[]>('select title from feedback where id = ?', [duplicateId]);
    // The duplicate's own vote rows, counters row and history go with it (on delete cascade).
    await tx.nativeDelete(Feedback, { id: duplicateId });
    await transactionSql(tx).query('', ITEM_EVENT, [intoId, 'feedback.merged', 'target', JSON.stringify({ source: { id: duplicateId, title: source!.title } })]);
    return { votesMoved: moved.length, commentsMoved: comments.length };
  });
}
