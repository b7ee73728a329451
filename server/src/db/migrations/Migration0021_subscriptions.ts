import { Migration } from '@mikro-orm/migrations';

/**
 * Subscriptions (issue 40, docs/notifications.md): who is told when an item moves. One row per
 * (item, end user); `reasons` says why the person is subscribed, as bits, so that taking back one
 * reason leaves the others: 1 submitted, 2 voted, 4 commented, 8 chose to subscribe. Removing a
 * vote clears bit 2 and deletes the row only when no bit is left. `unsubscribed_at` records an
 * explicit unsubscribe from this item: the row stays, so voting or commenting again keeps the
 * person's choice instead of subscribing them behind their back. `end_users.unsubscribed_at` is
 * the same choice for the whole project. Only identified end users are subscribed: an anonymous
 * voter has no address and no externalId to be told through.
 *
 * The key is the pair itself (not an id of its own): every write is an upsert on that pair inside
 * the statement that records the submission, vote or comment, and a second index would only slow
 * those hot paths. The backfill subscribes everyone who already took part, so no one who voted or
 * commented before this migration is missed.
 */
export class Migration0021Subscriptions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "subscriptions" ("feedback_id" uuid not null, "end_user_id" uuid not null, "project_id" uuid not null, "reasons" smallint not null default 0, "unsubscribed_at" timestamptz(3) null, "created_at" timestamptz(3) not null default now(), primary key ("feedback_id", "end_user_id"));`);
    this.addSql(`create index "subscriptions_end_user_id_index" on "subscriptions" ("end_user_id");`);
    this.addSql(`alter table "subscriptions" add constraint "subscriptions_feedback_id_foreign" foreign key ("feedback_id") references "feedback" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "subscriptions" add constraint "subscriptions_end_user_id_foreign" foreign key ("end_user_id") references "end_users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "subscriptions" add constraint "subscriptions_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "end_users" add column "unsubscribed_at" timestamptz(3) null;`);

    this.addSql(`insert into "subscriptions" ("feedback_id", "end_user_id", "project_id", "reasons")
      select "feedback_id", "end_user_id", "project_id", bit_or("reason")::smallint from (
        select f."id" as "feedback_id", f."end_user_id", f."project_id", 1 as "reason"
          from "feedback" f where f."end_user_id" is not null
        union all
        select v."feedback_id", v."end_user_id", f."project_id", 2
          from "votes" v join "feedback" f on f."id" = v."feedback_id" where v."end_user_id" is not null
        union all
        select c."feedback_id", c."author_end_user_id", f."project_id", 4
          from "comments" c join "feedback" f on f."id" = c."feedback_id"
          where c."author_end_user_id" is not null and not c."is_team"
      ) as "taking_part"
      group by "feedback_id", "end_user_id", "project_id";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "end_users" drop column if exists "unsubscribed_at";`);
    this.addSql(`drop table if exists "subscriptions" cascade;`);
  }
}
