import { isoTimestamp } from '../../db/json.sql.js';
import { GROUPED_EVENTS } from '../../domain/events/outbox.sql.js';

/**
 * The sender's statements on `webhook_deliveries`, `webhook_attempts` and `webhook_endpoints`
 * (Migration0010_webhooks). Each is its own transaction: a claim commits before the
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
 * The fan-out: events that wait in the outbox (`waiting`: a relation of their ids, locked) get one
 * delivery per enabled endpoint of their project that subscribes to their type and existed when
 * the event was written, and are marked fanned out. An event about an internal note (the team's
 * private note: `data.comment.internal`) goes only to endpoints that include them. With `claimSeconds` (a parameter's text) the
 * push endpoints' deliveries are made already claimed for their first attempt; a pull endpoint's
 * are always left unclaimed, for its listener (listeners.sql.ts).
 */
function fanOut(waiting: string, claimSeconds: string | null): string {
  const claims = claimSeconds === null ? '0, null' : `push::int, case when push then now() + ${claimSeconds}::int * interval '1 second' end`;
  return `waiting as (${waiting}), fanned as (
    update webhook_events e set fanned_out = true from waiting where e.id = waiting.id
    returning e.id, e.project_id, e.type, e.data, e.created_at
  ), made as (
    insert into webhook_deliveries (event_id, endpoint_id, created_at, attempts, claimed_until)
    select f.id, w.id, f.created_at, ${claims}
    from fanned f join webhook_endpoints w on w.project_id = f.project_id, lateral (select w.mode = 'push' as push) m
    where w.disabled_at is null and (w.events is null or f.type = any (w.events)) and w.created_at <= f.created_at
      and (w.include_internal or not coalesce((f.data->'comment'->>'internal')::boolean, false))
    returning id, attempts, event_id, endpoint_id
  )`;
}

/**
 * Expands up to $1 grouped rows (outbox.sql.ts, GROUPED_EVENTS) that wait, oldest first, into
 * their events, which then wait for their fan-out like any other; the grouped row goes. One
 * statement: a crash keeps the group or its events, never neither. `and_project` narrows it to
 * project $2 (a listener's pull). One row: how many events it made.
 */
function expandGrouped(andProject: boolean): string {
  return `with grouped as (
    select e.id, e.project_id, e.data, e.created_at from webhook_events e
    where not e.fanned_out and e.type = '${GROUPED_EVENTS}'${andProject ? ' and e.project_id = $2::uuid' : ''}
    order by e.id limit $1 for update skip locked
  ), expanded as (
    insert into webhook_events (project_id, type, data, created_at)
    select g.project_id, x.event->>'type', x.event->'data', g.created_at
    from grouped g cross join lateral jsonb_array_elements(g.data) with ordinality as x(event, n)
    order by g.id, x.n
    returning 1
  ), gone as (
    delete from webhook_events e using grouped g where e.id = g.id
  )
  select count(*)::int as events from expanded`;
}

export const EXPAND_GROUPED = expandGrouped(false);
/** EXPAND_GROUPED for project $2 alone. */
export const EXPAND_GROUPED_OF_PROJECT = expandGrouped(true);

/**
 * The sender's fan-out: up to $1 waiting events, oldest first, with their push deliveries claimed
 * for $2 seconds, so a fresh event costs no second statement before its first attempt (a sender
 * that dies before sending leaves claims that expire, and CLAIM_DUE sends them then). `skip
 * locked`: two senders fan out different events, so no event gets its deliveries twice. The first
 * column, `events_fanned`, counts the events fanned out (some may have had no endpoint left): with
 * no delivery claimed there is one row, whose other columns are null.
 */
export const FAN_OUT_AND_CLAIM = `with ${fanOut(`select e.id from webhook_events e where not e.fanned_out and e.type <> '${GROUPED_EVENTS}' order by e.id limit $1 for update skip locked`, '$2')},
  deliveries as (
    ${toSend('(select * from made where attempts > 0)', 'fanned')}
  )
  select (select count(*) from fanned)::int as events_fanned, d.* from (select) as one left join deliveries d on true`;

/**
 * A listener's fan-out: the events of project $1 that wait (a thousand at most), so that a pull sees an event as soon
 * as it is written, not at the sender's next turn; every delivery is left unclaimed (the sender
 * claims the push ones as due). One row: how many events were fanned out.
 */
