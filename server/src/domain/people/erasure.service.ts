import type { EntityManager } from '@mikro-orm/postgresql';
import type { ErasedContent, ErasureCounts } from '@feedbackd/sdk/contract';
import { transaction } from '../../db/conflicts.js';
import { transactionSql } from '../../db/request-transaction.js';
import { deleteComment } from '../comments/comments.service.js';
import { lockCounters, moveCounters } from '../items/counter-moves.js';
import { lockItem, type ItemLock } from '../items/item-locks.js';
import { deleteItem } from '../items/items.service.js';
import { projectIdOf, type ProjectRef } from './project-ref.js';
import { DELETED_USER, forgetInDeliveryAnswers, forgetInEvents, forgetInIdempotencyRecords, forgetInNotifications } from './traces.js';

/** What an erasure did, per kind (the answer of DELETE /api/v1/users/:externalId and the `user.erased` event's counts). */
export interface Erasure {
  erased: boolean;
  counts: ErasureCounts;
}

/** An item the person touched: their own submission, or one they voted or commented on. */
type Touched = {
  id: string;
  own: boolean;
};

/**
 * Erases the end user `externalId` of the project in one transaction (docs/api.md, "Erasing and
 * exporting one end user"): their votes are deleted and uncounted (moveCounters, as every operator
 * change moves counters); their comments are deleted through deleteComment, or kept signed "Deleted
 * user"; their items are deleted through deleteItem, or kept anonymous without their metadata;
 * the profile goes, and with it (on delete cascade) their subscriptions, held posts, notifications
 * and blocks; events, other people's notifications about their deleted items and stored answers
 * that name them are rewritten or dropped (traces.ts); then `user.erased` is written when the
 * project wants it and anything was held.
 *
 * Locks, in the one order of every writer (item-locks.ts): the items they touched in id order
 * (their own `update` when deleted, `no key update` when kept; others `key share`, as a comment
 * takes), then those items' counters rows in id order (lockCounters, as a merge takes them before
 * vote rows), then the vote and comment rows. Then the profile `for update`: from then on no vote,
 * comment or item can reference them (each would wait on its foreign key), so a second look finds
 * anything that came in meanwhile, and it is locked the same way; a deadlock that this may meet is
 * retried whole (transaction()). Nothing is left for the profile's `on delete cascade` to remove
 * without its counter.
 */
