import { routes, type Comment, type HeldFeedbackResponseSchema, type HoldReason } from '@feedbackd/sdk/contract';
import { jsonReply, type JsonText, type Statements } from '../http/mount.js';
import type { z } from 'zod';
import { runCommentStatement, type NewComment } from './comments.js';
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
