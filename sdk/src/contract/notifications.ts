import { z } from 'zod';
import { TimestampSchema } from './common.js';
import { MAIL_STATES, NOTIFICATION_KINDS } from './constants.js';
import { FeedbackStatusSchema, FeedbackTypeSchema } from './enums.js';
import { integerParam } from './query.js';

// The notifications' log (docs/notifications.md), an operator's extension for secret keys: what
// subscribers were told, and where each one's mail stands; retrying what failed; the digest choice.

/** What a notification tells: `status_changed`, `team_reply`, `merged`, `shipped`. */
export const NotificationKindSchema = z.enum(NOTIFICATION_KINDS);
/** Where a notification's mail stands: `pending`, `sent`, `failed`, `suppressed`, `skipped` (no address). */
export const MailStateSchema = z.enum(MAIL_STATES, { error: `state must be one of ${MAIL_STATES.join(', ')}` });

// Ids as webhook-events.ts checks them: PostgreSQL's uuid text (rows imported from a dump need not carry a version).
const IdSchema = z.guid();

/** An item as a notification names it. */
export const NotificationItemSchema = z.object({ id: IdSchema, title: z.string(), type: FeedbackTypeSchema, status: FeedbackStatusSchema });

/** A recipient of a notification: the end user by the id your application gave them, with what it told us of them. */
export const NotificationRecipientSchema = z.object({ externalId: z.string(), email: z.string().nullable(), name: z.string().nullable() });

/**
 * What a notification tells, by `kind` (docs/notifications.md). `id` names the change: every
 * event of one change (500 recipients each) carries the same one.
 */
export const NotificationChangeSchema = z.discriminatedUnion('kind', [
  z.object({ id: IdSchema, kind: z.literal('status_changed'), feedback: NotificationItemSchema, from: FeedbackStatusSchema, to: FeedbackStatusSchema, actor: z.string().nullable() }),
  z.object({
    id: IdSchema,
    kind: z.literal('team_reply'),
    feedback: NotificationItemSchema,
    reply: z.object({ id: IdSchema, content: z.string(), authorName: z.string().nullable(), createdAt: TimestampSchema }),
  }),
  z.object({ id: IdSchema, kind: z.literal('merged'), feedback: NotificationItemSchema, source: z.object({ id: IdSchema, title: z.string() }) }),
  z.object({
    id: IdSchema,
    kind: z.literal('shipped'),
    entry: z.object({ id: IdSchema, title: z.string(), body: z.string(), publishedAt: TimestampSchema, items: z.array(NotificationItemSchema.pick({ id: true, title: true, status: true })) }),
  }),
]);

/** One notification: one change told to one subscriber. */
export const NotificationSchema = z.object({
  id: z.string(),
  /** The change (the `notification.id` of its `notification.created` events). */
  changeId: z.string(),
  kind: NotificationKindSchema,
  /** The item it is about; null for a changelog entry (see `entryId`) or an item deleted since. */
  feedbackId: z.string().nullable(),
  entryId: z.string().nullable(),
  recipient: z.object({ externalId: z.string(), email: z.string().nullable() }),
  mailState: MailStateSchema,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: TimestampSchema,
  sentAt: TimestampSchema.nullable(),
});

/** Query of GET /api/v1/notifications: newest first, optionally of one mail state. */
export const ListNotificationsQuerySchema = z.object({
  state: MailStateSchema.optional(),
  page: integerParam('page', 1, 1, 10_000_000),
  limit: integerParam('limit', 20, 1, 100),
});

export const NotificationListResponseSchema = z.object({
  items: z.array(NotificationSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
});

/** Body of POST /api/v1/notifications/retry: these ids, or every failed notification of the project when none are given. */
export const RetryNotificationsRequestSchema = z.object({
  ids: z.array(z.string({ error: 'ids must be a list of notification ids' }), { error: 'ids must be a list of notification ids' }).max(1000, { error: 'ids must name at most 1000 notifications' }).optional(),
});
export const RetryNotificationsResponseSchema = z.object({ retried: z.number().int() });

/** Body of PATCH /api/v1/notifications/settings: `digest` mails one daily digest instead of a message per window. */
export const NotificationSettingsSchema = z.object({ digest: z.boolean({ error: 'digest must be true or false' }) });

export type Notification = z.infer<typeof NotificationSchema>;
export type NotificationKind = z.infer<typeof NotificationKindSchema>;
export type MailState = z.infer<typeof MailStateSchema>;
export type ListNotificationsQuery = z.input<typeof ListNotificationsQuerySchema>;
export type NotificationList = z.infer<typeof NotificationListResponseSchema>;
export type NotificationSettings = z.infer<typeof NotificationSettingsSchema>;
