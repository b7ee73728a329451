import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApproveHeldResult, HeldPost, PostingBlock, RejectHeldResult } from '@feedbackd/sdk/contract';
import { transaction } from '../../db/conflicts.js';
import { transactionSql } from '../../db/request-transaction.js';
import { COMMENT_UPDATED_EVENT, EDIT_COMMENT } from '../comments/comments.sql.js';
import { lockCounters } from '../items/counter-moves.js';
import { lockItem } from '../items/item-locks.js';
import { APPROVE_COMMENT, APPROVE_SUBMISSION, BLOCK_LIST, HELD_FOR_DECISION, HELD_QUEUE, LIFT_BLOCK, REJECT_HELD, TAKE_HELD_EDIT } from './moderation.sql.js';

/*
 * The team's decisions on held posts (docs/moderation.md): the operator API, the CLI and the
 * team's inbox all call these. Each decision on a batch of ids is one transaction; an id that is
 * no longer held (decided by someone else meanwhile, or never held) is reported, not an error.
 */

/** Most posts the queue lists at once (the total counts them all). */
export const HELD_QUEUE_LIMIT = 500;

/** The project's queue, oldest first. */
export async function heldQueue(em: EntityManager, projectId: string): Promise<{ items: HeldPost[]; total: number }> {
  const [row] = await transaction(em, (tx) => transactionSql(tx).query<{ items: string; total: number }>('', HELD_QUEUE, [projectId, HELD_QUEUE_LIMIT]));
  return { items: JSON.parse(row!.items) as HeldPost[], total: row!.total };
}

type Decidable = { id: string; kind: 'feedback' | 'comment'; feedback_id: string | null; comment_id: string | null };

/**
 * Approves held posts: each becomes the item or comment it stands for, with its id and time, and
 * its `feedback.created` or `comment.created` event goes out once (the held row is gone in the
 * same transaction, so a second approval finds nothing). A held edit's text replaces its
 * comment's as the author's edit would have (the earlier text kept in the comment's history,
 * `editedAt` the approval's time) and sends `comment.updated`.
 */
export async function approveHeld(em: EntityManager, projectId: string, ids: readonly string[]): Promise<ApproveHeldResult> {
  return transaction(em, async (tx) => {
    const sql = transactionSql(tx);
    const held = await sql.query<Decidable>('', HELD_FOR_DECISION, [projectId, [...ids]]);
    const approved: ApproveHeldResult['approved'] = [];
    for (const post of held) {
      if (post.kind === 'feedback') {
        await sql.query('', APPROVE_SUBMISSION, [post.id]);
        approved.push({ id: post.id, kind: 'feedback', feedbackId: post.id });
        continue;
      }
      // The house order (domain/items/item-locks.ts): the item, its counters, then the comment.
      if (!(await lockItem(tx, projectId, post.feedback_id!, 'key share'))) continue;
      await lockCounters(tx, post.feedback_id!);
      if (post.comment_id) {
        const [edit] = await sql.query<{ comment_id: string; content: string }>('', TAKE_HELD_EDIT, [post.id]);
        await sql.query('', EDIT_COMMENT, [edit!.comment_id, edit!.content]);
        await sql.query('', COMMENT_UPDATED_EVENT, [edit!.comment_id, projectId]);
      } else await sql.query('', APPROVE_COMMENT, [post.id]);
      approved.push({ id: post.id, kind: 'comment', feedbackId: post.feedback_id! });
    }
    const done = new Set(approved.map((post) => post.id));
    return { approved, notFound: unique(ids).filter((id) => !done.has(id)) };
  });
}

/**
 * Rejects held posts: each is deleted; with `block`, its author can no longer submit or comment
 * (docs/moderation.md, "Blocks"): for `blockDays` days when given, else an end user until the
 * block is lifted and an anonymous caller's address for ADDRESS_BLOCK_DAYS days.
 */
export async function rejectHeld(em: EntityManager, projectId: string, ids: readonly string[], block: boolean, blockDays?: number): Promise<RejectHeldResult> {
  return transaction(em, async (tx) => {
    const [row] = await transactionSql(tx).query<{ rejected: string; blocked: number }>('', REJECT_HELD, [projectId, [...ids], block, blockDays ?? null]);
    const rejected = JSON.parse(row!.rejected) as RejectHeldResult['rejected'];
    const done = new Set(rejected.map((post) => post.id));
    return { rejected, blocked: row!.blocked, notFound: unique(ids).filter((id) => !done.has(id)) };
  });
}

/** Most blocks the list shows at once (the total counts them all). */
export const BLOCK_LIST_LIMIT = 500;

/** The project's blocks in force, newest first. */
export async function blockList(em: EntityManager, projectId: string): Promise<{ items: PostingBlock[]; total: number }> {
  const [row] = await transaction(em, (tx) => transactionSql(tx).query<{ items: string; total: number }>('', BLOCK_LIST, [projectId, BLOCK_LIST_LIMIT]));
  return { items: JSON.parse(row!.items) as PostingBlock[], total: row!.total };
}

/** Lifts a block of the project: true when one in force had that id (its author may post at once), false when none. */
export async function liftBlock(em: EntityManager, projectId: string, blockId: string): Promise<boolean> {
  const rows = await transaction(em, (tx) => transactionSql(tx).query<{ lifted: boolean }>('', LIFT_BLOCK, [projectId, blockId]));
  return rows.length > 0;
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
