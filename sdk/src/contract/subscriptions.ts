import { z } from 'zod';
import { TimestampSchema } from './common.js';
import { integerParam } from './query.js';
import { EndUserInputSchema, externalIdField } from './users.js';

// Subscriptions (docs/notifications.md, "Subscriptions"), an extension: who is told when an item
// moves. Taking part (submitting, voting, commenting) subscribes an identified end user by itself;
// these routes are the explicit choices, and the secret key's list.

/** Why an end user is subscribed: they submitted, voted, commented, or chose to. */
export const SubscriptionReasonSchema = z.enum(['submitted', 'voted', 'commented', 'chose']);

/** Body of POST /api/v1/feedback/:id/subscription: the end user, upserted as a vote's is. */
export const SubscribeRequestSchema = z.object({ endUser: EndUserInputSchema });

/** Body of the unsubscribe routes: the end user by externalId (one never seen answers 404). */
export const UnsubscribeRequestSchema = z.object({ endUserId: externalIdField('endUserId') });

/** Query of GET /api/v1/feedback/:id/subscription: the end user asked about. */
export const SubscriptionQuerySchema = z.object({ endUserId: externalIdField('endUserId') });

/** Answer of the subscription routes of one item: whether the end user is told about it now. */
export const SubscriptionStateSchema = z.object({ subscribed: z.boolean() });

/** Answer of POST /api/v1/unsubscribe: the end user left the whole project. */
export const ProjectUnsubscribeResponseSchema = z.object({ unsubscribed: z.literal(true) });

/** One subscriber of an item, as a secret key lists them. */
export const SubscriberSchema = z.object({
  externalId: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  reasons: z.array(SubscriptionReasonSchema),
  /** When they were first subscribed to the item. */
  subscribedAt: TimestampSchema,
});

/** Query of GET /api/v1/feedback/:id/subscribers: oldest subscription first. */
export const ListSubscribersQuerySchema = z.object({
  page: integerParam('page', 1, 1, 10_000_000),
  limit: integerParam('limit', 50, 1, 500),
});

/** Answer of GET /api/v1/feedback/:id/subscribers: the subscribers who are told, a page at a time. */
export const SubscriberListResponseSchema = z.object({
  items: z.array(SubscriberSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
});

export type SubscriptionReason = z.infer<typeof SubscriptionReasonSchema>;
export type SubscribeRequest = z.input<typeof SubscribeRequestSchema>;
export type UnsubscribeRequest = z.input<typeof UnsubscribeRequestSchema>;
export type SubscriptionState = z.infer<typeof SubscriptionStateSchema>;
export type Subscriber = z.infer<typeof SubscriberSchema>;
export type ListSubscribersQuery = z.input<typeof ListSubscribersQuerySchema>;
export type SubscriberList = z.infer<typeof SubscriberListResponseSchema>;
