import type { Comment, HoldReason } from '@feedbackd/sdk/contract';
import type { Statements } from '../../db/pool.js';
import { runCommentStatement, type NewComment } from '../comments/comments.js';
import { HOLD_COMMENT } from './held-posts.sql.js';

/*
 * Comments a project holds for its team (docs/moderation.md), the one implementation: the API's
 * handler and the board's form call this where domain/moderation/hold-reason.ts's holdReason says so. One
 * statement, as the comment it stands in for. A held submission is submissions.ts's
 * (holdSubmission), beside the submission it stands in for.
 */

/** A held comment: as it will be once approved, the item's unchanged count, and why it waits. */
export interface HeldComment {
  comment: Comment;
  commentCount: number;
  held: { reason: HoldReason };
}

/**
 * Holds an end user's or an anonymous caller's comment, refused as createComment refuses one:
 * 404, 400 for a parentId not of the item, 403 for an anonymous comment where they are off or a
 * blocked author.
 */
export async function holdComment(sql: Statements, input: NewComment, reason: HoldReason): Promise<HeldComment> {
  const { author } = input;
  if (author.kind === 'team') throw new Error('the team is never held');
  const held = await runCommentStatement(sql, HOLD_COMMENT, [
    input.item,
    input.project,
    input.content,
    author.kind === 'user' ? author.endUser.externalId : null,
    author.kind === 'user' ? JSON.stringify(author.endUser) : null,
    input.parentId ?? null,
    input.voterKey ?? null,
    reason,
  ]);
  return { ...held, held: { reason } };
}
