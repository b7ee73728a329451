import type { EntityManager } from '@mikro-orm/postgresql';
import { transaction } from '../db/conflicts.js';
import type { Comment as CommentView, EndUserInputSchema } from '@feedbackd/sdk/contract';
import type { z } from 'zod';
import { moveCounters } from './counter-moves.js';
import { lockItem } from './item-locks.js';
import { Comment } from '../db/entities/comment.entity.js';
import { identifyEndUser } from '../modules/users/users.service.js';

/** Who writes a comment: the owning team under a display name, or an end user (created or updated as by identify). */
export type CommentAuthor = { kind: 'team'; name: string } | { kind: 'user'; endUser: z.output<typeof EndUserInputSchema> };

/** A new comment as the detail view shows it, and the item's comment count after it. */
export interface AddedComment {
  comment: CommentView;
  commentCount: number;
}

/**
 * Adds a comment to an item and counts it, in one transaction. Returns undefined when the item is
 * not in the project; then no end user is created either.
 */
export async function addComment(
  em: EntityManager,
  projectId: string,
  feedbackId: string,
  content: string,
  author: CommentAuthor,
): Promise<AddedComment | undefined> {
  return transaction(em, async (tx) => {
    if (!(await lockItem(tx, projectId, feedbackId, 'key share'))) return undefined;
    const endUser = author.kind === 'user' ? await identifyEndUser(tx, projectId, author.endUser) : undefined;
    const comment = tx.create(Comment, {
      feedback: feedbackId,
      authorEndUser: endUser ?? null,
      authorName: author.kind === 'team' ? author.name : null,
      isTeam: author.kind === 'team',
      content,
    });
    await tx.flush();
    const { commentCount } = await moveCounters(tx, feedbackId, { comments: 1 });
    // created_at is the database's (now()); read it back rather than guess it here.
    await tx.refresh(comment);
    return {
      comment: {
        id: comment.id,
        content: comment.content,
        createdAt: comment.createdAt.toISOString(),
        // As the detail view shows authors (public/feedback.sql.ts, COMMENT_AUTHOR).
        author: endUser ? { name: endUser.name ?? null, avatarUrl: endUser.avatarUrl ?? null } : { name: comment.authorName ?? null, isTeam: true },
      },
      commentCount,
    };
  });
}

/** What deleting a comment found: the item's comment count after it, or which of the two is missing. */
export type DeletedComment = { commentCount: number } | 'no-item' | 'no-comment';

/** Deletes a comment of an item and uncounts it, in one transaction. */
export async function deleteComment(em: EntityManager, projectId: string, feedbackId: string, commentId: string): Promise<DeletedComment> {
  return transaction(em, async (tx) => {
    if (!(await lockItem(tx, projectId, feedbackId, 'key share'))) return 'no-item';
    const deleted = await tx.nativeDelete(Comment, { id: commentId, feedback: feedbackId });
    // Two concurrent deletes of one comment: only the one whose delete found the row counts it.
    if (deleted === 0) return 'no-comment';
    const { commentCount } = await moveCounters(tx, feedbackId, { comments: -1 });
    return { commentCount };
  });
}
