import { GROUPED_EVENTS } from '../../domain/events/outbox.sql.js';
import { toSend } from './deliveries.sql.js';
import { WEBHOOK_JSON } from '../../domain/webhooks/endpoints.sql.js';

/**
 * Statements of pull endpoints (`feedback webhooks listen`, listener-routes.ts), each scoped to the
 * caller's project ($1) where it names an endpoint. A pull endpoint's deliveries are made by the
 * sender's fan-out like any other's, unclaimed; the sender leaves them alone (CLAIM_DUE sends `push` only) and
 * a listener claims them here, with the same rules: pending, due, not under a live claim, `skip
 * locked`, the attempt counted when claimed.
 */

/** How long a pull endpoint may go unpulled before the hourly pruning deletes it. */
export const LISTENER_IDLE_HOURS = 1;

/** $2 the URL the listener forwards to (shown, never connected to), $3 events (text[] or null), $4 format, $5 secret. */
export const CREATE_LISTENER = `insert into webhook_endpoints as w (project_id, url, events, description, format, secret, mode, last_pulled_at)
  values ($1::uuid, $2::text, $3::text[], 'feedback webhooks listen', $4::text, $5::text, 'pull', now())
  returning ${WEBHOOK_JSON} as body`;

/**
 * Marks pull endpoint $2 as pulled now: whether it is enabled, or no row (no such endpoint in the
 * project, or a push endpoint).
 */
export const TOUCH_LISTENER = `update webhook_endpoints w set last_pulled_at = now()
  where w.project_id = $1::uuid and w.id = $2::uuid and w.mode = 'pull'
  returning w.disabled_at is null as enabled`;

/**
 * Claims up to $2 due deliveries of enabled pull endpoint $1 for $3 seconds and counts the
 * attempt: what to sign and hand out, oldest event first.
 */
export const CLAIM_PULLED = `with due as (
    select d.id from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
    where d.endpoint_id = $1::uuid and w.mode = 'pull' and w.disabled_at is null
      and d.state = 'pending' and d.next_attempt_at <= now() and (d.claimed_until is null or d.claimed_until < now())
    order by d.next_attempt_at
    limit $2::int
    for update of d skip locked
  ), claimed as (
    update webhook_deliveries d set claimed_until = now() + $3::int * interval '1 second', attempts = d.attempts + 1
    from due where d.id = due.id
    returning d.id, d.attempts, d.event_id, d.endpoint_id
  )
  ${toSend('claimed', 'webhook_events')}
  order by e.created_at, c.id`;

/**
 * Takes delivery $3 of pull endpoint $2 for its report, if a pull claimed it and the claim still
 * holds: the claim ends here, so a second report of the same attempt finds nothing, and the
 * delivery is due again when the claim would have ended, should its outcome never be recorded
 * (a crash in between: it is handed out again, at least once).
 */
export const TAKE_REPORTED = `with taken as (
    update webhook_deliveries d set claimed_until = null, next_attempt_at = d.claimed_until
    from webhook_endpoints w
    where w.id = d.endpoint_id and w.project_id = $1::uuid and w.id = $2::uuid and w.mode = 'pull'
      and d.id = $3::uuid and d.state = 'pending' and d.claimed_until >= now()
    returning d.id, d.attempts, d.event_id, d.endpoint_id
  )
  ${toSend('taken', 'webhook_events')}`;

/** Deletes the pull endpoints not pulled for LISTENER_IDLE_HOURS (their listener went away); their deliveries go with them. */
export const PRUNE_LISTENERS = `delete from webhook_endpoints w
  where w.mode = 'pull' and coalesce(w.last_pulled_at, w.created_at) < now() - ${LISTENER_IDLE_HOURS} * interval '1 hour'`;

/**
 * The look of waiting pulls (pull-waiters.ts), and a pull's own before it claims: of the enabled
 * pull endpoints $1 (uuid[]), those with something to do now or later, each with its project and
 * which: `due`, a delivery due and not under a live claim (what CLAIM_PULLED takes); `outbox`,
 * events of its project still waiting for their fan-out, grouped or not (what
 * EXPAND_GROUPED_OF_PROJECT and FAN_OUT_PROJECT take); `due_in_ms`, in how many ms its next
 * pending delivery that is not due now comes due (a retry's time, or the end of a pull's claim),
 * or null, so that a waiting pull is woken then without a look in between. Each test reads an
 * index: the pending deliveries' by endpoint, the outbox's two partial ones of waiting rows.
 */
export const PULL_PROBE = `select * from (
    select w.id, w.project_id,
      exists (select 1 from webhook_deliveries d
        where d.endpoint_id = w.id and d.state = 'pending' and d.next_attempt_at <= now() and (d.claimed_until is null or d.claimed_until < now())) as due,
      exists (select 1 from webhook_events e where not e.fanned_out and e.type <> '${GROUPED_EVENTS}' and e.project_id = w.project_id)
        or exists (select 1 from webhook_events e where not e.fanned_out and e.type = '${GROUPED_EVENTS}' and e.project_id = w.project_id) as outbox,
      (select (extract(epoch from min(greatest(d.next_attempt_at, d.claimed_until + interval '1 millisecond')) - now()) * 1000)::float8
        from webhook_deliveries d
        where d.endpoint_id = w.id and d.state = 'pending' and (d.next_attempt_at > now() or d.claimed_until >= now())) as due_in_ms
    from webhook_endpoints w
    where w.id = any ($1::uuid[]) and w.mode = 'pull' and w.disabled_at is null
  ) x where x.due or x.outbox or x.due_in_ms is not null`;
