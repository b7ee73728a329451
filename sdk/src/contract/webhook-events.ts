import { z } from 'zod';
import { MetadataSchema, TimestampSchema } from './common.js';
import { WEBHOOK_EVENT_TYPES } from './constants.js';
import { FeedbackStatusSchema, FeedbackTypeSchema } from './enums.js';
import { NotificationChangeSchema, NotificationRecipientSchema } from './notifications.js';
import { UserErasedDataSchema } from './user-data.js';

/*
 * The bodies of the webhooks the server sends: `{ id, type, timestamp, data }`, one `data` shape
 * per `type`. Objects are not strict (zod's default strips unknown keys): a newer server may add
 * fields, and a receiver built with this version must still accept its events. The added fields
 * are left out of the parsed event; the raw body still has them.
 */

// The event types live with the contract's other plain values, which load without zod.
export { WEBHOOK_EVENT_TYPES };
// A notification's change and recipient are the notifications' own (notifications.ts), shown by their log and exports too.
export { NotificationChangeSchema, NotificationItemSchema, NotificationRecipientSchema } from './notifications.js';

/** The `type` of a webhook event. */
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

// Ids are checked as PostgreSQL's uuid text (8-4-4-4-12 hex), like the server's own id check, not
// as RFC 9562 uuids: rows imported from a dump keep ids that need not carry a version or variant.
const IdSchema = z.guid();

/** An end user as an event names them: by the id your application gave them, nothing more. */
export const WebhookEndUserSchema = z.object({ externalId: z.string() });

/** A feedback item as events show it. `endUser` is its submitter, `null` when anonymous. */
export const FeedbackRefSchema = z.object({
  id: IdSchema,
  title: z.string(),
  type: FeedbackTypeSchema,
  status: FeedbackStatusSchema,
  voteCount: z.number().int(),
  commentCount: z.number().int(),
  createdAt: TimestampSchema,
  endUser: WebhookEndUserSchema.nullable(),
});

/** `data` of `feedback.created`: the new item with its description and metadata. */
export const FeedbackCreatedDataSchema = z.object({
  feedback: FeedbackRefSchema.extend({
    description: z.string().nullable(),
    metadata: MetadataSchema.nullable(),
  }),
});

/** `data` of `feedback.status_changed`. `actor` is the name the operator gave with the change (as in `statusHistory`), or null. */
export const FeedbackStatusChangedDataSchema = z.object({
  feedback: FeedbackRefSchema,
  from: FeedbackStatusSchema,
  to: FeedbackStatusSchema,
  actor: z.string().nullable(),
});

/** `data` of `feedback.merged`: `source` is gone (merged into `target`), so only its id and title remain. */
export const FeedbackMergedDataSchema = z.object({
  source: z.object({ id: IdSchema, title: z.string() }),
  target: FeedbackRefSchema,
});

/** `data` of `feedback.deleted`: what the item was. */
export const FeedbackDeletedDataSchema = z.object({
  feedback: z.object({ id: IdSchema, title: z.string(), type: FeedbackTypeSchema, status: FeedbackStatusSchema }),
});

/**
 * `data` of `vote.added` and `vote.removed`. `voteCount` is the count after the change. An
 * anonymous voter is `null`: the server never sends the hash it keeps for them.
 */
export const VoteChangedDataSchema = z.object({
  feedback: z.object({ id: IdSchema, voteCount: z.number().int() }),
  endUser: WebhookEndUserSchema.nullable(),
});

/**
 * A comment as events show it. The author is the team (`isTeam`) or an end user (`externalId`;
 * both null for an anonymous comment). `internal` is true for the team's private notes, which only
 * endpoints with `includeInternal` receive; `commentCount` never counts them.
 */
export const WebhookCommentSchema = z.object({
  id: IdSchema,
  content: z.string(),
  createdAt: TimestampSchema,
  author: z.object({ isTeam: z.boolean(), name: z.string().nullable(), externalId: z.string().nullable() }),
  parentId: IdSchema.nullable().optional(),
  internal: z.boolean().optional(),
  isPinned: z.boolean().optional(),
  editedAt: TimestampSchema.nullable().optional(),
});

/** `data` of `comment.created`. */
export const CommentCreatedDataSchema = z.object({
  feedback: z.object({ id: IdSchema, commentCount: z.number().int() }),
  comment: WebhookCommentSchema,
});

/**
 * `data` of `comment.updated`: the comment as it is after an edit, a pin or an unpin, or (an
 * internal note, so only to endpoints with `includeInternal`) after its move out of a thread whose
 * author deleted it: `parentId` is then null for the oldest note and the oldest's id for the others.
 */
export const CommentUpdatedDataSchema = CommentCreatedDataSchema;

/**
 * `data` of `comment.deleted`: what the comment was, and how many replies went with it.
 * `repliesDeleted` never counts an internal note unless the comment is one (then only endpoints
 * with `includeInternal` receive the event); an author's delete keeps the notes (see `comment.updated`).
 */
