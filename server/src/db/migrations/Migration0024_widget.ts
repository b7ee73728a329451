import { Migration } from '@mikro-orm/migrations';

/**
 * The widget (issue 41, docs/widget.md): a project's panel served in a frame of the host app.
 * - `widget_enabled`: whether the panel and its loader answer for the project (`feedback widget on|off`);
 * - `widget_origins`: the host origins allowed to frame the panel (CSP frame-ancestors) and to
 *   talk to it by postMessage; a panel asked for by any other origin shows no visitor's data;
 * - `end_users.widget_seen_at`: when the end user last opened "My requests", so that the status
 *   changes and team replies after it are marked unread. Null: never, so everything is new.
 */
export class Migration0024Widget extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "widget_enabled" boolean not null default false, add column "widget_origins" text[] not null default '{}';`);
    this.addSql(`alter table "end_users" add column "widget_seen_at" timestamptz(3) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "projects" drop column "widget_enabled", drop column "widget_origins";`);
    this.addSql(`alter table "end_users" drop column "widget_seen_at";`);
  }
}
