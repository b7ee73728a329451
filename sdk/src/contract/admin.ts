import { z } from 'zod';
import { labelledString } from './common.js';
import { FeedbackStatusSchema, FeedbackTypeSchema } from './enums.js';
import { CommentSchema, DescriptionSchema, FeedbackDetailSchema, TitleSchema } from './feedback.js';
import { EndUserInputSchema } from './users.js';

// The operator's extensions beyond the spec: they need a secret key (`sk_`). Every message a
// field can get names the field, in the style of the spec's own ("Title is required").

/** Longest comment accepted, after trimming. */
export const COMMENT_MAX_LENGTH = 10_000;
/** Longest display name of a team author or an actor, after trimming. */
export const DISPLAY_NAME_MAX_LENGTH = 200;

/** A display name: 1 to 200 characters after trimming. */
function displayName(label: string) {
  return labelledString(label)
    .trim()
    .min(1, { error: `${label} is required` })
    .max(DISPLAY_NAME_MAX_LENGTH, { error: `${label} must be at most ${DISPLAY_NAME_MAX_LENGTH} characters` });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The fields PATCH may change; at least one of them must be given. */
const UPDATABLE_FIELDS = ['status', 'title', 'description', 'type'] as const;

/**
 * Body of PATCH /api/v1/feedback/:id. A field left out keeps its value; `description: null`
 * clears it. `actor` names who made the change in the status history (the key is recorded anyway).
 */
export const UpdateFeedbackRequestSchema = z
  .object({
    status: FeedbackStatusSchema.optional(),
    title: TitleSchema.optional(),
    description: DescriptionSchema,
    type: FeedbackTypeSchema.optional(),
    actor: displayName('actor').nullish(),
  })
  .refine((body) => UPDATABLE_FIELDS.some((field) => body[field] !== undefined), {
    error: 'Give at least one of status, title, description or type',
  });

/** The team as a comment's author: its display name, shown with `isTeam: true`. */
export const TeamAuthorSchema = z.object({ name: displayName('name') }, { error: 'team must be an object with a name' });

/**
 * Body of POST /api/v1/feedback/:id/comments: the text and exactly one author, the team (`team`)
 * or an end user (`endUser`, created or updated as by POST /api/v1/identify).
 */
export const AddCommentRequestSchema = z
  .object({
    content: labelledString('Content')
      .trim()
      .min(1, { error: 'Content is required' })
      .max(COMMENT_MAX_LENGTH, { error: `Content must be at most ${COMMENT_MAX_LENGTH} characters` }),
    team: TeamAuthorSchema.nullish(),
    endUser: EndUserInputSchema.nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.team && body.endUser) ctx.addIssue({ code: 'custom', path: ['team'], message: 'Give team or endUser, not both' });
    if (!body.team && !body.endUser) ctx.addIssue({ code: 'custom', path: ['team'], message: 'A comment needs an author: team or endUser' });
  });

/** Body of POST /api/v1/feedback/:id/merge: the item that takes over the duplicate's votes and comments. */
export const MergeFeedbackRequestSchema = z.object({
  intoId: labelledString('intoId')
    .trim()
    .regex(UUID, { error: 'intoId must be the id of a feedback item' })
    .transform((id) => id.toLowerCase()),
});

/** Path parameters of DELETE /api/v1/feedback/:id/comments/:commentId. */
export const CommentIdParamsSchema = z.object({ id: z.string(), commentId: z.string() });

/** Response 200 of PATCH /api/v1/feedback/:id: the item as a secret key reads it, `statusHistory` included. */
export const UpdateFeedbackResponseSchema = z.object({ feedback: FeedbackDetailSchema });

/** Response 200 of DELETE /api/v1/feedback/:id. */
export const DeleteFeedbackResponseSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** Response 201 of POST /api/v1/feedback/:id/comments: the new comment and the item's comment count after it. */
export const AddCommentResponseSchema = z.object({ comment: CommentSchema, commentCount: z.number().int() });

/** Response 200 of DELETE /api/v1/feedback/:id/comments/:commentId, with the item's comment count after it. */
export const DeleteCommentResponseSchema = z.object({ id: z.string(), deleted: z.literal(true), commentCount: z.number().int() });

/** What a merge moved: `votesMoved` counts the duplicate's voters who had not voted on the target. */
export const MergeSummarySchema = z.object({
  id: z.string(),
  votesMoved: z.number().int(),
  commentsMoved: z.number().int(),
});

/** Response 200 of POST /api/v1/feedback/:id/merge: the target as a secret key reads it, and what moved. */
export const MergeFeedbackResponseSchema = z.object({ feedback: FeedbackDetailSchema, merged: MergeSummarySchema });

export type UpdateFeedbackRequest = z.input<typeof UpdateFeedbackRequestSchema>;
export type TeamAuthor = z.input<typeof TeamAuthorSchema>;
export type AddCommentRequest = z.input<typeof AddCommentRequestSchema>;
export type MergeFeedbackRequest = z.input<typeof MergeFeedbackRequestSchema>;
export type DeleteFeedbackResult = z.infer<typeof DeleteFeedbackResponseSchema>;
export type AddCommentResult = z.infer<typeof AddCommentResponseSchema>;
export type DeleteCommentResult = z.infer<typeof DeleteCommentResponseSchema>;
export type MergeSummary = z.infer<typeof MergeSummarySchema>;
export type MergeFeedbackResult = z.infer<typeof MergeFeedbackResponseSchema>;
