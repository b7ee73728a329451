import { Migration } from '@mikro-orm/migrations';

/** Stored responses of POSTs sent with an Idempotency-Key (kept 24 hours). */
export class Migration0003IdempotencyKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" ("project_id" uuid not null, "key" text not null, "request_hash" text not null, "status" int null, "body" jsonb null, "created_at" timestamptz(3) not null default now(), constraint "idempotency_keys_pkey" primary key ("project_id", "key"));`);
    this.addSql(`alter table "idempotency_keys" add constraint "idempotency_keys_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    // Expired keys are deleted by age.
    this.addSql(`create index "idempotency_keys_created_at_index" on "idempotency_keys" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }
}
