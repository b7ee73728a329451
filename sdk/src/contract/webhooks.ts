import { z } from 'zod';
import { labelledString, TimestampSchema } from './common.js';
import { WebhookEventTypeSchema } from './webhook-events.js';

// Webhook subscriptions (docs/webhooks.md), an operator's extension: a secret key manages them.

/** Longest webhook URL accepted. */
export const WEBHOOK_URL_MAX_LENGTH = 2_048;
/** How much of a receiver's answer the delivery log keeps (an attempt's `response`): the server's and a listener's alike. */
export const WEBHOOK_RESPONSE_EXCERPT_CHARS = 2_048;
/** Longest description of an endpoint. */
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
/** How long a rotated-out secret still signs, by default (a day), and at most (a week). */
export const WEBHOOK_ROTATION_GRACE_DEFAULT_SECONDS = 86_400;
export const WEBHOOK_ROTATION_GRACE_MAX_SECONDS = 7 * 86_400;

/** What an endpoint's bodies look like: Standard Webhooks JSON events, or a chat's incoming-webhook message. */
export const WebhookFormatSchema = z.enum(['standard', 'slack', 'discord'], { error: 'format must be one of: standard, slack, discord' });

/**
 * Who moves an endpoint's deliveries: `push`, the server POSTs each one to its URL; `pull`,
 * `feedback webhooks listen` pulls them and forwards them on the developer's machine (the server
 * never connects to a pull endpoint's URL).
 */
export const WebhookModeSchema = z.enum(['push', 'pull']);

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
  mode: WebhookModeSchema,
  enabled: z.boolean(),
  /** Why it is disabled (an operator, a `410 Gone`, days of failed attempts), or null. */
  disabledReason: z.string().nullable(),
  /** Until when the previous secret also signs after a rotation, or null. */
  previousSecretExpiresAt: TimestampSchema.nullable(),
  createdAt: TimestampSchema,
  /** Whether the endpoint also receives `comment.*` events about the team's internal notes (off by default). */
  includeInternal: z.boolean(),
});

/** Body of POST /api/v1/webhooks. */
export const CreateWebhookRequestSchema = z.object({
  url: WebhookUrlSchema,
  events: EventListSchema.nullish(),
  description: DescriptionSchema,
  format: WebhookFormatSchema.optional(),
  /** Also send `comment.*` events about internal notes (the team's private notes) to this endpoint. */
  includeInternal: z.boolean({ error: 'includeInternal must be true or false' }).optional(),
});

