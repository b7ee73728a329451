import { z } from 'zod';
import { MetadataSchema, TimestampSchema } from './common.js';
import { AddCommentResponseSchema, UpdateCommentResponseSchema } from './comments.js';
import { ADDRESS_BLOCK_DAYS, BLOCK_DAYS_MAX, MODERATION_MODES } from './constants.js';
import { CreateFeedbackResponseSchema } from './feedback.js';

export { ADDRESS_BLOCK_DAYS, BLOCK_DAYS_MAX };

// Moderation (docs/moderation.md), off by default: a project may hold its end users' posts
// (submissions and comments through a public key, or from the board) until the team approves
// them. A held post is invisible to every public read and fires no webhook until approved.

/** A project's moderation mode. */
export const ModerationModeSchema = z.enum(MODERATION_MODES, { error: "moderation must be 'none', 'anonymous' or 'all'" });

/** Why a post waits: the project holds anonymous posts, every end user's post, or posts with a link. */
export const HoldReasonSchema = z.enum(['anonymous', 'all', 'link']);

/** Most ids one approve or reject takes. */
export const MODERATION_BATCH_MAX = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A post waiting for the team, as the operator's queue lists it. */
export const HeldPostSchema = z.object({
  /** The post's id, which the item or the comment keeps once approved. */
  id: z.string(),
  kind: z.enum(['feedback', 'comment']),
  reason: HoldReasonSchema,
  createdAt: TimestampSchema,
  /** A comment's item; null for a submission. */
  feedbackId: z.string().nullable(),
  /** A reply's top-level comment. */
  parentId: z.string().nullable(),
  /**
   * An edit of a published comment: that comment's id. It keeps its published text until the edit
   * is approved (then `content` replaces it); null for a new submission or comment.
   */
  editOf: z.string().nullable(),
  /** A submission's fields (null for a comment). */
  title: z.string().nullable(),
  description: z.string().nullable(),
  type: z.string().nullable(),
  metadata: MetadataSchema.nullable(),
  /** A comment's text, or an edit's new text (null for a submission). */
  content: z.string().nullable(),
  /** The identified author; null: an anonymous caller. */
  author: z.object({ externalId: z.string(), name: z.string().nullable() }).nullable(),
});

/** Response 200 of GET /api/v1/moderation: the project's queue, oldest first. */
export const ModerationQueueResponseSchema = z.object({ items: z.array(HeldPostSchema), total: z.number().int() });

/** Body of POST /api/v1/moderation/approve. */
export const ApproveHeldRequestSchema = z.object({
  ids: z
    .array(z.string({ error: 'ids must be held posts\' ids' }).regex(UUID, { error: "ids must be held posts' ids" }).transform((id) => id.toLowerCase()), { error: "ids must be an array of held posts' ids" })
    .min(1, { error: 'Give at least one id' })
    .max(MODERATION_BATCH_MAX, { error: `Give at most ${MODERATION_BATCH_MAX} ids at once` }),
});

/**
 * Body of POST /api/v1/moderation/reject: `block` also stops each post's author from posting again
 * (docs/moderation.md, "Blocks"), for `blockDays` days if given; otherwise an end user until the
 * team lifts the block, an anonymous caller's address for ADDRESS_BLOCK_DAYS days.
 */
export const RejectHeldRequestSchema = ApproveHeldRequestSchema.extend({
  block: z.boolean({ error: 'block must be true or false' }).optional(),
  blockDays: z
    .number({ error: `blockDays must be a whole number of days from 1 to ${BLOCK_DAYS_MAX}` })
    .int({ error: `blockDays must be a whole number of days from 1 to ${BLOCK_DAYS_MAX}` })
    .min(1, { error: `blockDays must be a whole number of days from 1 to ${BLOCK_DAYS_MAX}` })
    .max(BLOCK_DAYS_MAX, { error: `blockDays must be a whole number of days from 1 to ${BLOCK_DAYS_MAX}` })
    .optional(),
}).refine((body) => body.blockDays === undefined || body.block === true, { path: ['blockDays'], error: 'blockDays needs block: true' });

