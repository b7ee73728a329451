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

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookFormat = z.infer<typeof WebhookFormatSchema>;
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequestSchema>;
export type UpdateWebhookRequest = z.input<typeof UpdateWebhookRequestSchema>;
