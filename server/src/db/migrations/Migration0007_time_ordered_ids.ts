import { Migration } from '@mikro-orm/migrations';

/**
 * New rows of the busy tables get time-ordered ids (the layout of UUID version 7: 48 bits of
 * Unix milliseconds, then random bits) instead of wholly random ones.
 *
 * Why: a random key lands on a random leaf page of its primary key (and of the votes' unique
 * (item, voter) index, which starts with the item's id). After every checkpoint, the first change
 * to a page writes the whole 8 kB page to the WAL, and a submission waits for its WAL to reach the
 * disk. Measured on the benchmark's 100,000 items just after a CHECKPOINT: 16,000 to 18,000 page
 * images per run (about one per submission) and 8.7 to 9.9 kB of WAL per submission, against
 * 2,000 to 3,700 and 4.5 to 5.1 kB with time-ordered ids, whose new keys land on the last page of
 * each index (docs/operations.md, "What runs 20 to 22 added").
 *
 * Existing rows keep their ids. The ids still carry 74 random bits; what they add is the creation
 * time to the millisecond, which `createdAt` already tells.
 */
export class Migration0007TimeOrderedIds extends Migration {
  override async up(): Promise<void> {
    // Named apart from PostgreSQL 18's built-in uuidv7(), so the two never clash. The first 6 bytes
    // become the milliseconds; setting bits 52 and 53 turns the random id's version 4 into 7.
    this.addSql(`create function "time_ordered_uuid"() returns uuid language sql volatile parallel safe as $$
  select encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
        placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
        from 1 for 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;`);
    // The tables whose rows the public API adds at a rate: items, votes, comments, end users.
    this.addSql(`alter table "feedback" alter column "id" set default time_ordered_uuid();`);
    this.addSql(`alter table "votes" alter column "id" set default time_ordered_uuid();`);
    this.addSql(`alter table "comments" alter column "id" set default time_ordered_uuid();`);
    this.addSql(`alter table "end_users" alter column "id" set default time_ordered_uuid();`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "feedback" alter column "id" set default gen_random_uuid();`);
    this.addSql(`alter table "votes" alter column "id" set default gen_random_uuid();`);
    this.addSql(`alter table "comments" alter column "id" set default gen_random_uuid();`);
    this.addSql(`alter table "end_users" alter column "id" set default gen_random_uuid();`);
    this.addSql(`drop function "time_ordered_uuid"();`);
  }
}
