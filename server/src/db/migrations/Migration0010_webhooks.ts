import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks (docs/webhooks.md): endpoints, the outbox of events, one delivery per event and
 * endpoint, and the log of attempts. An event is written in the transaction of the change it
 * reports, and only while an enabled endpoint of its project subscribes to its type
 * (`webhooks_wanted`): with no subscription nothing is written. A trigger fans each event out into
 * its deliveries, so every writer (a statement of the hot path, the vote function, an operator
 * service) only inserts the event.
 */
export class Migration0010Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhook_endpoints" ("id" uuid not null default time_ordered_uuid(), "project_id" uuid not null, "url" text not null, "description" text null, "events" text[] null, "format" text not null default 'standard', "secret" text not null, "previous_secret" text null, "previous_secret_expires_at" timestamptz(3) null, "disabled_at" timestamptz(3) null, "disabled_reason" text null, "created_at" timestamptz(3) not null default now(), "updated_at" timestamptz(3) not null default now(), primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_project_id_index" on "webhook_endpoints" ("project_id");`);
    this.addSql(`create table "webhook_events" ("id" uuid not null default time_ordered_uuid(), "project_id" uuid not null, "type" text not null, "data" jsonb not null, "created_at" timestamptz(3) not null default clock_timestamp(), primary key ("id"));`);
    this.addSql(`create index "webhook_events_created_at_index" on "webhook_events" ("created_at");`);
    this.addSql(`create table "webhook_deliveries" ("id" uuid not null default time_ordered_uuid(), "event_id" uuid not null, "endpoint_id" uuid not null, "state" text not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz(3) not null default now(), "claimed_until" timestamptz(3) null, "last_status" int null, "last_error" text null, "created_at" timestamptz(3) not null default now(), primary key ("id"));`);
    // The sender's question, "what is due?", reads pending deliveries only, by time.
    this.addSql(`create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") where "state" = 'pending';`);
    this.addSql(`create index "webhook_deliveries_endpoint_id_created_at_index" on "webhook_deliveries" ("endpoint_id", "created_at");`);
    this.addSql(`create index "webhook_deliveries_event_id_index" on "webhook_deliveries" ("event_id");`);
    this.addSql(`create table "webhook_attempts" ("id" bigserial primary key, "delivery_id" uuid not null, "attempted_at" timestamptz(3) not null default clock_timestamp(), "status_code" int null, "latency_ms" int not null, "error" text null, "response" text null);`);
    this.addSql(`create index "webhook_attempts_delivery_id_id_index" on "webhook_attempts" ("delivery_id", "id");`);

    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_format_check" check ("format" in ('standard', 'slack', 'discord'));`);
    this.addSql(`alter table "webhook_events" add constraint "webhook_events_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_foreign" foreign key ("event_id") references "webhook_events" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_state_check" check ("state" in ('pending', 'succeeded', 'failed'));`);
    this.addSql(`alter table "webhook_attempts" add constraint "webhook_attempts_delivery_id_foreign" foreign key ("delivery_id") references "webhook_deliveries" ("id") on update cascade on delete cascade;`);

    // Whether an enabled endpoint of the project subscribes to the type: the one guard of every event write.
    this.addSql(`create function "webhooks_wanted"(p_project uuid, p_type text) returns boolean language sql stable as $$
  select exists (
    select 1 from webhook_endpoints w
    where w.project_id = p_project and w.disabled_at is null and (w.events is null or p_type = any (w.events))
  )
$$;`);
    // Each event becomes one pending delivery per enabled endpoint that subscribes to it, in the
    // event's transaction. A `webhook.test` goes only to the endpoint that asked for it, which makes
    // its delivery itself.
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
    // An item as events show it (the SDK's FeedbackRef): built from the row, so a statement can pass the row it just inserted.
    this.addSql(`create function "webhook_feedback"(f feedback, p_votes int, p_comments int, p_external_id text) returns jsonb language sql immutable as $$
  select jsonb_build_object(
    'id', f.id, 'title', f.title, 'type', f.type, 'status', f.status,
    'voteCount', p_votes, 'commentCount', p_comments,
    'createdAt', to_char(f.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'endUser', case when p_external_id is null then null else jsonb_build_object('externalId', p_external_id) end
  )
$$;`);

    // A new argument makes a new function: the old one goes, or calls with four would be ambiguous.
    this.addSql(`drop function "toggle_vote"(uuid, uuid, text, uuid);`);
    // 000800's toggle, which now also writes `vote.added` or `vote.removed`: the voter's externalId,
    // never an anonymous voter's key. `p_events` says whether to: null (a toggle alone) asks
    // `webhooks_wanted`; a batch passes false and writes its toggles' events in one insert itself.
    this.addSql(`create function "toggle_vote"(p_item uuid, p_project uuid, p_voter text, p_end_user uuid, p_events boolean default null)
returns table (item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
declare
  v_count int;
  v_type text;
begin
  perform 1 from feedback f where f.id = p_item and f.project_id = p_project for key share;
  if not found then
    return query select false, false, 0;
    return;
  end if;
  perform 1 from feedback_counters c where c.feedback_id = p_item for no key update;
  loop
    insert into votes (feedback_id, voter_key, end_user_id) values (p_item, p_voter, p_end_user)
    on conflict (feedback_id, voter_key) do nothing;
    if found then
      update feedback_counters c set vote_count = c.vote_count + 1 where c.feedback_id = p_item returning c.vote_count into v_count;
      v_type := 'vote.added';
      exit;
    end if;
    delete from votes v where v.feedback_id = p_item and v.voter_key = p_voter;
    if found then
      update feedback_counters c set vote_count = c.vote_count - 1 where c.feedback_id = p_item returning c.vote_count into v_count;
      v_type := 'vote.removed';
      exit;
    end if;
  end loop;
  if coalesce(p_events, webhooks_wanted(p_project, v_type)) then
    insert into webhook_events (project_id, type, data) values (p_project, v_type, jsonb_build_object('feedback', jsonb_build_object('id', p_item, 'voteCount', v_count),
      'endUser', (select jsonb_build_object('externalId', e.external_id) from end_users e where e.id = p_end_user)));
  end if;
  return query select true, v_type = 'vote.added', v_count;
end $$;`);
    // 000800's batch, which asks `webhooks_wanted` once per batch instead of once per toggle, and
    // writes the events of all its toggles in one insert after them. (Replaced since by 001100's:
    // server/src/db/schema.sql has the function as it runs today.)
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
  }

  override async down(): Promise<void> {
    this.addSql(`drop function "toggle_vote"(uuid, uuid, text, uuid, boolean);`);
    // 000800's toggle and batch, as they were.
    this.addSql(`create or replace function "toggle_vote"(p_item uuid, p_project uuid, p_voter text, p_end_user uuid)
returns table (item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
begin
  perform 1 from feedback f where f.id = p_item and f.project_id = p_project for key share;
  if not found then
    return query select false, false, 0;
    return;
  end if;
  perform 1 from feedback_counters c where c.feedback_id = p_item for no key update;
  loop
    insert into votes (feedback_id, voter_key, end_user_id) values (p_item, p_voter, p_end_user)
    on conflict (feedback_id, voter_key) do nothing;
    if found then
      return query update feedback_counters c set vote_count = c.vote_count + 1 where c.feedback_id = p_item returning true, true, c.vote_count;
      return;
    end if;
    delete from votes v where v.feedback_id = p_item and v.voter_key = p_voter;
    if found then
      return query update feedback_counters c set vote_count = c.vote_count - 1 where c.feedback_id = p_item returning true, false, c.vote_count;
      return;
    end if;
  end loop;
end $$;`);
    this.addSql(`create or replace function "toggle_votes"(p_project uuid, p_items uuid[], p_external_ids text[], p_voter_keys text[])
returns table (idx int, user_known boolean, item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
declare
  r record;
  v_user uuid;
begin
  perform 1 from feedback f where f.id = any(p_items) and f.project_id = p_project order by f.id for key share;
  for r in
    select b.i, b.item, b.external_id, b.voter_key
    from unnest(p_items, p_external_ids, p_voter_keys) with ordinality as b(item, external_id, voter_key, i)
    order by b.item, b.i
  loop
    idx := r.i;
    item_found := null; now_voted := null; new_count := null;
    if r.external_id is null then
      user_known := true;
      select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
        from toggle_vote(r.item, p_project, r.voter_key, null) t;
    else
      select e.id into v_user from end_users e where e.project_id = p_project and e.external_id = r.external_id;
      user_known := found;
      if user_known then
        select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
          from toggle_vote(r.item, p_project, v_user::text, v_user) t;
      end if;
    end if;
    return next;
  end loop;
end $$;`);

    this.addSql(`drop function if exists "webhook_feedback"(feedback, int, int, text);`);
    this.addSql(`drop table if exists "webhook_attempts" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhook_events" cascade;`);
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
    this.addSql(`drop function if exists "webhook_fan_out"();`);
    this.addSql(`drop function if exists "webhooks_wanted"(uuid, text);`);
  }
}
