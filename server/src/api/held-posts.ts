import { ERROR_MESSAGES, routes, type Comment, type HeldFeedbackResponseSchema, type HoldReason } from '@feedbackd/sdk/contract';
import { feedbackNotFound, isItemGone } from '../http/item-ids.js';
import { AppError } from '../http/errors.js';
import { jsonReply, type JsonText, type Statements } from '../http/mount.js';
import type { z } from 'zod';
import type { NewComment } from './comments.js';
import { postingBlocked } from './moderation.js';
import { HOLD_COMMENT, HOLD_SUBMISSION_ANONYMOUS, HOLD_SUBMISSION_IDENTIFIED } from './moderation.sql.js';
import type { Submission } from './submissions.js';

/*
 * Posts a project holds for its team (docs/moderation.md), the one implementation: the API's
 * handlers and the board's forms call these where api/moderation.ts's holdReason says so. One
 * statement each, as the submission or the comment they stand in for.
 */

/** A held submission's 202: the item as it will be once approved, and why it waits. 403 when its author is blocked. */
export async function holdSubmission(
  sql: Statements,
  s: Submission,
  reason: HoldReason,
): Promise<{ status: 202; body: JsonText<z.input<typeof HeldFeedbackResponseSchema>> }> {
  const item = [s.project, s.title, s.description, s.type, s.metadata];
  const [row] =
    s.externalId !== undefined
      ? await sql.query<HeldRow>(HOLD_SUBMISSION_IDENTIFIED.name, HOLD_SUBMISSION_IDENTIFIED.text, [...item, s.externalId, s.profile, reason])
      : await sql.query<HeldRow>(HOLD_SUBMISSION_ANONYMOUS.name, HOLD_SUBMISSION_ANONYMOUS.text, [...item, s.voterKey, reason]);
  if (!row || row.blocked) throw postingBlocked();
  return jsonReply(routes.createFeedback, 202, `{"feedback":${row.body!},"held":{"reason":"${reason}"}}`);
}

type HeldRow = { blocked: boolean; body: string | null };

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
  let row: { item_found: boolean; parent_found: boolean; anonymous_refused: boolean; blocked: boolean; comment: string | null; comment_count: number | null } | undefined;
  try {
    [row] = await sql.query<NonNullable<typeof row>>(HOLD_COMMENT.name, HOLD_COMMENT.text, [
      input.item,
      input.project,
      input.content,
      author.kind === 'user' ? author.endUser.externalId : null,
      author.kind === 'user' ? JSON.stringify(author.endUser) : null,
      input.parentId ?? null,
      input.voterKey ?? null,
      reason,
    ]);
  } catch (error) {
    throw isItemGone(error) ? feedbackNotFound() : error;
  }
  if (!row?.item_found) throw feedbackNotFound();
  if (!row.parent_found) throw AppError.invalidInput({ formErrors: [], fieldErrors: { parentId: ['parentId must be the id of a comment of this item'] } });
  if (row.anonymous_refused) throw new AppError(403, ERROR_MESSAGES.anonymousCommentsOff);
  if (row.blocked || !row.comment) throw postingBlocked();
  return { comment: JSON.parse(row.comment) as Comment, commentCount: row.comment_count!, held: { reason } };
}