export const CommentDeletedDataSchema = z.object({
  feedback: z.object({ id: IdSchema, commentCount: z.number().int() }),
  comment: z.object({ id: IdSchema, parentId: IdSchema.nullable(), internal: z.boolean(), isTeam: z.boolean(), externalId: z.string().nullable() }),
  repliesDeleted: z.number().int(),
});

/**
 * `data` of `changelog.published`: the entry as it appeared (at its publication time, which a
 * scheduled entry reaches later than it was written), with its linked items. Sent once per entry.
 */
export const ChangelogPublishedDataSchema = z.object({
  entry: z.object({
    id: IdSchema,
    title: z.string(),
    body: z.string(),
    publishedAt: TimestampSchema,
    items: z.array(z.object({ id: IdSchema, title: z.string(), status: FeedbackStatusSchema })),
  }),
});

/**
 * `data` of `notification.created`: a change its subscribers are told of, and (some of) its
 * recipients: every subscriber of the item except the one who caused the change and those who
 * unsubscribed, at most 500 per event (a change with more comes as several events of one `id`).
 */
export const NotificationCreatedDataSchema = z.object({
  notification: NotificationChangeSchema,
  recipients: z.array(NotificationRecipientSchema).max(500),
});

/** `data` of `webhook.test`, sent when an operator tests an endpoint. */
export const WebhookTestDataSchema = z.object({
  webhook: z.object({ id: IdSchema }),
  message: z.string(),
});

/** The `data` schema of each type; `satisfies` makes the compiler refuse a type without one (or one too many). */
const DATA_SCHEMAS = {
  'feedback.created': FeedbackCreatedDataSchema,
  'feedback.status_changed': FeedbackStatusChangedDataSchema,
  'feedback.merged': FeedbackMergedDataSchema,
  'feedback.deleted': FeedbackDeletedDataSchema,
  'vote.added': VoteChangedDataSchema,
  'vote.removed': VoteChangedDataSchema,
  'comment.created': CommentCreatedDataSchema,
  'comment.updated': CommentUpdatedDataSchema,
  'comment.deleted': CommentDeletedDataSchema,
  'user.erased': UserErasedDataSchema,
  'changelog.published': ChangelogPublishedDataSchema,
  'notification.created': NotificationCreatedDataSchema,
  'webhook.test': WebhookTestDataSchema,
} satisfies Record<WebhookEventType, z.ZodType>;

/** The envelope of one type. `id` stays the same across the retries of one event: dedupe on it. */
function eventSchema<T extends WebhookEventType>(type: T) {
  return z.object({ id: IdSchema, type: z.literal(type), timestamp: TimestampSchema, data: DATA_SCHEMAS[type] });
}

/** A webhook body of a known type, checked against the `data` schema of its `type`. */
export const WebhookEventSchema = z.discriminatedUnion('type', [
  eventSchema('feedback.created'),
  eventSchema('feedback.status_changed'),
  eventSchema('feedback.merged'),
  eventSchema('feedback.deleted'),
  eventSchema('vote.added'),
  eventSchema('vote.removed'),
  eventSchema('comment.created'),
  eventSchema('comment.updated'),
  eventSchema('comment.deleted'),
  eventSchema('user.erased'),
  eventSchema('changelog.published'),
  eventSchema('notification.created'),
  eventSchema('webhook.test'),
]);

/**
 * A webhook body whose `type` this version does not know: sent by a newer server. Its envelope
 * is checked, its `data` is not. A known type never falls back to this: a known type with a
 * broken `data` is an error, not an unknown event.
 */
export const UnknownWebhookEventSchema = z.object({
  id: IdSchema,
  type: z.string().refine((type) => !isWebhookEventType(type), { error: 'a known event type must match its own schema' }),
  timestamp: TimestampSchema,
  data: z.unknown(),
});

/** True when `type` is one this version knows. */
export function isWebhookEventType(type: string): type is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * Tells a known event from a newer server's. Needed before narrowing on `type`: an unknown event's
 * `type` is any string, so `event.type === 'vote.added'` alone cannot rule it out for the compiler.
 */
export function isKnownWebhookEvent(event: WebhookEvent | UnknownWebhookEvent): event is WebhookEvent {
  return isWebhookEventType(event.type);
}

export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;
export type WebhookEndUser = z.infer<typeof WebhookEndUserSchema>;
export type FeedbackRef = z.infer<typeof FeedbackRefSchema>;
export type NotificationChange = z.infer<typeof NotificationChangeSchema>;
export type NotificationRecipient = z.infer<typeof NotificationRecipientSchema>;
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
export type UnknownWebhookEvent = z.infer<typeof UnknownWebhookEventSchema>;
/** The event of one type, e.g. `WebhookEventOf<'vote.added'>`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
/** The `data` of one type, e.g. `WebhookEventData<'comment.created'>`. */
export type WebhookEventData<T extends WebhookEventType> = WebhookEventOf<T>['data'];
