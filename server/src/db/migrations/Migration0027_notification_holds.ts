import { Migration } from '@mikro-orm/migrations';

/**
 * Held notifications (issue 49, docs/notifications.md, "Held while the Undo is offered"): a change
 * undone before its notifications go out sends nothing.
 *
 * The team's bulk status change offers an Undo. Its notifications are written as before (one row
 * per recipient, in the change's transaction), but the change is *held*: a row of
 * `notification_holds` per change, and no `notification.created` event yet. While the hold is
 * there the mail sender claims none of the change's rows (its claim skips the rows of a held
 * change), and no webhook endpoint is told. The machine's jobs release a hold when its time has
 * come (`release_notifications`): the hold row goes and the change's events are written from its
 * rows, in one statement; from then on it is like any other change.
 *
 * A status change that puts an item back where a held change took it from (the Undo, or any other
 * door) takes the hold instead: the hold row and the change's notifications are deleted, and the
 * move back tells nobody either. Releasing and taking back both lock the hold row with
 * `for update skip locked`, so exactly one of them wins it: a change is either told in full or
 * not at all. Any later notification about an item first releases what is held about it, so
 * nothing is told out of order (and an item has at most one hold).
 */
export class Migration0027NotificationHolds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "notification_holds" ("change_id" uuid not null, "project_id" uuid not null, "feedback_id" uuid null, "kind" text not null, "data" jsonb not null, "created_at" timestamptz(3) not null default now(), primary key ("change_id"));`);
    this.addSql(`create index "notification_holds_feedback_id_index" on "notification_holds" ("feedback_id");`);
    this.addSql(`create index "notification_holds_created_at_index" on "notification_holds" ("created_at");`);
    this.addSql(`alter table "notification_holds" add constraint "notification_holds_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "notification_holds" add constraint "notification_holds_feedback_id_foreign" foreign key ("feedback_id") references "feedback" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "notification_holds" add constraint "notification_holds_kind_check" check ("kind" in ('status_changed', 'team_reply', 'merged', 'shipped'));`);

    // Releases the holds `p_changes` (the caller has locked them): each hold row goes, and its
    // change's `notification.created` events are written as notify_subscribers writes them, from
    // the change's rows (written in the same transaction as the hold, so at the same now(): the
    // project and time index finds them), with the recipients as they are now (an end user erased
    // meanwhile is not in them), at the time of the change. Returns how many were released.
    this.addSql(`create function "release_notifications"(p_changes uuid[])
returns int language sql as $$
  with released as (
    delete from notification_holds h where h.change_id = any (p_changes)
    returning h.change_id, h.project_id, h.kind, h.data, h.created_at
  ), events as (
    insert into webhook_events (project_id, type, data, created_at)
    select r.project_id, 'notification.created', jsonb_build_object(
      'notification', jsonb_build_object('id', r.change_id, 'kind', r.kind) || r.data,
      'recipients', jsonb_agg(jsonb_build_object('externalId', n.external_id, 'email', n.email, 'name', n.name) order by n.i)), r.created_at
    from released r cross join lateral (
      select u.external_id, u.email, u.name, row_number() over (order by u.external_id) - 1 as i
      from notifications x join end_users u on u.id = x.end_user_id
      where x.project_id = r.project_id and x.created_at = r.created_at and x.change_id = r.change_id
    ) n
    where webhooks_wanted(r.project_id, 'notification.created')
    group by r.change_id, r.project_id, r.kind, r.data, r.created_at, n.i / 500
    order by r.change_id, n.i / 500
  )
  select count(*)::int from released
$$;`);

    // notify_subscribers as Migration0023 made it, and: a status change that reverses a
    // held one takes it back (nobody is told of either); what is held about the items goes out
    // first; and with p_hold the change is held (its events wait for release_notifications).
    this.addSql(`drop function "notify_subscribers"(uuid, uuid[], uuid, text, jsonb, uuid);`);
    this.addSql(`create function "notify_subscribers"(p_project uuid, p_items uuid[], p_feedback uuid, p_kind text, p_change jsonb, p_actor uuid default null, p_hold boolean default false)
returns int language plpgsql as $$
declare
  v_change uuid := time_ordered_uuid();
  v_count int;
  v_undone record;
begin
  if p_kind = 'status_changed' then
    select h.change_id, h.project_id, h.created_at into v_undone from notification_holds h
    where h.feedback_id = p_feedback and h.kind = 'status_changed'
      and h.data->>'from' = p_change->>'to' and h.data->>'to' = p_change->>'from'
    order by h.created_at desc limit 1
    for update skip locked;
    if found then
      delete from notifications n where n.project_id = v_undone.project_id and n.created_at = v_undone.created_at and n.change_id = v_undone.change_id;
      delete from notification_holds h where h.change_id = v_undone.change_id;
      return 0;
    end if;
  end if;
  perform release_notifications(array(
    select h.change_id from notification_holds h where h.feedback_id = any (p_items) order by h.change_id for update skip locked));
  with rcpt as materialized (
    select distinct u.id, u.external_id, u.email, u.name, u.email_suppressed_at
    from subscriptions s join end_users u on u.id = s.end_user_id
    where s.feedback_id = any (p_items) and s.reasons <> 0 and s.unsubscribed_at is null
      and (u.unsubscribed_at is null or s.reasons & 8 <> 0)
      and u.project_id = p_project and u.id is distinct from p_actor
  ), written as (
    insert into notifications (project_id, change_id, end_user_id, feedback_id, kind, data, mail_state)
    select p_project, v_change, r.id, p_feedback, p_kind, p_change,
      case when coalesce(r.email, '') = '' then 'skipped' when r.email_suppressed_at is not null then 'suppressed' else 'pending' end
    from rcpt r
  ), held as (
    insert into notification_holds (change_id, project_id, feedback_id, kind, data)
    select v_change, p_project, p_feedback, p_kind, p_change where p_hold and exists (select 1 from rcpt)
  ), events as (
    insert into webhook_events (project_id, type, data)
    select p_project, 'notification.created', jsonb_build_object(
      'notification', jsonb_build_object('id', v_change, 'kind', p_kind) || p_change,
      'recipients', jsonb_agg(jsonb_build_object('externalId', n.external_id, 'email', n.email, 'name', n.name) order by n.i))
    from (select r.external_id, r.email, r.name, row_number() over (order by r.external_id) - 1 as i from rcpt r) n
    where not p_hold and webhooks_wanted(p_project, 'notification.created')
    group by n.i / 500 order by n.i / 500
  )
  select count(*)::int into v_count from rcpt;
  return v_count;
end $$;`);
  }

  override async down(): Promise<void> {
    // What is still held is released first: its rows are pending mail, and its events are written.
    this.addSql(`select release_notifications(array(select change_id from notification_holds));`);
    this.addSql(`drop function if exists "notify_subscribers"(uuid, uuid[], uuid, text, jsonb, uuid, boolean);`);
    this.addSql(`create function "notify_subscribers"(p_project uuid, p_items uuid[], p_feedback uuid, p_kind text, p_change jsonb, p_actor uuid default null)
returns int language plpgsql as $$
declare
  v_change uuid := time_ordered_uuid();
  v_count int;
begin
  with rcpt as materialized (
    select distinct u.id, u.external_id, u.email, u.name, u.email_suppressed_at
    from subscriptions s join end_users u on u.id = s.end_user_id
    where s.feedback_id = any (p_items) and s.reasons <> 0 and s.unsubscribed_at is null
      and (u.unsubscribed_at is null or s.reasons & 8 <> 0)
      and u.project_id = p_project and u.id is distinct from p_actor
  ), written as (
    insert into notifications (project_id, change_id, end_user_id, feedback_id, kind, data, mail_state)
    select p_project, v_change, r.id, p_feedback, p_kind, p_change,
      case when coalesce(r.email, '') = '' then 'skipped' when r.email_suppressed_at is not null then 'suppressed' else 'pending' end
    from rcpt r
  ), events as (
    insert into webhook_events (project_id, type, data)
    select p_project, 'notification.created', jsonb_build_object(
      'notification', jsonb_build_object('id', v_change, 'kind', p_kind) || p_change,
      'recipients', jsonb_agg(jsonb_build_object('externalId', n.external_id, 'email', n.email, 'name', n.name) order by n.i))
    from (select r.external_id, r.email, r.name, row_number() over (order by r.external_id) - 1 as i from rcpt r) n
    where webhooks_wanted(p_project, 'notification.created')
    group by n.i / 500 order by n.i / 500
  )
  select count(*)::int into v_count from rcpt;
  return v_count;
end $$;`);
    this.addSql(`drop function if exists "release_notifications"(uuid[]);`);
    this.addSql(`drop table if exists "notification_holds" cascade;`);
  }
}
