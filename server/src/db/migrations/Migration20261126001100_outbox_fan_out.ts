import { Migration } from '@mikro-orm/migrations';
import { FAN_OUT, TOGGLE_VOTES_WITH_EVENTS } from './Migration20261125000900_webhooks.js';

/**
 * The outbox's fan-out moves from the writer to the sender (docs/webhooks.md, "What a subscription
 * costs"). Before, a row trigger on `webhook_events` inserted one delivery per subscribed endpoint
 * inside the writing transaction: a vote with a subscription wrote two rows into six indexes and
 * ran a plpgsql trigger per event, on the request's own time. Now the writer inserts only the event
 * (marked `fanned_out = false`, so it enters a small partial index), and the sender turns waiting
 * events into deliveries in batches, outside requests (webhooks/deliveries.sql.ts, FAN_OUT_AND_CLAIM).
 *
 * An event is still written in its change's own transaction, so a change that rolls back emits
 * nothing, and one that commits waits in the outbox until a sender fans it out, even across a crash.
 * Events written before this migration were fanned out by the trigger: the column's first default
 * (true) marks them so, at no cost of a table rewrite, and new rows then default to false.
 *
 * Also, to make an event cheaper still for its writer and for the sender:
 * - `webhook_events` loses its `created_at` index: the time-ordered ids serve the pruning
 *   (`time_ordered_uuid_floor`, the smallest id of a millisecond), so an event enters two indexes;
 * - and its foreign key to `projects`, whose check was a third of an event's insert (measured: about
 *   6 of 17 µs of backend CPU per event, in batches of 32): every writer takes the project from a
 *   row it has just read, and projects are never deleted by the server;
 * - a batch statement (of toggles, of submissions) writes its events as one grouped row, which the
 *   sender expands into the events before their fan-out: a batch of 64 toggles inserts one row, not
 *   64 (000900's `toggle_votes`, with that and its voters' externalIds as given changed);
 * - the due deliveries are found endpoint by endpoint (CLAIM_DUE, and a listener's pull), so that
 *   neither scans past the other's: the due index starts with the endpoint.
 */
/** The smallest time-ordered id of `p_at`'s millisecond: ids made earlier are below it, later ones not. */
const TIME_ORDERED_UUID_FLOOR = `create function "time_ordered_uuid_floor"(p_at timestamptz) returns uuid language sql immutable parallel safe as $$
  select encode(substring(int8send(floor(extract(epoch from p_at) * 1000)::bigint) from 3) || '\\x00000000000000000000'::bytea, 'hex')::uuid
$$;`;

/**
 * 000900's batch of toggles, writing its toggles' events as one grouped row (`type` 'batch', `data`
 * the events as `[{type, data}]`), each with its voter's externalId as given instead of a lookup
 * per event. The sender expands a grouped row into its events before their fan-out
 * (webhooks/deliveries.sql.ts, EXPAND_GROUPED): a batch of 64 toggles inserts one row, not 64.
 */
const TOGGLE_VOTES_GROUPED_EVENTS = patched(TOGGLE_VOTES_WITH_EVENTS, [
  [`e_users uuid[] := '{}';`, `e_external_ids text[] := '{}';`],
  [`e_users := e_users || v_user;`, `e_external_ids := e_external_ids || r.external_id;`],
  [
    /insert into webhook_events \(project_id, type, data\)\n    select p_project, case when t\.added[^;]*;/,
    `insert into webhook_events (project_id, type, data)
    select p_project, 'batch', jsonb_agg(jsonb_build_object(
      'type', case when t.added then 'vote.added' else 'vote.removed' end,
      'data', jsonb_build_object('feedback', jsonb_build_object('id', t.item, 'voteCount', t.count),
        'endUser', case when t.external_id is null then null else jsonb_build_object('externalId', t.external_id) end)
    ) order by t.n)
    from unnest(e_items, e_added, e_counts, e_external_ids) with ordinality as t(item, added, count, external_id, n);`,
  ],
]);

/** `text` with each change made, each of which must find its place (a function is replaced whole, so it is built from the one before). */
function patched(text: string, changes: [string | RegExp, string][]): string {
  return changes.reduce((result, [from, to]) => {
    const next = result.replace(from, to);
    if (next === result) throw new Error(`Migration20261126001100: no place for ${String(from)}`);
    return next;
  }, text);
}

export class Migration20261126001100OutboxFanOut extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop trigger "webhook_events_fan_out" on "webhook_events";`);
    this.addSql(`drop function "webhook_fan_out"();`);
    this.addSql(`alter table "webhook_events" add column "fanned_out" boolean not null default true;`);
    this.addSql(`alter table "webhook_events" alter column "fanned_out" set default false;`);
    // Two small indexes, one per question of the sender, in id (time) order, so neither scan passes
    // over the other's rows: which events wait for their fan-out, and which grouped rows wait to be
    // expanded (they go then).
    this.addSql(`create index "webhook_events_waiting_index" on "webhook_events" ("id") where not "fanned_out" and "type" <> 'batch';`);
    this.addSql(`create index "webhook_events_grouped_index" on "webhook_events" ("id") where "type" = 'batch';`);
    this.addSql(`drop index "webhook_deliveries_due_index";`);
    this.addSql(`create index "webhook_deliveries_endpoint_due_index" on "webhook_deliveries" ("endpoint_id", "next_attempt_at") where "state" = 'pending';`);
    this.addSql(`drop index "webhook_events_created_at_index";`);
    this.addSql(`alter table "webhook_events" drop constraint "webhook_events_project_id_foreign";`);
    this.addSql(TIME_ORDERED_UUID_FLOOR);
    this.addSql(TOGGLE_VOTES_GROUPED_EVENTS);
  }

  override async down(): Promise<void> {
    this.addSql(TOGGLE_VOTES_WITH_EVENTS);
    this.addSql(`drop function "time_ordered_uuid_floor"(timestamptz);`);
    this.addSql(`create index "webhook_events_created_at_index" on "webhook_events" ("created_at");`);
    this.addSql(`delete from "webhook_events" e where not exists (select 1 from "projects" p where p.id = e.project_id);`);
    this.addSql(`alter table "webhook_events" add constraint "webhook_events_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`drop index "webhook_deliveries_endpoint_due_index";`);
    this.addSql(`create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "state" = 'pending';`);
    // Grouped rows become their events, and waiting events get their deliveries now, as the
    // trigger would have given them.
    this.addSql(`insert into webhook_events (project_id, type, data, created_at)
      select g.project_id, x.event->>'type', x.event->'data', g.created_at
      from webhook_events g cross join lateral jsonb_array_elements(g.data) as x(event) where g.type = 'batch';`);
    this.addSql(`delete from webhook_events where type = 'batch';`);
    this.addSql(`insert into webhook_deliveries (event_id, endpoint_id, created_at)
      select e.id, w.id, e.created_at from webhook_events e join webhook_endpoints w on w.project_id = e.project_id
      where not e.fanned_out and e.type <> 'webhook.test' and w.disabled_at is null and (w.events is null or e.type = any (w.events));`);
    this.addSql(`drop index "webhook_events_waiting_index";`);
    this.addSql(`drop index "webhook_events_grouped_index";`);
    this.addSql(`alter table "webhook_events" drop column "fanned_out";`);
    this.addSql(FAN_OUT);
    this.addSql(`create trigger "webhook_events_fan_out" after insert on "webhook_events" for each row execute function "webhook_fan_out"();`);
  }
}