export const FAN_OUT_PROJECT = `with ${fanOut(`select e.id from webhook_events e where not e.fanned_out and e.type <> '${GROUPED_EVENTS}' and e.project_id = $1::uuid order by e.id limit 1000 for update skip locked`, null)}
  select count(*)::int as events_fanned from fanned`;

/**
 * Claims up to $1 due deliveries for $2 seconds and counts the attempt: pending, due, not claimed
 * by a live claim, to an enabled push endpoint (retries, redeliveries, and claims that expired).
 * Read endpoint by endpoint (the due index starts with the endpoint), so that the due deliveries of
 * a pull endpoint, or of a disabled one, are never scanned past: a listener that was killed may
 * leave an hour of them until the pruning.
 * `skip locked`: two senders (workers, instances) take different rows, never one attempt twice.
 */
export const CLAIM_DUE = `with due as (
    select x.id from webhook_endpoints w cross join lateral (
      select d.id, d.next_attempt_at from webhook_deliveries d
      where d.endpoint_id = w.id and d.state = 'pending' and d.next_attempt_at <= now() and (d.claimed_until is null or d.claimed_until < now())
      order by d.next_attempt_at
      limit $1
      for update of d skip locked
    ) x
    where w.disabled_at is null and w.mode = 'push'
    order by x.next_attempt_at
    limit $1
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
 * the request that sends it (the event is born fanned out: no other endpoint gets it): what to
 * send, or no row.
 */
export const TEST_DELIVERY = `with ev as (
    insert into webhook_events (project_id, type, fanned_out, data)
    select w.project_id, 'webhook.test', true, jsonb_build_object('webhook', jsonb_build_object('id', w.id), 'message', 'A test of this endpoint, sent on request')
    from webhook_endpoints w where w.project_id = $1::uuid and w.id = $2::uuid
    returning id, type, data, created_at
  ), claimed as (
    insert into webhook_deliveries (event_id, endpoint_id, attempts, claimed_until)
    select ev.id, $2::uuid, 1, now() + interval '1 minute' from ev
    returning id, attempts, event_id, endpoint_id
  )
  ${toSend('claimed', 'ev')}`;

/**
 * Attempts' records and what follows each, for a batch of deliveries in one statement, so a crash
 * cannot keep an attempt without its delivery's next state or the other way round. Per delivery,
 * in parallel arrays: $1 delivery, $2 when the attempt began, $3 status code or null, $4 latency
 * ms, $5 the attempt's error or null, $6 the answer's start or null; then the delivery's new $7
 * state (`pending` for a retry due in $9 ms, `succeeded` or `failed`) and $8 its last error. A
 * delivery deleted meanwhile (its endpoint was) is passed over: the lock finds it gone. So is an
 * attempt recorded already (one of its delivery's attempts began at that very millisecond): a
 * record sent again, after a failure that left it unknown whether the first one committed, writes
 * nothing twice.
 */
export const RECORD_OUTCOMES = `with outcome as (
    select * from unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[])
      as o(delivery_id, attempted_at, status_code, latency_ms, error, response, state, last_error, retry_ms)
  ), live as (
    select d.id from webhook_deliveries d join outcome o on o.delivery_id = d.id
    where not exists (select 1 from webhook_attempts a where a.delivery_id = d.id and a.attempted_at = o.attempted_at)
    order by d.id for update of d
  ), logged as (
    insert into webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, error, response)
    select o.delivery_id, o.attempted_at, o.status_code, o.latency_ms, o.error, o.response from outcome o join live on live.id = o.delivery_id
  )
  update webhook_deliveries d set state = o.state, claimed_until = null, last_status = o.status_code, last_error = o.last_error,
    next_attempt_at = case when o.state = 'pending' then now() + o.retry_ms * interval '1 millisecond' else d.next_attempt_at end
  from outcome o join live on live.id = o.delivery_id
  where d.id = o.delivery_id`;

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

/**
 * Deletes events older than WEBHOOK_LOG_DAYS with no pending delivery; their deliveries and
 * attempts go with them. The age is read from the time-ordered id, on the primary key, so no
 * index on the time has to be kept up by every event's writer.
 */
export const PRUNE_LOG = `delete from webhook_events e
  where e.id < time_ordered_uuid_floor(now() - ${WEBHOOK_LOG_DAYS} * interval '1 day')
    and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.state = 'pending')`;
