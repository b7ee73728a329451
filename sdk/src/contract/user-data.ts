import { z } from 'zod';
import { CommentRevisionSchema } from './comments.js';
import { MetadataSchema, TimestampSchema } from './common.js';
import { FeedbackStatusSchema, FeedbackTypeSchema } from './enums.js';
import { HeldPostSchema } from './moderation.js';
import { MailStateSchema, NotificationChangeSchema } from './notifications.js';
import { choiceParam } from './query.js';
import { SubscriptionReasonSchema } from './subscriptions.js';
import { externalIdField } from './users.js';

// One end user's data, for the requests of data protection law: erasure ("forget me", GDPR
// art. 17) and access or portability ("what do you hold about me", art. 15 and 20). The operator's
// extensions: secret keys only.

/** Path parameters of /api/v1/users/:externalId and …/export: the id the host application gave the person. */
export const ExternalIdParamsSchema = z.object({ externalId: externalIdField('externalId') });

/** What becomes of the person's submissions and comments: kept without their author (the default), or deleted. */
export const ERASED_CONTENT = ['anonymise', 'delete'] as const;

/**
 * Query of DELETE /api/v1/users/:externalId. `content=anonymise` (the default) keeps other
 * people's discussions readable: the person's items stay, anonymous, and their comments stay,
 * signed "Deleted user". `content=delete` deletes both (an item with its votes and comments).
 */
export const EraseUserQuerySchema = z.object({ content: choiceParam(z.enum(ERASED_CONTENT, { error: "content must be 'anonymise' or 'delete'" }), 'anonymise') });

/**
 * What an erasure removed or anonymised, per kind. All zero: nothing was held (an unknown person,
 * or one erased before), and nothing was done.
 */
export const ErasureCountsSchema = z.object({
  /** The profile (0 or 1). */
  endUsers: z.number().int(),
  /** The person's votes, each uncounted from its item. */
  votes: z.number().int(),
  submissionsDeleted: z.number().int(),
  submissionsAnonymised: z.number().int(),
  commentsDeleted: z.number().int(),
  commentsAnonymised: z.number().int(),
  /** Webhook events (the outbox and the delivery log) that named the person, anonymised or, for deleted content, removed. */
  webhookEvents: z.number().int(),
  /** Stored answers of Idempotency-Keys that held the person's data, deleted (a retry of their request runs again). */
  idempotencyRecords: z.number().int(),
  /** Receivers' answers in the delivery log that held the person's data, cleared (the attempts stay). */
  webhookAnswers: z.number().int(),
});

/** Response 200 of DELETE /api/v1/users/:externalId. `erased` is false when nothing was held. */
export const EraseUserResponseSchema = z.object({ erased: z.boolean(), counts: ErasureCountsSchema });

/** The profile as stored, metadata included (which no other answer shows), with the person's mail and widget state. */
const ExportedEndUserSchema = z.object({
  externalId: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  metadata: MetadataSchema.nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  /** When they left every notification of the project (an unsubscribe link's "all", or POST /api/v1/unsubscribe); null: never. */
  unsubscribedAt: TimestampSchema.nullable(),
  /** When their mail server refused their address for good, after which no mail is tried; null: never. */
  emailSuppressedAt: TimestampSchema.nullable(),
  /** When the widget last showed them what changed on their items; null: never. */
  widgetSeenAt: TimestampSchema.nullable(),
});

/** A status change of one of the person's items (who made it is the team's, not the person's, and left out). */
const ExportedStatusChangeSchema = z.object({ from: FeedbackStatusSchema, to: FeedbackStatusSchema, changedAt: TimestampSchema });

/** An item the person submitted, with what became of it. */
const ExportedSubmissionSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  type: FeedbackTypeSchema,
  status: FeedbackStatusSchema,
  metadata: MetadataSchema.nullable(),
  voteCount: z.number().int(),
  commentCount: z.number().int(),
  createdAt: TimestampSchema,
  statusHistory: z.array(ExportedStatusChangeSchema),
});

/** A comment the person wrote, with its earlier versions when it was edited (oldest first). */
const ExportedCommentSchema = z.object({
  id: z.string(),
  feedbackId: z.string(),
  feedbackTitle: z.string(),
  /** The comment it answers; null for a top-level comment. */
  parentId: z.string().nullable(),
  content: z.string(),
  /** Whether it is in a thread only the team sees. */
  internal: z.boolean(),
  createdAt: TimestampSchema,
  editedAt: TimestampSchema.nullable(),
  revisions: z.array(CommentRevisionSchema),
});

/** Why the person is subscribed to an item, or that they unsubscribed from it (`unsubscribedAt`, which outlives taking part again). */
const ExportedSubscriptionSchema = z.object({
  feedbackId: z.string(),
  feedbackTitle: z.string(),
  reasons: z.array(SubscriptionReasonSchema),
  unsubscribedAt: TimestampSchema.nullable(),
  createdAt: TimestampSchema,
});

/** One change told to the person: what it said, and where its mail to their address stands (as the notifications' log shows it). */
const ExportedNotificationSchema = z.object({
  id: z.string(),
  /** The item it is about; null for a changelog entry or an item deleted since. */
  feedbackId: z.string().nullable(),
  change: NotificationChangeSchema,
  mailState: MailStateSchema,
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: TimestampSchema,
  sentAt: TimestampSchema.nullable(),
});

/**
 * Response 200 of GET /api/v1/users/:externalId/export: everything stored about the person, as
 * one document. Their votes, comments and subscriptions name the item (id and title) they are on;
 * `heldPosts` are what they wrote that waits for the team (moderation), `notifications` what
 * was told them (and mailed to their address), `blocks` the team's blocks of them.
 */
export const UserExportSchema = z.object({
  exportedAt: TimestampSchema,
  endUser: ExportedEndUserSchema,
  submissions: z.array(ExportedSubmissionSchema),
  votes: z.array(z.object({ feedbackId: z.string(), feedbackTitle: z.string(), createdAt: TimestampSchema })),
  comments: z.array(ExportedCommentSchema),
  subscriptions: z.array(ExportedSubscriptionSchema),
  heldPosts: z.array(HeldPostSchema.omit({ author: true }).extend({ feedbackTitle: z.string().nullable() })),
  notifications: z.array(ExportedNotificationSchema),
  blocks: z.array(z.object({ id: z.string(), excerpt: z.string().nullable(), createdAt: TimestampSchema, expiresAt: TimestampSchema.nullable() })),
});

/** `data` of the `user.erased` webhook event: whom the receiver should forget too, and the counts. Nothing else of the person. */
export const UserErasedDataSchema = z.object({ endUser: z.object({ externalId: z.string() }), counts: ErasureCountsSchema });

export type ErasedContent = (typeof ERASED_CONTENT)[number];
export type EraseUserQuery = z.input<typeof EraseUserQuerySchema>;
export type ErasureCounts = z.infer<typeof ErasureCountsSchema>;
export type EraseUserResult = z.infer<typeof EraseUserResponseSchema>;
export type UserExport = z.infer<typeof UserExportSchema>;
