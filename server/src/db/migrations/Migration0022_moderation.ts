import { Migration } from '@mikro-orm/migrations';

/**
 * Moderation (issue 39, item 5; docs/moderation.md), off by default.
 * - `projects.moderation`: whose posts wait for the team (`none`, `anonymous`: those without an
 *   identified end user, `all`: every end user's), and `moderation_hold_links`: hold any post
 *   with a link whatever the mode.
 * - `held_posts`: a submission or a comment that waits. It is kept out of `feedback` and
 *   `comments` on purpose: every public read (list, detail, similar, counts, the board), the
 *   counters and the list totals (the `feedback_stats` triggers) then cannot see it without a
 *   single condition added to them. Its id is the one the item or comment gets on approval.
 *   `voter_key` is its author as votes key them (the end user's id, or the anonymous caller's
 *   hashed address), what a block on rejection names.
 * - `posting_blocks`: authors the team blocked when rejecting; they can no longer submit or comment.
 */
export class Migration0022Moderation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "moderation" text not null default 'none', add column "moderation_hold_links" boolean not null default false;`);
    this.addSql(`alter table "projects" add constraint "projects_moderation_check" check ("moderation" in ('none', 'anonymous', 'all'));`);

    this.addSql(`create table "held_posts" ("id" uuid not null default time_ordered_uuid(), "project_id" uuid not null, "kind" text not null, "feedback_id" uuid null, "parent_id" uuid null, "end_user_id" uuid null, "voter_key" text not null, "title" text null, "description" text null, "type" text null, "metadata" jsonb null, "content" text null, "reason" text not null, "created_at" timestamptz(3) not null default now(), primary key ("id"), constraint "held_posts_kind_check" check ("kind" in ('feedback', 'comment')), constraint "held_posts_reason_check" check ("reason" in ('anonymous', 'all', 'link')));`);
    this.addSql(`create index "held_posts_project_id_created_at_index" on "held_posts" ("project_id", "created_at");`);
    this.addSql(`alter table "held_posts" add constraint "held_posts_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "held_posts" add constraint "held_posts_feedback_id_foreign" foreign key ("feedback_id") references "feedback" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "held_posts" add constraint "held_posts_parent_id_foreign" foreign key ("parent_id") references "comments" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "held_posts" add constraint "held_posts_end_user_id_foreign" foreign key ("end_user_id") references "end_users" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "posting_blocks" ("project_id" uuid not null, "voter_key" text not null, "end_user_id" uuid null, "created_at" timestamptz(3) not null default now(), primary key ("project_id", "voter_key"));`);
    this.addSql(`alter table "posting_blocks" add constraint "posting_blocks_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "posting_blocks" add constraint "posting_blocks_end_user_id_foreign" foreign key ("end_user_id") references "end_users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "posting_blocks" cascade;`);
    this.addSql(`drop table if exists "held_posts" cascade;`);
    this.addSql(`alter table "projects" drop constraint "projects_moderation_check";`);
    this.addSql(`alter table "projects" drop column "moderation", drop column "moderation_hold_links";`);
  }
}
