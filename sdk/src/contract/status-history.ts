import { z } from 'zod';
import { TimestampSchema } from './common.js';
import { FeedbackStatusSchema } from './enums.js';

/**
 * One recorded status change of an item (an extension beyond the spec): from which status to
 * which, when, with which key, and the optional name of the person who made it. The detail view
 * lists them oldest first as `statusHistory`, for secret keys only.
 */
export const StatusChangeSchema = z.object({
  from: FeedbackStatusSchema,
  to: FeedbackStatusSchema,
  changedAt: TimestampSchema,
  /** The id of the key that made the change; null once that key's row is gone (e.g. after an import). */
  keyId: z.string().nullable(),
  /** What listings show of that key (`sk_` and 6 characters), or null with `keyId`. */
  keyPrefix: z.string().nullable(),
  /** The `actor` the caller named, or null. */
  actor: z.string().nullable(),
});

export type StatusChange = z.infer<typeof StatusChangeSchema>;
