import { Migration } from '@mikro-orm/migrations';

/**
 * The server's voter secret (db/voter-secret.ts): one row with its fingerprint, so that a process
 * given another secret refuses to start, and the secret itself only on PostgreSQL without
 * FEEDBACK_VOTER_SECRET (it lives nowhere else there). Never exported. Anonymous voters' keys
 * made before it (`ip:`) are re-keyed when the server starts, not here: that needs the secret.
 */
export class Migration0016VoterSecret extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "voter_secret" ("id" smallint not null default 1, "fingerprint" text not null, "secret" text null, primary key ("id"), constraint "voter_secret_one_row" check ("id" = 1));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "voter_secret";`);
  }
}