export async function eraseEndUser(em: EntityManager, project: ProjectRef, externalId: string, content: ErasedContent = 'anonymise'): Promise<Erasure> {
  const projectId = await projectIdOf(em, project);
  return transaction(em, async (tx) => {
    const sql = transactionSql(tx);
    const counts: ErasureCounts = {
      endUsers: 0,
      votes: 0,
      submissionsDeleted: 0,
      submissionsAnonymised: 0,
      commentsDeleted: 0,
      commentsAnonymised: 0,
      webhookEvents: 0,
      idempotencyRecords: 0,
      webhookAnswers: 0,
    };
    const [user] = await sql.query<{ id: string; email: string | null; name: string | null }>(
      '',
      'select id, email, name from end_users where project_id = $1::uuid and external_id = $2::text',
      [projectId, externalId],
    );
    const deletedItems = new Set<string>();
    const deletedComments = new Set<string>();
    const deletedTitles: string[] = [];
    if (user) {
      await lockWhatTheyTouched(tx, projectId, user.id, content);

      const votes = await sql.query<{ feedback_id: string; n: number }>(
        '',
        `with gone as (delete from votes where end_user_id = $1::uuid returning feedback_id)
         select feedback_id, count(*)::int as n from gone group by feedback_id order by feedback_id`,
        [user.id],
      );
      for (const { feedback_id: item, n } of votes) await moveCounters(tx, item, { votes: -n });
      counts.votes = votes.reduce((sum, row) => sum + row.n, 0);

      if (content === 'delete') {
        const comments = await sql.query<{ id: string; feedback_id: string }>('', 'select id, feedback_id from comments where author_end_user_id = $1::uuid order by id', [user.id]);
        for (const comment of comments) {
          if (typeof (await deleteComment(tx, projectId, comment.feedback_id, comment.id)) === 'object') deletedComments.add(comment.id);
        }
        const items = await sql.query<{ id: string; title: string }>('', 'select id, title from feedback where end_user_id = $1::uuid order by id', [user.id]);
        for (const item of items) {
          if (!(await deleteItem(tx, projectId, item.id))) continue;
          deletedItems.add(item.id);
          deletedTitles.push(item.title);
        }
        counts.commentsDeleted = deletedComments.size;
        counts.submissionsDeleted = deletedItems.size;
      } else {
        const comments = await sql.query('', 'update comments set author_end_user_id = null, author_name = $2::text, is_team = false where author_end_user_id = $1::uuid returning id', [
          user.id,
          DELETED_USER,
        ]);
        // The item's text stays for the discussion; its metadata is what the host application attached about the person.
        const items = await sql.query('', 'update feedback set end_user_id = null, metadata = null where end_user_id = $1::uuid returning id', [user.id]);
        counts.commentsAnonymised = comments.length;
        counts.submissionsAnonymised = items.length;
      }
      counts.endUsers = (await sql.query('', 'delete from end_users where id = $1::uuid returning id', [user.id])).length;
    }
    // Even with no profile left (erased before): copies of an older erasure's time may remain.
    const events = await forgetInEvents(tx, projectId, externalId, { items: deletedItems, comments: deletedComments, titles: deletedTitles });
    counts.webhookEvents = events.events;
    await forgetInNotifications(tx, projectId, deletedItems);
    const traces = [externalId, user?.id ?? null, user?.email ?? null, user?.name ?? null];
    // A stored answer that shows a deleted item (a changelog entry linking it, say) holds its title as a whole JSON string.
    counts.idempotencyRecords = await forgetInIdempotencyRecords(tx, projectId, [...traces, ...deletedTitles]);
    counts.webhookAnswers = events.answers + (await forgetInDeliveryAnswers(tx, projectId, traces));

    const erased = Object.values(counts).some((n) => n > 0);
    if (erased) {
      await sql.query(
        '',
        `insert into webhook_events (project_id, type, data)
         select $1::uuid, 'user.erased', jsonb_build_object('endUser', jsonb_build_object('externalId', $2::text), 'counts', $3::jsonb)
         where webhooks_wanted($1::uuid, 'user.erased')`,
        [projectId, externalId, JSON.stringify(counts)],
      );
    }
    return { erased, counts };
  });
}

/**
 * Takes the locks of an erasure (see eraseEndUser) on every item the person touched, then on
 * their profile, then again on what came in before the profile's lock.
 */
async function lockWhatTheyTouched(tx: EntityManager, projectId: string, userId: string, content: ErasedContent): Promise<void> {
  const sql = transactionSql(tx);
  const locked = new Set<string>();
  for (let profileLocked = false; ; profileLocked = true) {
    const touched = (
      await sql.query<Touched>(
        '',
        `select id, bool_or(own) as own from (
           select feedback_id as id, false as own from votes where end_user_id = $1::uuid
           union all select feedback_id, false from comments where author_end_user_id = $1::uuid
           union all select id, true from feedback where end_user_id = $1::uuid
         ) t group by id order by id`,
        [userId],
      )
    ).filter((item) => !locked.has(item.id));
    if (touched.length === 0 && profileLocked) return;
    const ownLock: ItemLock = content === 'delete' ? 'update' : 'no key update';
    for (const item of touched) {
      if (await lockItem(tx, projectId, item.id, item.own ? ownLock : 'key share')) locked.add(item.id);
    }
    for (const item of touched) if (locked.has(item.id)) await lockCounters(tx, item.id);
    if (profileLocked) return;
    await sql.query('', 'select id from end_users where id = $1::uuid for update', [userId]);
  }
}
