import { Migration } from '@mikro-orm/migrations';

/**
 * The board's identified visitors and its embedding (docs/board.md):
 * - `identity_secret`: the key with which the host app signs a visitor's token (HS256), made and
 *   rotated by `feedback board secret`; none until an operator makes one, and then the board takes
 *   no token at all. Kept as given, since the server must compute the same HMAC.
 * - `board_frame_origins`: the origins allowed to show the board in a frame (CSP frame-ancestors);
 *   empty, the default, refuses every frame.
 * - `board_spent_tokens`: a token is exchanged for a session once. Its hash is kept until the token
 *   would have expired anyway (at most 10 minutes), then swept (jobs/machine-jobs.ts).
 */
export class Migration0014BoardIdentity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "identity_secret" text null, add column "board_frame_origins" text[] not null default '{}';`);
    this.addSql(`create table "board_spent_tokens" ("token_hash" text not null primary key, "expires_at" timestamptz not null);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "board_spent_tokens";`);
    this.addSql(`alter table "projects" drop column "identity_secret", drop column "board_frame_origins";`);
  }
}
