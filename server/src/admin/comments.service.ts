import type { EntityManager } from '@mikro-orm/postgresql';
import type { Comment as CommentView, EndUserInputSchema } from '@feedbackd/sdk/contract';
import type { z } from 'zod';
import { transaction } from '../db/conflicts.js';
import { Comment } from '../db/entities/comment.entity.js';
import { transactionSql } from '../db/request-transaction.js';
import { upsertEndUser } from '../api/end-user.sql.js';
import { moveCounters } from './counter-moves.js';
import { lockItem } from './item-locks.js';
import { COMMENT_CREATED_EVENT } from '../db/outbox.sql.js';

/** The end-user fields of a comment's author, as a request gives them (identify's). */
type EndUserFields = z.output<typeof EndUserInputSchema>;

/** Who writes a comment: the owning team under a display name, or an end user (created or updated as by identify). */
export type CommentAuthor = { kind: 'team'; name: string } | { kind: 'user'; endUser: EndUserFields };

/**
 * A comment's end-user author is created or updated by identify's own upsert
 * (api/end-user.sql.ts), so the two cannot drift apart. $1 project, $2 externalId, $3 given profile.
 */
const UPSERT_AUTHOR = upsertEndUser({ project: '$1::uuid', externalId: '$2::text', profile: '$3' }, { returning: 'id, name, avatar_url' });

/** What UPSERT_AUTHOR returns of the author. */
type AuthorRow = { id: string; name: string | null; avatar_url: string | null };

/** A new comment as the detail view shows it, and the item's comment count after it. */
export interface AddedComment {
  comment: CommentView;
  commentCount: number;
}

/**
 * Adds a comment to an item, counts it and writes `comment.created` when the project wants it, in
 * one transaction. Returns undefined when the item is
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
    const endUser = author.kind === 'user' ? await upsertAuthor(tx, projectId, author.endUser) : undefined;
    const comment = tx.create(Comment, {
      feedback: feedbackId,
      authorEndUser: endUser?.id ?? null,
      authorName: author.kind === 'team' ? author.name : null,
      isTeam: author.kind === 'team',
      content,
    });
    await tx.flush();
    const { commentCount } = await moveCounters(tx, feedbackId, { comments: 1 });
    // created_at is the database's (now()); read it back rather than guess it here.
    await tx.refresh(comment);
    await transactionSql(tx).query('', COMMENT_CREATED_EVENT, [comment.id]);
    return {
      comment: {
        id: comment.id,
        content: comment.content,
        createdAt: comment.createdAt.toISOString(),
        // As the detail view shows authors (api/feedback.sql.ts, COMMENT_AUTHOR).
        author: endUser ? { name: endUser.name, avatarUrl: endUser.avatar_url } : { name: comment.authorName ?? null, isTeam: true },
      },
      commentCount,
    };
  });
}

/** A comment's author as the project's tests give one: the team by name, or an end user by externalId alone. */
export type CommentAuthorInput = { kind: 'team'; name: string } | { kind: 'user'; externalId: string };

/**
 * addComment as the project's tests call it (@feedbackd/server/testing exports it under that
 * name): the author in short, and only whether the item was in the project.
 */
export async function addCommentForTests(
  em: EntityManager,
  projectId: string,
  feedbackId: string,
  content: string,
  author: CommentAuthorInput,
): Promise<boolean> {
  const added = await addComment(em, projectId, feedbackId, content, author.kind === 'team' ? author : { kind: 'user', endUser: { externalId: author.externalId } });
  return added !== undefined;
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

/** Creates or updates the comment's author in the transaction `tx`, as identify does. */
async function upsertAuthor(tx: EntityManager, projectId: string, endUser: EndUserFields): Promise<AuthorRow> {
  const [row] = await transactionSql(tx).query<AuthorRow>('', UPSERT_AUTHOR, [projectId, endUser.externalId, JSON.stringify(endUser)]);
  // Without a `where`, the upsert returns its row whether it inserted or updated.
  return row!;
}