/** Body of PATCH /api/v1/webhooks/:webhookId: at least one field. */
export const UpdateWebhookRequestSchema = z
  .object({
    url: WebhookUrlSchema.optional(),
    events: EventListSchema.nullable().optional(),
    description: DescriptionSchema,
    format: WebhookFormatSchema.optional(),
    enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
    includeInternal: z.boolean({ error: 'includeInternal must be true or false' }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { error: 'Give at least one of url, events, description, format, enabled or includeInternal' });

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

// Pull endpoints (`feedback webhooks listen`, docs/webhooks.md "Receiving on your own machine").

/** The longest a pull waits for a due delivery (below the 30 s proxies and the SDK commonly allow). */
export const WEBHOOK_PULL_WAIT_MAX_SECONDS = 25;
/** Deliveries one pull hands out at most, and by default. */
export const WEBHOOK_PULL_LIMIT_MAX = 100;
export const WEBHOOK_PULL_LIMIT_DEFAULT = 20;
/**
 * How long a pulled delivery stays the listener's: reported within this, its outcome is recorded;
 * after it the delivery is handed out again (at least once, same webhook-id). It outlasts a batch
 * of the CLI's forwards, a few at a time, each of at most 15 s.
 */
export const WEBHOOK_PULL_CLAIM_SECONDS = 120;

/** Body of POST /api/v1/webhooks/listen. */
export const ListenWebhookRequestSchema = z.object({
  // Shown as the endpoint's url, never connected to by the server: any http(s) URL, the developer's localhost included.
  forwardTo: labelledString('forwardTo')
    .trim()
    .min(1, { error: 'forwardTo is required' })
    .max(WEBHOOK_URL_MAX_LENGTH, { error: `forwardTo must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` })
    .refine(isHttpUrl, { error: 'forwardTo must be an http:// or https:// URL' }),
  events: EventListSchema.nullish(),
  format: WebhookFormatSchema.optional(),
});

/** Body of POST /api/v1/webhooks/:webhookId/pull. */
export const PullWebhookDeliveriesRequestSchema = z.object({
  waitSeconds: wholeNumber('waitSeconds', 0, WEBHOOK_PULL_WAIT_MAX_SECONDS).default(0),
  limit: wholeNumber('limit', 1, WEBHOOK_PULL_LIMIT_MAX).default(WEBHOOK_PULL_LIMIT_DEFAULT),
});

/**
 * One delivery handed to a listener: the body and the headers to POST it with, signed exactly as
 * the server's sender signs its own attempts. Report what came of it within
 * WEBHOOK_PULL_CLAIM_SECONDS, or it is handed out again.
 */
export const PulledWebhookDeliverySchema = z.object({
  deliveryId: z.string(),
  /** This attempt's number, from 1. */
  attempt: z.number().int(),
  eventType: z.string(),
  headers: z.object({
    'webhook-id': z.string(),
    'webhook-timestamp': z.string(),
    'webhook-signature': z.string(),
    'content-type': z.literal('application/json'),
  }),
  /** The body exactly as signed: send these bytes, never a re-serialised copy. */
  body: z.string(),
});

/** The deliveries a pull claimed, oldest due first; empty when none came due while it waited. */
export const PullWebhookDeliveriesResponseSchema = z.object({ items: z.array(PulledWebhookDeliverySchema) });

/** Body of POST /api/v1/webhooks/:webhookId/deliveries/:deliveryId/outcome: what the listener's forward came to. */
export const ReportWebhookDeliveryRequestSchema = z
  .object({
    /** The receiver's status, or null when the forward failed before an answer. */
    statusCode: z
      .number({ error: 'statusCode must be an HTTP status code (100 to 599) or null' })
      .int({ error: 'statusCode must be an HTTP status code (100 to 599) or null' })
      .min(100, { error: 'statusCode must be an HTTP status code (100 to 599) or null' })
      .max(599, { error: 'statusCode must be an HTTP status code (100 to 599) or null' })
      .nullable(),
    latencyMs: wholeNumber('latencyMs', 0, 86_400_000),
    /** Why the forward failed before an answer; cut to 2 KB. */
    error: labelledString('error').nullish(),
    /** The start of the receiver's answer; the log keeps its first 2 KB. */
    response: labelledString('response').nullish(),
  })
  .refine((body) => body.statusCode !== null || (body.error ?? '') !== '', { error: 'error is required when statusCode is null (the forward failed before an answer)', path: ['error'] });

/** A delivery of one endpoint, as the path of its outcome names it. */
export const WebhookDeliveryParamsSchema = z.object({ webhookId: z.string(), deliveryId: z.string() });

/** A whole number from `min` to `max`, with a message that names the field and its range. */
function wholeNumber(label: string, min: number, max: number) {
  const error = `${label} must be a whole number from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;
export type WebhookFormat = z.infer<typeof WebhookFormatSchema>;
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequestSchema>;
export type UpdateWebhookRequest = z.input<typeof UpdateWebhookRequestSchema>;
export type WebhookMode = z.infer<typeof WebhookModeSchema>;
export type ListenWebhookRequest = z.input<typeof ListenWebhookRequestSchema>;
export type PullWebhookDeliveriesRequest = z.input<typeof PullWebhookDeliveriesRequestSchema>;
export type PulledWebhookDelivery = z.infer<typeof PulledWebhookDeliverySchema>;
export type ReportWebhookDeliveryRequest = z.input<typeof ReportWebhookDeliveryRequestSchema>;
