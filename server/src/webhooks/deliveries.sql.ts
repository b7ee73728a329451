import { isoTimestamp } from '../public/json.sql.js';

/**
 * The sender's statements on `webhook_deliveries`, `webhook_attempts` and `webhook_endpoints`
 * (Migration20261125000900_webhooks). Each is its own transaction: a claim commits before the
 * attempt is sent, so a crash between the two leaves a claim that expires and a delivery that is
 * sent again (at least once; receivers de-duplicate by `webhook-id`).
 */

/** What the sender needs to send one claimed delivery. */
export interface ClaimedDelivery {
  id: string;
  /** This attempt's number, from 1. */
  attempt: number;
  endpoint_id: string;
  url: string;
  format: string;
  secret: string;
  /** The secret being rotated out, while it still signs. */
  previous_secret: string | null;
  event_id: string;
  type: string;
  timestamp: string;
  /** The event's data as JSON text. */
  data: string;
}

/**
 * Claims up to $1 due deliveries for $2 seconds and counts the attempt: pending, due, not claimed
 * by a live claim, to an enabled endpoint. `skip locked`: two senders (workers, instances) take
 * different rows, never one attempt twice.
 */
export const CLAIM_DUE = `with due as (
    select d.id from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
    where d.state = 'pending' and d.next_attempt_at <= now() and (d.claimed_until is null or d.claimed_until < now()) and w.disabled_at is null and w.mode = 'push'
    order by d.next_attempt_at
    limit $1
    for update of d skip locked
  ), claimed as (
    update webhook_deliveries d set claimed_until = now() + $2::int * interval '1 second', attempts = d.attempts + 1
    from due where d.id = due.id
    returning d.id, d.attempts, d.event_id, d.endpoint_id
  )
  ${toSend('claimed', 'webhook_events')}`;

/**
 * What a sender needs of the deliveries of `claimed` (a relation with id, attempts, event_id,
 * endpoint_id), whose events are rows of `events`.
 */
export function toSend(claimed: string, events: string): string {
  return `select c.id, c.attempts as attempt, c.endpoint_id, w.url, w.format, w.secret,
    case when w.previous_secret_expires_at > now() then w.previous_secret end as previous_secret,
    e.id as event_id, e.type, ${isoTimestamp('e.created_at')} as timestamp, e.data::text as data
  from ${claimed} c join webhook_endpoints w on w.id = c.endpoint_id join ${events} e on e.id = c.event_id`;
}

/**
 * A `webhook.test` event to endpoint $2 of project $1, with its one delivery, claimed at once by
 * the request that sends it (the fan-out trigger leaves test events alone): what to send, or no row.
 */
export const TEST_DELIVERY = `with ev as (
    insert into webhook_events (project_id, type, data)
    select w.project_id, 'webhook.test', jsonb_build_object('webhook', jsonb_build_object('id', w.id), 'message', 'A test of this endpoint, sent on request')
    from webhook_endpoints w where w.project_id = $1::uuid and w.id = $2::uuid
    returning id, type, data, created_at
  ), claimed as (
    insert into webhook_deliveries (event_id, endpoint_id, attempts, claimed_until)
    select ev.id, $2::uuid, 1, now() + interval '1 minute' from ev
    returning id, attempts, event_id, endpoint_id
  )
  ${toSend('claimed', 'ev')}`;

/**
 * One attempt's record and what follows it, in one statement, so a crash cannot keep the one
 * without the other: $1 delivery, $2 status code or null, $3 latency ms, $4 the attempt's error
 * or null, $5 the answer's start or null; then the delivery's new $6 state (`pending` for a retry
 * due in $8 ms, `succeeded` or `failed`) and $7 its last error.
 */
export const RECORD_OUTCOME = `with attempt as (
    insert into webhook_attempts (delivery_id, status_code, latency_ms, error, response) values ($1::uuid, $2::int, $3::int, $4::text, $5::text)
  )
  update webhook_deliveries set state = $6::text, claimed_until = null, last_status = $2::int, last_error = $7::text,
    next_attempt_at = case when $6::text = 'pending' then now() + $8::int * interval '1 millisecond' else next_attempt_at end
  where id = $1::uuid`;

/**
 * Disables endpoint $1 with reason $2, unless it is disabled already; with $3 true only when no
 * delivery to it has succeeded since $4 (an endpoint that failed every attempt for days).
 */
export const DISABLE_ENDPOINT = `update webhook_endpoints w set disabled_at = now(), disabled_reason = $2, updated_at = now()
  where w.id = $1 and w.disabled_at is null
    and (not $3::boolean or not exists (
      select 1 from webhook_deliveries d where d.endpoint_id = w.id and d.state = 'succeeded' and d.created_at >= $4::timestamptz
    ))`;

/** How long the log keeps an event, its deliveries and their attempts once none is pending. */
export const WEBHOOK_LOG_DAYS = 30;

/** Deletes events older than WEBHOOK_LOG_DAYS with no pending delivery; their deliveries and attempts go with them. */
export const PRUNE_LOG = `delete from webhook_events e
  where e.created_at < now() - ${WEBHOOK_LOG_DAYS} * interval '1 day'
    and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.state = 'pending')`;
