import { Migration } from '@mikro-orm/migrations';

/**
 * Held edits (issue 49, finding 2; docs/moderation.md): an end user's edit of a published comment
 * passes moderation as a new comment does, and where the project holds it, it waits in
 * `held_posts` as a comment whose `comment_id` names the comment it would rewrite. The published
 * text stays as it was until the team approves the edit (the held text then replaces it, the
 * earlier one kept in comment_revisions) or rejects it. A comment has at most one edit waiting (the
 * author's newer edit replaces it), and a deleted comment takes its waiting edit with it.
 */
export class Migration0029HeldEdits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "held_posts" add column "comment_id" uuid null;`);
    this.addSql(`alter table "held_posts" add constraint "held_posts_comment_id_foreign" foreign key ("comment_id") references "comments" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "held_posts" add constraint "held_posts_edit_check" check ("comment_id" is null or "kind" = 'comment');`);
    this.addSql(`create unique index "held_posts_one_edit_per_comment" on "held_posts" ("comment_id") where "comment_id" is not null;`);
  }

  override async down(): Promise<void> {
    // A waiting edit is not a new comment: it goes, rather than be approved as one later.
    this.addSql(`delete from "held_posts" where "comment_id" is not null;`);
    this.addSql(`drop index "held_posts_one_edit_per_comment";`);
    this.addSql(`alter table "held_posts" drop constraint "held_posts_edit_check";`);
    this.addSql(`alter table "held_posts" drop constraint "held_posts_comment_id_foreign";`);
    this.addSql(`alter table "held_posts" drop column "comment_id";`);
  }
}
