import { Migration } from '@mikro-orm/migrations';

/**
 * Notifications (issue 40, docs/notifications.md): the outbox of what subscribers are told. One row
 * per change and recipient, written in the transaction of the change by `notify_subscribers`, a
 * single INSERT ... SELECT from `subscriptions` (never a loop in Node: an item with 100,000
 * subscribers is one statement). The same call writes `notification.created` webhook events, at
 * most 500 recipients each, when an endpoint of the project subscribes to that type.
 *
 * The row doubles as the mail log: `mail_state` starts `pending` for a recipient with an address,
 * `skipped` without one (the webhook route serves them), `suppressed` for an address a server
 * refused for good. The mail sender (delivery/mail/mail-sender.ts) claims due rows with a lease
 * (`claimed_until`, FOR UPDATE SKIP LOCKED), so several machines send each row once.
 * `projects.notify_digest` makes a project's mail one daily digest instead of the coalescing
 * window; `end_users.email_suppressed_at` records a permanent refusal of the address.
 */
export class Migration0023Notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "notifications" ("id" uuid not null default time_ordered_uuid(), "project_id" uuid not null, "change_id" uuid not null, "end_user_id" uuid not null, "feedback_id" uuid null, "kind" text not null, "data" jsonb not null, "created_at" timestamptz(3) not null default now(), "mail_state" text not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz(3) not null default now(), "claimed_until" timestamptz(3) null, "last_error" text null, "sent_at" timestamptz(3) null, primary key ("id"));`);
    // The sender's questions read pending rows only: "whose mail is due?" (the oldest first, by
    // time, a few at a time even under a backlog of 100,000) and "what else waits for them?".
    this.addSql(`create index "notifications_pending_created_at_index" on "notifications" ("created_at") where "mail_state" = 'pending';`);
    this.addSql(`create index "notifications_pending_end_user_id_index" on "notifications" ("end_user_id") where "mail_state" = 'pending';`);
    this.addSql(`create index "notifications_project_id_created_at_index" on "notifications" ("project_id", "created_at");`);
    this.addSql(`alter table "notifications" add constraint "notifications_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "notifications" add constraint "notifications_end_user_id_foreign" foreign key ("end_user_id") references "end_users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "notifications" add constraint "notifications_feedback_id_foreign" foreign key ("feedback_id") references "feedback" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "notifications" add constraint "notifications_kind_check" check ("kind" in ('status_changed', 'team_reply', 'merged', 'shipped'));`);
    this.addSql(`alter table "notifications" add constraint "notifications_mail_state_check" check ("mail_state" in ('pending', 'sent', 'failed', 'suppressed', 'skipped'));`);
    this.addSql(`alter table "projects" add column "notify_digest" boolean not null default false;`);
    this.addSql(`alter table "end_users" add column "email_suppressed_at" timestamptz(3) null;`);

    // Everyone subscribed to any of `p_items` (each once: a changelog entry shipping several items
    // tells a person once), minus explicit unsubscribes and the actor, told of `p_change`. Who is
    // told is domain/subscriptions/reasons.ts's subscriptionInForce: a reason left, no unsubscribe from
    // the item, and none from the whole project unless the person chose this item afterwards. A
    // join, not `u.id in (…)`: the rule reads both rows, and a subquery that names the user's row
    // would run once per end user of the project.
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
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists "notify_subscribers"(uuid, uuid[], uuid, text, jsonb, uuid);`);
    this.addSql(`alter table "end_users" drop column if exists "email_suppressed_at";`);
    this.addSql(`alter table "projects" drop column if exists "notify_digest";`);
    this.addSql(`drop table if exists "notifications" cascade;`);
  }
}
