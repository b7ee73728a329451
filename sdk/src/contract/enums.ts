import { z } from 'zod';

/** Every FeedbackType of spec 2.1, in the order the error messages list them. */
export const FEEDBACK_TYPES = ['bug', 'idea', 'question', 'other'] as const;
/** Every FeedbackStatus of spec 2.1, in workflow order. */
export const FEEDBACK_STATUSES = ['new', 'under-review', 'planned', 'in-progress', 'completed', 'closed'] as const;
/** Every SortBy of spec 2.1. */
export const SORT_ORDERS = ['newest', 'oldest', 'votes', 'comments'] as const;

/** The kind of a feedback item: `bug`, `idea`, `question` or `other`. */
export const FeedbackTypeSchema = z.enum(FEEDBACK_TYPES, {
  error: () => `Type must be one of: ${FEEDBACK_TYPES.join(', ')}`,
});
/** Where a feedback item is in its life cycle; items are created as `new`. */
export const FeedbackStatusSchema = z.enum(FEEDBACK_STATUSES, {
  error: () => `Status must be one of: ${FEEDBACK_STATUSES.join(', ')}`,
});
/** The order of a feedback list: `newest` (default), `oldest`, `votes` or `comments` (most first). */
export const SortBySchema = z.enum(SORT_ORDERS, {
  error: () => `sortBy must be one of: ${SORT_ORDERS.join(', ')}`,
});

export type FeedbackType = z.infer<typeof FeedbackTypeSchema>;
export type FeedbackStatus = z.infer<typeof FeedbackStatusSchema>;
export type SortBy = z.infer<typeof SortBySchema>;
