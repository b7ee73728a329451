import { isoTimestamp } from '../../db/json.sql.js';

/**
 * Statements of the webhook endpoints' API (routes/webhooks.routes.ts), each scoped to the caller's
 * project ($1). An endpoint is shown as the contract's Webhook (WEBHOOK_JSON): never its secret,
 * which only the statements that make or rotate one return, once.
 */


/** The contract's Webhook of the row `w`, as JSON text. */
export const WEBHOOK_JSON = `json_build_object(
    'id', w.id, 'url', w.url, 'description', w.description, 'events', w.events, 'format', w.format, 'mode', w.mode,
    'enabled', w.disabled_at is null, 'disabledReason', w.disabled_reason,
    'previousSecretExpiresAt', case when w.previous_secret_expires_at > now() then ${isoTimestamp('w.previous_secret_expires_at')} end,
    'createdAt', ${isoTimestamp('w.created_at')}, 'includeInternal', w.include_internal
  )::text`;

/** $1 project, $2 url, $3 events (text[] or null), $4 description, $5 format, $6 secret, $7 include internal notes' events. */
export const CREATE_ENDPOINT = `insert into webhook_endpoints as w (project_id, url, events, description, format, secret, include_internal)
  values ($1::uuid, $2::text, $3::text[], $4::text, $5::text, $6::text, $7::boolean)
  returning ${WEBHOOK_JSON} as body`;

export const LIST_ENDPOINTS = `select coalesce(json_agg(${WEBHOOK_JSON}::json order by w.created_at, w.id), '[]')::text as body
  from webhook_endpoints w where w.project_id = $1::uuid`;

/** $2 endpoint. */
export const GET_ENDPOINT = `select ${WEBHOOK_JSON} as body from webhook_endpoints w where w.project_id = $1::uuid and w.id = $2::uuid`;

/**
 * $2 endpoint; each of $3 url, $5 description, $6 format, $7 enabled, $9 include_internal is kept when null, and
 * $4 events when $8 is false ($8: whether `events` was given, since null there means "every type").
 * Disabling records that an operator did it; enabling clears the reason.
 */
export const UPDATE_ENDPOINT = `update webhook_endpoints w set
    url = coalesce($3::text, w.url),
    events = case when $8::boolean then $4::text[] else w.events end,
    description = case when $5::text is null then w.description when $5::text = '' then null else $5::text end,
    format = coalesce($6::text, w.format),
    include_internal = coalesce($9::boolean, w.include_internal),
    disabled_at = case when $7::boolean is null then w.disabled_at when $7::boolean then null else coalesce(w.disabled_at, now()) end,
    disabled_reason = case when $7::boolean is null then w.disabled_reason when $7::boolean then null else coalesce(w.disabled_reason, 'disabled by an operator') end,
    updated_at = now()
  where w.project_id = $1::uuid and w.id = $2::uuid
  returning ${WEBHOOK_JSON} as body`;

/** $2 endpoint. Its deliveries and their attempts go with it; its events stay for other endpoints. */
export const DELETE_ENDPOINT = `delete from webhook_endpoints w where w.project_id = $1::uuid and w.id = $2::uuid returning w.id`;

/** $2 endpoint, $3 new secret, $4 seconds the current one still signs. */
export const ROTATE_SECRET = `update webhook_endpoints w set
    previous_secret = case when $4::int > 0 then w.secret end,
    previous_secret_expires_at = case when $4::int > 0 then now() + $4::int * interval '1 second' end,
    secret = $3::text, updated_at = now()
  where w.project_id = $1::uuid and w.id = $2::uuid
  returning ${WEBHOOK_JSON} as body`;

/** The contract's WebhookDelivery of the row `d` (its event `e`), with every attempt, as JSON. */
const DELIVERY_JSON = `json_build_object(
    'id', d.id, 'eventId', d.event_id, 'type', e.type, 'state', d.state, 'attempts', d.attempts,
    'nextAttemptAt', case when d.state = 'pending' then ${isoTimestamp('d.next_attempt_at')} end,
    'lastStatus', d.last_status, 'lastError', d.last_error, 'createdAt', ${isoTimestamp('d.created_at')},
    'attemptLog', coalesce((
      select json_agg(json_build_object('attemptedAt', ${isoTimestamp('a.attempted_at')}, 'statusCode', a.status_code, 'latencyMs', a.latency_ms, 'error', a.error, 'response', a.response) order by a.id)
      from webhook_attempts a where a.delivery_id = d.id
    ), '[]'::json)
  )`;

/**
 * $2 endpoint's deliveries, newest first: $3 state or null, $4 event id or null, $5 at most.
 * `found` says whether the project has that endpoint (an empty list is not a 404).
 */
export const LIST_DELIVERIES = `select exists (select 1 from webhook_endpoints w where w.project_id = $1::uuid and w.id = $2::uuid) as found,
  coalesce((
    select json_agg(x.body order by x.created_at desc, x.id desc) from (
      select d.id, d.created_at, ${DELIVERY_JSON} as body
      from webhook_deliveries d join webhook_events e on e.id = d.event_id join webhook_endpoints w on w.id = d.endpoint_id
      where w.project_id = $1::uuid and w.id = $2::uuid and ($3::text is null or d.state = $3::text) and ($4::uuid is null or d.event_id = $4::uuid)
      order by d.created_at desc, d.id desc
      limit $5::int
    ) x
  ), '[]')::text as body`;

/** One delivery $2 of the project's endpoints, as JSON text. */
export const GET_DELIVERY = `select ${DELIVERY_JSON}::text as body
  from webhook_deliveries d join webhook_events e on e.id = d.event_id join webhook_endpoints w on w.id = d.endpoint_id
  where w.project_id = $1::uuid and d.id = $2::uuid`;

/**
 * Queues delivery $2 of the project's endpoints again, now, as a new round of attempts (same
 * delivery, so the same webhook-id): the id, or no row.
 */
export const REDELIVER = `update webhook_deliveries d set state = 'pending', attempts = 0, next_attempt_at = now(), claimed_until = null
  from webhook_endpoints w where w.id = d.endpoint_id and w.project_id = $1::uuid and d.id = $2::uuid
  returning d.id`;

/** Queues again every failed delivery of endpoint $2 made since $3: one row per delivery requeued. */
export const RECOVER = `update webhook_deliveries d set state = 'pending', attempts = 0, next_attempt_at = now(), claimed_until = null
  from webhook_endpoints w
  where w.id = d.endpoint_id and w.project_id = $1::uuid and w.id = $2::uuid and d.state = 'failed' and d.created_at >= $3::timestamptz
  returning d.id`;
