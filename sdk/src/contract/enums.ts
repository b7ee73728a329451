import { z } from 'zod';
import { BOARD_LOCALES, FEEDBACK_STATUSES, FEEDBACK_TYPES, MAIL_STATES, NOTIFICATION_KINDS, SORT_ORDERS } from './constants.js';

export { BOARD_LOCALES, FEEDBACK_STATUSES, FEEDBACK_TYPES, SORT_ORDERS, MAIL_STATES, NOTIFICATION_KINDS };

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
