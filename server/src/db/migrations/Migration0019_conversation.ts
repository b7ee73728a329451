import { Migration } from '@mikro-orm/migrations';

/**
 * The conversation (issue 39, docs/api.md "Comments"): one level of replies (`parent_id`, always a
 * top-level comment of the same item: the writers attach a reply to a reply to its top), the
 * team's private notes (`is_internal`, never counted in `comment_count` nor shown to a public key),
 * one pinned official answer per item (a partial unique index, so two concurrent pins cannot both
 * win), the time of the last edit, and the previous contents of edited comments. A later
 * moderation step adds a nullable `held_at` beside these; nothing here assumes every row is shown.
 * Projects choose whether anonymous end users may comment (off by default), and webhook endpoints
 * whether they receive events about internal notes (off by default).
 */
export class Migration0019Conversation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "comments"
      add column "parent_id" uuid null,
      add column "is_internal" boolean not null default false,
      add column "is_pinned" boolean not null default false,
      add column "edited_at" timestamptz(3) null;`);
    this.addSql(`alter table "comments" add constraint "comments_parent_id_foreign" foreign key ("parent_id") references "comments" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_pinned_check" check (not "is_pinned" or ("is_team" and not "is_internal"));`);
    this.addSql(`create index "comments_parent_id_index" on "comments" ("parent_id") where "parent_id" is not null;`);
    this.addSql(`create unique index "comments_one_pinned_per_item" on "comments" ("feedback_id") where "is_pinned";`);
    this.addSql(`create table "comment_revisions" (
      "id" uuid not null default time_ordered_uuid(),
      "comment_id" uuid not null,
      "content" text not null,
      "written_at" timestamptz(3) not null,
      "replaced_at" timestamptz(3) not null default now(),
      constraint "comment_revisions_pkey" primary key ("id"),
      constraint "comment_revisions_comment_id_foreign" foreign key ("comment_id") references "comments" ("id") on update cascade on delete cascade
    );`);
    this.addSql(`create index "comment_revisions_comment_id_index" on "comment_revisions" ("comment_id", "replaced_at");`);
    this.addSql(`alter table "projects" add column "anonymous_comments" boolean not null default false;`);
    this.addSql(`alter table "webhook_endpoints" add column "include_internal" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" drop column "include_internal";`);
    this.addSql(`alter table "projects" drop column "anonymous_comments";`);
    this.addSql(`drop table "comment_revisions";`);
    this.addSql(`drop index "comments_one_pinned_per_item";`);
    this.addSql(`drop index "comments_parent_id_index";`);
    this.addSql(`alter table "comments" drop constraint "comments_pinned_check", drop constraint "comments_parent_id_foreign";`);
    this.addSql(`alter table "comments" drop column "parent_id", drop column "is_internal", drop column "is_pinned", drop column "edited_at";`);
  }
}
