import { Migration } from '@mikro-orm/migrations';

/**
 * Triage in the browser (docs/triage.md): one-time sign-in links and the team's sessions. Neither
 * table holds a usable secret: a link's token and a session's token are stored as their SHA-256,
 * so a copy of the database (a backup, `feedback export`) signs nobody in.
 *
 * A row made from the operator's own database (`feedback open` with --data-dir/--database-url)
 * has no key (`api_key_id` null); one made with a secret key names it, so that revoking the key
 * ends the sessions it opened (the session look-up joins the key and checks `revoked_at`).
 * Deleting a project or a key deletes its links and sessions. `name` is who the member said they
 * are (optional): the link carries it to its session, whose changes and replies it signs.
 */
export class Migration0015TeamSessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "team_sign_in_links" ("id" uuid not null default time_ordered_uuid(), "project_id" uuid not null, "api_key_id" uuid null, "token_hash" text not null, "name" text null, "created_at" timestamptz(3) not null default now(), "expires_at" timestamptz(3) not null, "used_at" timestamptz(3) null, primary key ("id"));`);
    this.addSql(`alter table "team_sign_in_links" add constraint "team_sign_in_links_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "team_sign_in_links_expires_at_index" on "team_sign_in_links" ("expires_at");`);
    this.addSql(`alter table "team_sign_in_links" add constraint "team_sign_in_links_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "team_sign_in_links" add constraint "team_sign_in_links_api_key_id_foreign" foreign key ("api_key_id") references "api_keys" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "team_sessions" ("id" uuid not null default time_ordered_uuid(), "project_id" uuid not null, "api_key_id" uuid null, "token_hash" text not null, "name" text null, "opened_with" text not null, "created_at" timestamptz(3) not null default now(), "last_seen_at" timestamptz(3) not null default now(), "ended_at" timestamptz(3) null, primary key ("id"));`);
    this.addSql(`alter table "team_sessions" add constraint "team_sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "team_sessions_project_id_index" on "team_sessions" ("project_id");`);
    this.addSql(`create index "team_sessions_api_key_id_index" on "team_sessions" ("api_key_id");`);
    this.addSql(`alter table "team_sessions" add constraint "team_sessions_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "team_sessions" add constraint "team_sessions_api_key_id_foreign" foreign key ("api_key_id") references "api_keys" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "team_sessions" add constraint "team_sessions_opened_with_check" check ("opened_with" in ('link', 'key'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "team_sessions" cascade;`);
    this.addSql(`drop table if exists "team_sign_in_links" cascade;`);
  }
}
