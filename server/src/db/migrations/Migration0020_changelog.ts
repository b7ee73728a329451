import { Migration } from '@mikro-orm/migrations';

/**
 * The changelog (docs/changelog.md): entries with a Markdown body and a publication time, and the
 * items each links to. `publish_at` null is a draft; readers filter on `publish_at <= now()`, so a
 * scheduled entry appears at its time with nothing to flip. `announced_at` records that its
 * publication was announced (`changelog.published`), once: the partial index lets the jobs'
 * sweep find the few entries whose time came and which were not announced yet. A link has an id
 * of its own (not only its pair) so that `feedback export` and `import` carry it as every other row.
 */
export class Migration0020Changelog extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "changelog_entries" ("id" uuid not null default time_ordered_uuid(), "project_id" uuid not null, "title" text not null, "body" text not null, "publish_at" timestamptz(3) null, "announced_at" timestamptz(3) null, "created_at" timestamptz(3) not null default now(), "updated_at" timestamptz(3) not null default now(), primary key ("id"));`);
    this.addSql(`create index "changelog_entries_project_id_publish_at_index" on "changelog_entries" ("project_id", "publish_at");`);
    this.addSql(`create index "changelog_entries_unannounced_index" on "changelog_entries" ("publish_at") where "announced_at" is null and "publish_at" is not null;`);
    this.addSql(`alter table "changelog_entries" add constraint "changelog_entries_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "changelog_entry_items" ("id" uuid not null default time_ordered_uuid(), "entry_id" uuid not null, "feedback_id" uuid not null, "position" int not null, primary key ("id"));`);
    this.addSql(`alter table "changelog_entry_items" add constraint "changelog_entry_items_entry_id_feedback_id_unique" unique ("entry_id", "feedback_id");`);
    this.addSql(`create index "changelog_entry_items_feedback_id_index" on "changelog_entry_items" ("feedback_id");`);
    this.addSql(`alter table "changelog_entry_items" add constraint "changelog_entry_items_entry_id_foreign" foreign key ("entry_id") references "changelog_entries" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "changelog_entry_items" add constraint "changelog_entry_items_feedback_id_foreign" foreign key ("feedback_id") references "feedback" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "changelog_entry_items" cascade;`);
    this.addSql(`drop table if exists "changelog_entries" cascade;`);
  }
}
