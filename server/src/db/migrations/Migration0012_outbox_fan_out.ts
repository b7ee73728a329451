import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox's fan-out moves from the writer to the sender (docs/webhooks.md, "What a subscription
 * costs"). Before, a row trigger on `webhook_events` inserted one delivery per subscribed endpoint
 * inside the writing transaction: a vote with a subscription wrote two rows into six indexes and
 * ran a plpgsql trigger per event, on the request's own time. Now the writer inserts only the event
 * (marked `fanned_out = false`, so it enters a small partial index), and the sender turns waiting
 * events into deliveries in batches, outside requests (delivery/webhooks/deliveries.sql.ts, FAN_OUT_AND_CLAIM).
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
 *   64 (000900's `toggle_votes`, with that and its voters' externalIds as given changed: it is the
 *   `toggle_votes` that runs today, see server/src/db/schema.sql);
 * - the due deliveries are found endpoint by endpoint (CLAIM_DUE, and a listener's pull), so that
 *   neither scans past the other's: the due index starts with the endpoint.
 */
export class Migration0012OutboxFanOut extends Migration {
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
    // The smallest time-ordered id of `p_at`'s millisecond: ids made earlier are below it, later ones not.
    this.addSql(`create function "time_ordered_uuid_floor"(p_at timestamptz) returns uuid language sql immutable parallel safe as $$
  select encode(substring(int8send(floor(extract(epoch from p_at) * 1000)::bigint) from 3) || '\\x00000000000000000000'::bytea, 'hex')::uuid
$$;`);
    // 000900's batch of toggles, writing its toggles' events as one grouped row (`type` 'batch', `data`
    // the events as `[{type, data}]`), each with its voter's externalId as given instead of a lookup
    // per event. The sender expands a grouped row into its events before their fan-out
    // (delivery/webhooks/deliveries.sql.ts, EXPAND_GROUPED): a batch of 64 toggles inserts one row, not 64.
    this.addSql(`create or replace function "toggle_votes"(p_project uuid, p_items uuid[], p_external_ids text[], p_voter_keys text[])
returns table (idx int, user_known boolean, item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
declare
  r record;
  v_user uuid;
  v_added boolean := webhooks_wanted(p_project, 'vote.added');
  v_removed boolean := webhooks_wanted(p_project, 'vote.removed');
  e_items uuid[] := '{}';
  e_added boolean[] := '{}';
  e_counts int[] := '{}';
  e_external_ids text[] := '{}';
begin
  perform 1 from feedback f where f.id = any(p_items) and f.project_id = p_project order by f.id for key share;
  for r in
    select b.i, b.item, b.external_id, b.voter_key
    from unnest(p_items, p_external_ids, p_voter_keys) with ordinality as b(item, external_id, voter_key, i)
    order by b.item, b.i
  loop
    idx := r.i;
    item_found := null; now_voted := null; new_count := null; v_user := null;
    if r.external_id is null then
      user_known := true;
      select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
        from toggle_vote(r.item, p_project, r.voter_key, null, false) t;
    else
      select e.id into v_user from end_users e where e.project_id = p_project and e.external_id = r.external_id;
      user_known := found;
      if user_known then
        select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
          from toggle_vote(r.item, p_project, v_user::text, v_user, false) t;
      end if;
    end if;
    if item_found and ((now_voted and v_added) or (not now_voted and v_removed)) then
      e_items := e_items || r.item; e_added := e_added || now_voted; e_counts := e_counts || new_count; e_external_ids := e_external_ids || r.external_id;
    end if;
    return next;
  end loop;
  if cardinality(e_items) > 0 then
    insert into webhook_events (project_id, type, data)
    select p_project, 'batch', jsonb_agg(jsonb_build_object(
      'type', case when t.added then 'vote.added' else 'vote.removed' end,
      'data', jsonb_build_object('feedback', jsonb_build_object('id', t.item, 'voteCount', t.count),
        'endUser', case when t.external_id is null then null else jsonb_build_object('externalId', t.external_id) end)
    ) order by t.n)
    from unnest(e_items, e_added, e_counts, e_external_ids) with ordinality as t(item, added, count, external_id, n);
  end if;
end $$;`);
  }

  override async down(): Promise<void> {
    // 000900's batch, as it was.
    this.addSql(`create or replace function "toggle_votes"(p_project uuid, p_items uuid[], p_external_ids text[], p_voter_keys text[])
returns table (idx int, user_known boolean, item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
declare
  r record;
  v_user uuid;
  v_added boolean := webhooks_wanted(p_project, 'vote.added');
  v_removed boolean := webhooks_wanted(p_project, 'vote.removed');
  e_items uuid[] := '{}';
  e_added boolean[] := '{}';
  e_counts int[] := '{}';
  e_users uuid[] := '{}';
begin
  perform 1 from feedback f where f.id = any(p_items) and f.project_id = p_project order by f.id for key share;
  for r in
    select b.i, b.item, b.external_id, b.voter_key
    from unnest(p_items, p_external_ids, p_voter_keys) with ordinality as b(item, external_id, voter_key, i)
    order by b.item, b.i
  loop
    idx := r.i;
    item_found := null; now_voted := null; new_count := null; v_user := null;
    if r.external_id is null then
      user_known := true;
      select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
        from toggle_vote(r.item, p_project, r.voter_key, null, false) t;
    else
      select e.id into v_user from end_users e where e.project_id = p_project and e.external_id = r.external_id;
      user_known := found;
      if user_known then
        select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
          from toggle_vote(r.item, p_project, v_user::text, v_user, false) t;
      end if;
    end if;
    if item_found and ((now_voted and v_added) or (not now_voted and v_removed)) then
      e_items := e_items || r.item; e_added := e_added || now_voted; e_counts := e_counts || new_count; e_users := e_users || v_user;
    end if;
    return next;
  end loop;
  if cardinality(e_items) > 0 then
    insert into webhook_events (project_id, type, data)
    select p_project, case when t.added then 'vote.added' else 'vote.removed' end, jsonb_build_object('feedback', jsonb_build_object('id', t.item, 'voteCount', t.count),
      'endUser', (select jsonb_build_object('externalId', e.external_id) from end_users e where e.id = t.end_user))
    from unnest(e_items, e_added, e_counts, e_users) as t(item, added, count, end_user);
  end if;
end $$;`);
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
    // 000900's fan-out trigger, as it was.
    this.addSql(`create function "webhook_fan_out"() returns trigger language plpgsql as $$
begin
  if new.type = 'webhook.test' then
    return null;
  end if;
  insert into webhook_deliveries (event_id, endpoint_id)
  select new.id, w.id from webhook_endpoints w
  where w.project_id = new.project_id and w.disabled_at is null and (w.events is null or new.type = any (w.events));
  return null;
end $$;`);
    this.addSql(`create trigger "webhook_events_fan_out" after insert on "webhook_events" for each row execute function "webhook_fan_out"();`);
  }
}
