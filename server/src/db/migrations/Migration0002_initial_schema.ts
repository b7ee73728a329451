import { Migration } from '@mikro-orm/migrations';

/**
 * The data model of the v1 API. Written by hand from the entities; a test compares the migrated
 * schema with the entities, so the two cannot drift apart.
 */
export class Migration0002InitialSchema extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "projects" ("id" uuid not null default gen_random_uuid(), "slug" text not null, "name" text not null, "voter_salt" text not null, "created_at" timestamptz(3) not null default now(), constraint "projects_pkey" primary key ("id"));`);
    this.addSql(`alter table "projects" add constraint "projects_slug_unique" unique ("slug");`);

    this.addSql(`create table "api_keys" ("id" uuid not null default gen_random_uuid(), "project_id" uuid not null, "name" text null, "key_hash" text not null, "key_prefix" text not null, "created_at" timestamptz(3) not null default now(), "revoked_at" timestamptz(3) null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "end_users" ("id" uuid not null default gen_random_uuid(), "project_id" uuid not null, "external_id" text not null, "email" text null, "name" text null, "avatar_url" text null, "metadata" jsonb null, "created_at" timestamptz(3) not null default now(), "updated_at" timestamptz(3) not null default now(), constraint "end_users_pkey" primary key ("id"));`);
    this.addSql(`alter table "end_users" add constraint "end_users_project_id_external_id_unique" unique ("project_id", "external_id");`);
    this.addSql(`alter table "end_users" add constraint "end_users_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "feedback" ("id" uuid not null default gen_random_uuid(), "project_id" uuid not null, "end_user_id" uuid null, "title" text not null, "description" text null, "type" text check ("type" in ('bug', 'idea', 'question', 'other')) not null default 'idea', "status" text check ("status" in ('new', 'under-review', 'planned', 'in-progress', 'completed', 'closed')) not null default 'new', "metadata" jsonb null, "created_at" timestamptz(3) not null default now(), constraint "feedback_pkey" primary key ("id"));`);
    this.addSql(`alter table "feedback" add constraint "feedback_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "feedback" add constraint "feedback_end_user_id_foreign" foreign key ("end_user_id") references "end_users" ("id") on update cascade on delete set null;`);
    // newest/oldest (a backward scan serves oldest), and the substring search in title or description.
    this.addSql(`create index "feedback_project_id_created_at_id_index" on "feedback" ("project_id", "created_at" desc, "id" desc);`);
    this.addSql(`create index "feedback_title_trgm_index" on "feedback" using gin ("title" gin_trgm_ops);`);
    this.addSql(`create index "feedback_description_trgm_index" on "feedback" using gin ("description" gin_trgm_ops);`);
    // Keep the visibility map fresh after bursts of submissions, so that counts stay index-only.
    this.addSql(`alter table "feedback" set (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.01);`);

    this.addSql(`create table "feedback_counters" ("feedback_id" uuid not null, "project_id" uuid not null, "created_at" timestamptz(3) not null, "vote_count" int not null default 0, "comment_count" int not null default 0, constraint "feedback_counters_pkey" primary key ("feedback_id"));`);
    this.addSql(`alter table "feedback_counters" add constraint "feedback_counters_feedback_id_foreign" foreign key ("feedback_id") references "feedback" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "feedback_counters" add constraint "feedback_counters_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    // The votes and comments sorts: most first, ties by newest.
    this.addSql(`create index "feedback_counters_votes_index" on "feedback_counters" ("project_id", "vote_count" desc, "created_at" desc, "feedback_id" desc);`);
    this.addSql(`create index "feedback_counters_comments_index" on "feedback_counters" ("project_id", "comment_count" desc, "created_at" desc, "feedback_id" desc);`);

    this.addSql(`create table "comments" ("id" uuid not null default gen_random_uuid(), "feedback_id" uuid not null, "author_end_user_id" uuid null, "author_name" text null, "is_team" boolean not null default false, "content" text not null, "created_at" timestamptz(3) not null default now(), constraint "comments_pkey" primary key ("id"));`);
    this.addSql(`alter table "comments" add constraint "comments_feedback_id_foreign" foreign key ("feedback_id") references "feedback" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_author_end_user_id_foreign" foreign key ("author_end_user_id") references "end_users" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "comments_feedback_id_created_at_index" on "comments" ("feedback_id", "created_at");`);

    this.addSql(`create table "votes" ("id" uuid not null default gen_random_uuid(), "feedback_id" uuid not null, "voter_key" text not null, "end_user_id" uuid null, "created_at" timestamptz(3) not null default now(), constraint "votes_pkey" primary key ("id"));`);
    this.addSql(`alter table "votes" add constraint "votes_feedback_id_voter_key_unique" unique ("feedback_id", "voter_key");`);
    this.addSql(`alter table "votes" add constraint "votes_feedback_id_foreign" foreign key ("feedback_id") references "feedback" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "votes" add constraint "votes_end_user_id_foreign" foreign key ("end_user_id") references "end_users" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "votes" cascade;`);
    this.addSql(`drop table if exists "comments" cascade;`);
    this.addSql(`drop table if exists "feedback_counters" cascade;`);
    this.addSql(`drop table if exists "feedback" cascade;`);
    this.addSql(`drop table if exists "end_users" cascade;`);
    this.addSql(`drop table if exists "api_keys" cascade;`);
    this.addSql(`drop table if exists "projects" cascade;`);
  }
}
