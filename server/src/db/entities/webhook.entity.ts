import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/** How an endpoint's bodies are shaped: the Standard Webhooks JSON event, or a chat's incoming-webhook message. */
export const WEBHOOK_FORMATS = ['standard', 'slack', 'discord'] as const;

/** Who moves a delivery: the server's sender POSTs it (`push`), or `feedback webhooks listen` pulls it (`pull`). */
export const WEBHOOK_MODES = ['push', 'pull'] as const;

/**
 * A project's webhook subscription: where its events go, which of them (`events` null: every
 * type), and the secret that signs them. During a rotation the previous secret signs too, until
 * `previousSecretExpiresAt`. A disabled endpoint gets no new deliveries; `disabledReason` says why
 * (an operator, a `410 Gone`, or days of failed attempts). A `pull` endpoint's deliveries are
 * never sent by the server: `feedback webhooks listen` pulls them (`lastPulledAt`), and one not
 * pulled for an hour is deleted.
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  indexes: [{ name: 'webhook_endpoints_project_id_index', properties: ['project'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    url: p.text(),
    description: p.text().nullable(),
    events: p.array().nullable(),
    format: p.enum([...WEBHOOK_FORMATS]).default('standard'),
    secret: p.text().hidden(),
    previousSecret: p.text().hidden().nullable(),
    previousSecretExpiresAt: p.datetime(3).nullable(),
    disabledAt: p.datetime(3).nullable(),
    disabledReason: p.text().nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
    updatedAt: p.datetime(3).defaultRaw('now()'),
    mode: p.enum([...WEBHOOK_MODES]).default('push'),
    lastPulledAt: p.datetime(3).nullable(),
    /** Whether the endpoint also receives comment events about the team's internal notes (docs/webhooks.md); off by default. */
    includeInternal: p.boolean().default(false),
  },
});

/**
 * One thing that happened, written in the transaction of the change it reports (the outbox), and
 * only while an enabled endpoint of its project subscribes to its type. `data` is the body's
 * `data` (sdk/src/contract/webhook-events.ts). The sender fans it out into deliveries later.
 */
export const WebhookEvent = defineEntity({
  name: 'WebhookEvent',
  tableName: 'webhook_events',
  indexes: [
    { name: 'webhook_events_waiting_index', expression: `create index "webhook_events_waiting_index" on "webhook_events" ("id") where not "fanned_out" and "type" <> 'batch'` },
    { name: 'webhook_events_grouped_index', expression: `create index "webhook_events_grouped_index" on "webhook_events" ("id") where "type" = 'batch'` },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    // No foreign key: its check was a third of an event's insert on the hot path, and every writer
    // takes the project from a row it has just read (the item's, or the key's). Projects are never
    // deleted by the server; the pruning removes an event of a project deleted by hand.
    project: p.manyToOne(Project).createForeignKeyConstraint(false),
    type: p.text(),
    data: p.json(),
    createdAt: p.datetime(3).defaultRaw('clock_timestamp()'),
    /** Whether a sender has made its deliveries (delivery/webhooks/deliveries.sql.ts); until then it waits in the outbox. */
    fannedOut: p.boolean().default(false),
  },
});

export const DELIVERY_STATES = ['pending', 'succeeded', 'failed'] as const;

/**
 * One event to one endpoint. Its id is the `webhook-id` of every attempt, retry and redelivery, so
 * a receiver can de-duplicate. A sender claims it (`claimedUntil`) before an attempt, so two
 * processes never send the same attempt; `nextAttemptAt` is when it is due.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  indexes: [
    {
      name: 'webhook_deliveries_endpoint_due_index',
      expression: `create index "webhook_deliveries_endpoint_due_index" on "webhook_deliveries" ("endpoint_id", "next_attempt_at") where "state" = 'pending'`,
    },
    { name: 'webhook_deliveries_endpoint_id_created_at_index', properties: ['endpoint', 'createdAt'] },
    { name: 'webhook_deliveries_event_id_index', properties: ['event'] },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    event: p.manyToOne(WebhookEvent).deleteRule('cascade').updateRule('cascade'),
    endpoint: p.manyToOne(WebhookEndpoint).deleteRule('cascade').updateRule('cascade'),
    state: p.enum([...DELIVERY_STATES]).default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime(3).defaultRaw('now()'),
    claimedUntil: p.datetime(3).nullable(),
    lastStatus: p.integer().nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

/** One try of a delivery: when, the answer's status (none when it failed before one), time, error, and the answer's start. */
export const WebhookAttempt = defineEntity({
  name: 'WebhookAttempt',
  tableName: 'webhook_attempts',
  indexes: [{ name: 'webhook_attempts_delivery_id_id_index', properties: ['delivery', 'id'] }],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    delivery: p.manyToOne(WebhookDelivery).deleteRule('cascade').updateRule('cascade'),
    attemptedAt: p.datetime(3).defaultRaw('clock_timestamp()'),
    statusCode: p.integer().nullable(),
    latencyMs: p.integer(),
    error: p.text().nullable(),
    response: p.text().nullable(),
  },
});

export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;
export type WebhookEvent = InferEntity<typeof WebhookEvent>;
export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;
export type WebhookAttempt = InferEntity<typeof WebhookAttempt>;
