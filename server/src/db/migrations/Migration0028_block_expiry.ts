import { Migration } from '@mikro-orm/migrations';

/**
 * Blocks that can be listed, lifted and expire (issue 49; docs/moderation.md, "Blocks").
 *
 * A block was keyed by its author alone and lasted for good, with no way to name it: an
 * anonymous post's block named the caller's whole address, so an office behind one address, or a
 * backend relaying anonymous posts with its public key, was silenced until someone edited the
 * database. Now each block has an `id` (the API, the CLI and the team's Held view list and lift
 * blocks by it), `expires_at` (null: until lifted) and `excerpt`, the start of the rejected post
 * that made it, so that the team can tell blocks apart. The author stays the key: one block per
 * author and project (the unique pair the posting check probes).
 *
 * An address-wide block (no end user: the author was an anonymous caller) now lasts 30 days unless
 * the team chose another length. Those made before this migration get that length too, counted
 * from when they were made: one older than 30 days ends here.
 */
export class Migration0028BlockExpiry extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "posting_blocks" drop constraint "posting_blocks_pkey";`);
    this.addSql(`alter table "posting_blocks" add column "id" uuid not null default time_ordered_uuid(), add column "excerpt" text null, add column "expires_at" timestamptz(3) null;`);
    this.addSql(`alter table "posting_blocks" add constraint "posting_blocks_pkey" primary key ("id");`);
    this.addSql(`alter table "posting_blocks" add constraint "posting_blocks_project_id_voter_key_unique" unique ("project_id", "voter_key");`);
    this.addSql(`update "posting_blocks" set "expires_at" = "created_at" + interval '30 days' where "end_user_id" is null;`);
  }

  override async down(): Promise<void> {
    // Back to blocks for good: one that had ended is gone, one that had not stays (without its end).
    this.addSql(`delete from "posting_blocks" where "expires_at" <= now();`);
    this.addSql(`alter table "posting_blocks" drop constraint "posting_blocks_project_id_voter_key_unique";`);
    this.addSql(`alter table "posting_blocks" drop constraint "posting_blocks_pkey";`);
    this.addSql(`alter table "posting_blocks" drop column "id", drop column "excerpt", drop column "expires_at";`);
    this.addSql(`alter table "posting_blocks" add constraint "posting_blocks_pkey" primary key ("project_id", "voter_key");`);
  }
}
