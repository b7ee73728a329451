import { Migration } from '@mikro-orm/migrations';

/**
 * The operator's API (docs/api.md, "Extensions"): secret keys, and the history of status changes.
 *
 * Keys stored before this migration become public keys (the column's default), as they were.
 * Team comments need nothing new: `comments` has had `is_team` and `author_name` from the start.
 * The per-project (status, type) counts need nothing new either: the statement triggers of
 * Migration0004_hot_path already move them with every update and delete of an item,
 * so status changes, deletes and merges keep them exact in their own transactions.
 */
export class Migration0005AdminApi extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "api_keys" add column "kind" text check ("kind" in ('public', 'secret')) not null default 'public';`);

    // The contract's statuses when this ran, written out: a change to them is a migration of its own.
    this.addSql(`create table "feedback_status_changes" ("id" bigserial, "feedback_id" uuid not null, "from_status" text check ("from_status" in ('new', 'under-review', 'planned', 'in-progress', 'completed', 'closed')) not null, "to_status" text check ("to_status" in ('new', 'under-review', 'planned', 'in-progress', 'completed', 'closed')) not null, "api_key_id" uuid null, "actor" text null, "changed_at" timestamptz(3) not null default clock_timestamp(), constraint "feedback_status_changes_pkey" primary key ("id"));`);
    this.addSql(`alter table "feedback_status_changes" add constraint "feedback_status_changes_feedback_id_foreign" foreign key ("feedback_id") references "feedback" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "feedback_status_changes" add constraint "feedback_status_changes_api_key_id_foreign" foreign key ("api_key_id") references "api_keys" ("id") on update cascade on delete set null;`);
    // The detail view reads one item's changes in order.
    this.addSql(`create index "feedback_status_changes_feedback_id_id_index" on "feedback_status_changes" ("feedback_id", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "feedback_status_changes" cascade;`);
    this.addSql(`alter table "api_keys" drop column "kind";`);
  }
}
