import { z } from 'zod';
import { displayName } from './admin.js';
import { labelledString, TimestampSchema } from './common.js';
import { CommentSchema } from './feedback.js';
import { EndUserInputSchema, externalIdField } from './users.js';

// The conversation on an item (docs/api.md, "Comments"): end users comment and reply through a
// public key, authors edit and delete their own words until the team answers them, and the team
// pins an official answer and writes private notes through a secret key.

/** Longest comment an end user may write (through a public key), after trimming. */
export const END_USER_COMMENT_MAX_LENGTH = 4_000;
/** Longest comment or note a secret key may write, after trimming (the team's replies may quote at length). */
export const COMMENT_MAX_LENGTH = 10_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Comment text: 1 to COMMENT_MAX_LENGTH characters after trimming (a public key's limit, END_USER_COMMENT_MAX_LENGTH, is the server's check). */
export const CommentContentSchema = labelledString('Content')
  .trim()
  .min(1, { error: 'Content is required' })
  .max(COMMENT_MAX_LENGTH, { error: `Content must be at most ${COMMENT_MAX_LENGTH} characters` });

/** The team as a comment's author: its display name, shown with `isTeam: true`. */
export const TeamAuthorSchema = z.object({ name: displayName('name') }, { error: 'team must be an object with a name' });

/**
 * Body of POST /api/v1/feedback/:id/comments. With a public key: `endUser` (created or updated as
 * by POST /api/v1/identify), or nothing for an anonymous comment where the project allows them.
 * With a secret key: exactly one author, `team` or `endUser`, and for the team `internal` (a
 * private note) and `pin` (the item's official answer). `parentId` makes it a reply.
 */
export const AddCommentRequestSchema = z
  .object({
    content: CommentContentSchema,
    team: TeamAuthorSchema.nullish(),
    endUser: EndUserInputSchema.nullish(),
    parentId: labelledString('parentId')
      .trim()
      .regex(UUID, { error: 'parentId must be the id of a comment of this item' })
      .transform((id) => id.toLowerCase())
      .nullish(),
    internal: z.boolean({ error: 'internal must be true or false' }).optional(),
    pin: z.boolean({ error: 'pin must be true or false' }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.team && body.endUser) ctx.addIssue({ code: 'custom', path: ['team'], message: 'Give team or endUser, not both' });
    if ((body.internal || body.pin) && body.endUser) ctx.addIssue({ code: 'custom', path: [body.internal ? 'internal' : 'pin'], message: 'Only the team writes internal notes and pinned answers' });
    if (body.internal && body.pin) ctx.addIssue({ code: 'custom', path: ['pin'], message: 'An internal note cannot be pinned' });
  });

/**
 * The header that proves, with a public key, which end user edits or deletes their own comment
 * (PATCH and DELETE /api/v1/feedback/:id/comments/:commentId): a token the customer's backend
 * signed with the project's identity secret, as the board's sign-in links and the widget take
 * (`signBoardToken` of `@feedbackd/sdk/board`; docs/api.md, "Comments"). An end user's externalId
 * is published with every comment, so it proves nothing by itself.
 */
export const END_USER_TOKEN_HEADER = 'x-feedback-user-token';

/**
 * Body of PATCH /api/v1/feedback/:id/comments/:commentId: the new content, and/or (secret key)
 * whether the comment is the pinned answer. `endUserId` names the author editing their own comment;
 * with a public key the author is proved by the END_USER_TOKEN_HEADER token (`endUserId`, when
 * given, must be the token's `sub`).
 */
export const UpdateCommentRequestSchema = z
  .object({
    content: CommentContentSchema.optional(),
    endUserId: externalIdField('endUserId').optional(),
    pinned: z.boolean({ error: 'pinned must be true or false' }).optional(),
  })
  .refine((body) => body.content !== undefined || body.pinned !== undefined, { error: 'Give content or pinned' });

/** Query of DELETE /api/v1/feedback/:id/comments/:commentId: the author deleting their own comment (with a public key, proved by the END_USER_TOKEN_HEADER token). */
export const DeleteCommentQuerySchema = z.object({ endUserId: externalIdField('endUserId').optional() });

/** Path parameters of the routes of one comment. */
export const CommentIdParamsSchema = z.object({ id: z.string(), commentId: z.string() });

/** Response 201 of POST /api/v1/feedback/:id/comments: the new comment and the item's comment count after it (internal notes are not counted). */
export const AddCommentResponseSchema = z.object({ comment: CommentSchema, commentCount: z.number().int() });

/** Response 200 of PATCH /api/v1/feedback/:id/comments/:commentId. */
export const UpdateCommentResponseSchema = z.object({ comment: CommentSchema });

/**
 * Response 200 of DELETE /api/v1/feedback/:id/comments/:commentId, with its replies deleted with it
 * (those the caller can see: never an internal note for a public key; an author's delete keeps the
 * team's notes) and the item's comment count after it.
 */
export const DeleteCommentResponseSchema = z.object({
  id: z.string(),
  deleted: z.literal(true),
  repliesDeleted: z.number().int(),
  commentCount: z.number().int(),
});

/** Response 200 of GET /api/v1/feedback/:id/comments: as the detail view's `comments` (pinned first, then oldest first). */
export const ListCommentsResponseSchema = z.object({ comments: z.array(CommentSchema) });

/** A previous content of an edited comment: what it said, from `writtenAt` until `replacedAt`. */
export const CommentRevisionSchema = z.object({ content: z.string(), writtenAt: TimestampSchema, replacedAt: TimestampSchema });

/** Response 200 of GET /api/v1/feedback/:id/comments/:commentId/history (secret key): the comment now and its previous contents, oldest first. */
export const CommentHistoryResponseSchema = z.object({ comment: CommentSchema, revisions: z.array(CommentRevisionSchema) });

export type AddCommentRequest = z.input<typeof AddCommentRequestSchema>;
export type UpdateCommentRequest = z.input<typeof UpdateCommentRequestSchema>;
export type TeamAuthor = z.input<typeof TeamAuthorSchema>;
export type AddCommentResult = z.infer<typeof AddCommentResponseSchema>;
export type UpdateCommentResult = z.infer<typeof UpdateCommentResponseSchema>;
export type DeleteCommentResult = z.infer<typeof DeleteCommentResponseSchema>;
export type CommentRevision = z.infer<typeof CommentRevisionSchema>;
export type CommentHistory = z.infer<typeof CommentHistoryResponseSchema>;