/** One post the team decided on: what it was, and where it went. */
const DecidedPostSchema = z.object({ id: z.string(), kind: z.enum(['feedback', 'comment']), feedbackId: z.string() });

/** Response 200 of POST /api/v1/moderation/approve: the posts now public, and the ids no longer held (decided already, or never). */
export const ApproveHeldResponseSchema = z.object({ approved: z.array(DecidedPostSchema), notFound: z.array(z.string()) });

/** Response 200 of POST /api/v1/moderation/reject: the posts deleted, how many authors were blocked, and the ids no longer held. */
export const RejectHeldResponseSchema = z.object({
  rejected: z.array(z.object({ id: z.string(), kind: z.enum(['feedback', 'comment']) })),
  blocked: z.number().int(),
  notFound: z.array(z.string()),
});

/**
 * Whom a block names: an end user (one identified through the API's `endUser`, or a signed-in
 * visitor of the board or the widget), or, for an anonymous post, the caller's address (its voter
 * key), which others behind the same address share.
 */
export const BlockScopeSchema = z.enum(['endUser', 'address']);

/** An author the team blocked when rejecting one of their posts (docs/moderation.md, "Blocks"). */
export const PostingBlockSchema = z.object({
  /** The block's id: `DELETE /api/v1/moderation/blocks/:blockId` lifts it. */
  id: z.string(),
  scope: BlockScopeSchema,
  /** The blocked end user; null for an address. */
  author: z.object({ externalId: z.string(), name: z.string().nullable() }).nullable(),
  /** The start of the rejected post that made the block (at most 100 characters), so that blocks can be told apart. */
  excerpt: z.string().nullable(),
  createdAt: TimestampSchema,
  /** When the block ends by itself; null: only when lifted. An expired block is no longer listed and stops nobody. */
  expiresAt: TimestampSchema.nullable(),
});

/** Response 200 of GET /api/v1/moderation/blocks: the blocks in force, newest first (at most 500; `total` counts them all). */
export const PostingBlockListResponseSchema = z.object({ items: z.array(PostingBlockSchema), total: z.number().int() });

/** Path of DELETE /api/v1/moderation/blocks/:blockId. */
export const BlockIdParamsSchema = z.object({ blockId: z.string() });

/** Response 200 of DELETE /api/v1/moderation/blocks/:blockId: the block is lifted, its author may post again. */
export const UnblockResponseSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** Why a post was held, added to its 202 answer. */
const HeldSchema = z.object({ reason: HoldReasonSchema });

/**
 * Response 202 of POST /api/v1/feedback when the project holds the post: the item as it will be
 * once approved (the same id), and `held`. It is not listed, read or counted until then.
 */
export const HeldFeedbackResponseSchema = CreateFeedbackResponseSchema.extend({ held: HeldSchema });

/** Response 202 of POST /api/v1/feedback/:id/comments when the project holds the comment: `commentCount` is unchanged. */
export const HeldCommentResponseSchema = AddCommentResponseSchema.extend({ held: HeldSchema });

/**
 * Response 202 of PATCH /api/v1/feedback/:id/comments/:commentId when the project holds an end
 * user's edit: `comment` as everyone still reads it (the published text), and `held`.
 */
export const HeldEditResponseSchema = UpdateCommentResponseSchema.extend({ held: HeldSchema });

export type ModerationMode = z.infer<typeof ModerationModeSchema>;
export type HoldReason = z.infer<typeof HoldReasonSchema>;
export type HeldPost = z.infer<typeof HeldPostSchema>;
export type ModerationQueue = z.infer<typeof ModerationQueueResponseSchema>;
export type ApproveHeldResult = z.infer<typeof ApproveHeldResponseSchema>;
export type RejectHeldResult = z.infer<typeof RejectHeldResponseSchema>;
export type RejectHeldRequest = z.input<typeof RejectHeldRequestSchema>;
export type BlockScope = z.infer<typeof BlockScopeSchema>;
export type PostingBlock = z.infer<typeof PostingBlockSchema>;
export type PostingBlockList = z.infer<typeof PostingBlockListResponseSchema>;
export type UnblockResult = z.infer<typeof UnblockResponseSchema>;
