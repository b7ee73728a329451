import { z } from 'zod';
import { labelledString, TimestampSchema } from './common.js';
import { WebhookEventTypeSchema } from './webhook-events.js';

// Webhook subscriptions (docs/webhooks.md), an operator's extension: a secret key manages them.

/** Longest webhook URL accepted. */
export const WEBHOOK_URL_MAX_LENGTH = 2_048;
/** Longest description of an endpoint. */
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
/** How long a rotated-out secret still signs, by default (a day), and at most (a week). */
export const WEBHOOK_ROTATION_GRACE_DEFAULT_SECONDS = 86_400;
export const WEBHOOK_ROTATION_GRACE_MAX_SECONDS = 7 * 86_400;

/** What an endpoint's bodies look like: Standard Webhooks JSON events, or a chat's incoming-webhook message. */
export const WebhookFormatSchema = z.enum(['standard', 'slack', 'discord'], { error: 'format must be one of: standard, slack, discord' });

const WebhookUrlSchema = labelledString('url')
  .trim()
  .min(1, { error: 'url is required' })
  .max(WEBHOOK_URL_MAX_LENGTH, { error: `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` });

/** The event types an endpoint receives: a non-empty list, or null (or absent on create) for every type. */
const EventListSchema = z
  .array(WebhookEventTypeSchema, { error: 'events must be a list of event types' })
  .min(1, { error: 'events must name at least one event type, or be null for every type' });

const DescriptionSchema = labelledString('description')
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX_LENGTH, { error: `description must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters` })
  .nullish();

/** An endpoint as the API shows it: never its secret, which is shown once, when it is made or rotated. */
export const WebhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  /** null: every event type. */
  events: z.array(z.string()).nullable(),
  format: WebhookFormatSchema,
  enabled: z.boolean(),
  /** Why it is disabled (an operator, a `410 Gone`, days of failed attempts), or null. */
  disabledReason: z.string().nullable(),
  /** Until when the previous secret also signs after a rotation, or null. */
  previousSecretExpiresAt: TimestampSchema.nullable(),
  createdAt: TimestampSchema,
});

/** Body of POST /api/v1/webhooks. */
export const CreateWebhookRequestSchema = z.object({
  url: WebhookUrlSchema,
  events: EventListSchema.nullish(),
  description: DescriptionSchema,
  format: WebhookFormatSchema.optional(),
});

/** Body of PATCH /api/v1/webhooks/:webhookId: at least one field. */
export const UpdateWebhookRequestSchema = z
  .object({
    url: WebhookUrlSchema.optional(),
    events: EventListSchema.nullable().optional(),
    description: DescriptionSchema,
    format: WebhookFormatSchema.optional(),
    enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { error: 'Give at least one of url, events, description, format or enabled' });

/** Body of POST /api/v1/webhooks/:webhookId/rotate-secret. */
export const RotateWebhookSecretRequestSchema = z.object({
  graceSeconds: z
    .number({ error: 'graceSeconds must be a number' })
    .int({ error: 'graceSeconds must be a whole number' })
    .min(0, { error: 'graceSeconds must be at least 0' })
    .max(WEBHOOK_ROTATION_GRACE_MAX_SECONDS, { error: `graceSeconds must be at most ${WEBHOOK_ROTATION_GRACE_MAX_SECONDS}` })
    .optional(),
});

export const WebhookIdParamsSchema = z.object({ webhookId: z.string() });

/** An endpoint and, once, its signing secret (`whsec_...`). */
export const WebhookWithSecretResponseSchema = z.object({ webhook: WebhookSchema, secret: z.string() });
export const WebhookResponseSchema = z.object({ webhook: WebhookSchema });
export const WebhookListResponseSchema = z.object({ items: z.array(WebhookSchema) });
export const DeleteWebhookResponseSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** One attempt of a delivery, as the log keeps it. */
export const WebhookAttemptSchema = z.object({
  attemptedAt: TimestampSchema,
  /** The answer's status, or null when the attempt failed before an answer (refused, timed out). */
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int(),
  error: z.string().nullable(),
  /** The first 2 KB of the answer's body. */
  response: z.string().nullable(),
});

/** One event to one endpoint: its `id` is the `webhook-id` of every attempt (with `msg_` before it). */
export const WebhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.string(),
  state: z.enum(['pending', 'succeeded', 'failed']),
  /** Attempts made in its current round (a redelivery starts a new round). */
  attempts: z.number().int(),
  /** When the next attempt is due, while it is pending. */
  nextAttemptAt: TimestampSchema.nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: TimestampSchema,
  /** Every attempt, oldest first. */
  attemptLog: z.array(WebhookAttemptSchema),
});

/** Query of GET /api/v1/webhooks/:webhookId/deliveries. */
export const ListWebhookDeliveriesQuerySchema = z.object({
  state: z.preprocess((value) => (value === '' ? undefined : value), z.enum(['pending', 'succeeded', 'failed'], { error: 'state must be one of: pending, succeeded, failed' }).optional()),
  eventId: z.preprocess((value) => (value === '' ? undefined : value), z.string({ error: 'eventId must be a single string' }).optional()),
  limit: z.coerce.number({ error: 'limit must be an integer between 1 and 100' }).int({ error: 'limit must be an integer between 1 and 100' }).min(1, { error: 'limit must be an integer between 1 and 100' }).max(100, { error: 'limit must be an integer between 1 and 100' }).default(20),
});

/** Body of POST /api/v1/webhooks/:webhookId/recover: every failed delivery made since then is queued again. */
export const RecoverWebhookRequestSchema = z.object({ since: z.iso.datetime({ offset: true, error: 'since must be an ISO 8601 date and time, like 2026-11-25T08:00:00Z' }) });

export const WebhookDeliveryIdParamsSchema = z.object({ deliveryId: z.string() });
export const WebhookDeliveryListResponseSchema = z.object({ items: z.array(WebhookDeliverySchema) });
export const WebhookDeliveryResponseSchema = z.object({ delivery: WebhookDeliverySchema });
export const RecoverWebhookResponseSchema = z.object({ requeued: z.number().int() });
/** What a test delivery came to: the attempt as the log keeps it. */
export const TestWebhookResponseSchema = z.object({ delivery: WebhookDeliverySchema });

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;
export type WebhookFormat = z.infer<typeof WebhookFormatSchema>;
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequestSchema>;
export type UpdateWebhookRequest = z.input<typeof UpdateWebhookRequestSchema>;
