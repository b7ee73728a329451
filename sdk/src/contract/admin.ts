import { z } from 'zod';
import { labelledString } from './common.js';
import { FeedbackStatusSchema, FeedbackTypeSchema } from './enums.js';
import { DescriptionSchema, FeedbackDetailSchema, TitleSchema } from './feedback.js';

// The operator's extensions beyond the spec: they need a secret key (`sk_`). Every message a
// field can get names the field, in the style of the spec's own ("Title is required").

/** Longest display name of a team author or an actor, after trimming. */
export const DISPLAY_NAME_MAX_LENGTH = 200;

/** A display name: 1 to 200 characters after trimming. */
export function displayName(label: string) {
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

/** Body of POST /api/v1/feedback/:id/merge: the item that takes over the duplicate's votes and comments. */
export const MergeFeedbackRequestSchema = z.object({
  intoId: labelledString('intoId')
    .trim()
    .regex(UUID, { error: 'intoId must be the id of a feedback item' })
    .transform((id) => id.toLowerCase()),
});

/** Response 200 of PATCH /api/v1/feedback/:id: the item as a secret key reads it, `statusHistory` included. */
export const UpdateFeedbackResponseSchema = z.object({ feedback: FeedbackDetailSchema });

/** Response 200 of DELETE /api/v1/feedback/:id. */
export const DeleteFeedbackResponseSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** What a merge moved: `votesMoved` counts the duplicate's voters who had not voted on the target. */
export const MergeSummarySchema = z.object({
  id: z.string(),
  votesMoved: z.number().int(),
  commentsMoved: z.number().int(),
});

/** Response 200 of POST /api/v1/feedback/:id/merge: the target as a secret key reads it, and what moved. */
export const MergeFeedbackResponseSchema = z.object({ feedback: FeedbackDetailSchema, merged: MergeSummarySchema });

export type UpdateFeedbackRequest = z.input<typeof UpdateFeedbackRequestSchema>;
export type MergeFeedbackRequest = z.input<typeof MergeFeedbackRequestSchema>;
export type DeleteFeedbackResult = z.infer<typeof DeleteFeedbackResponseSchema>;
export type MergeSummary = z.infer<typeof MergeSummarySchema>;
export type MergeFeedbackResult = z.infer<typeof MergeFeedbackResponseSchema>;
