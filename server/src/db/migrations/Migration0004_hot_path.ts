import { Migration } from '@mikro-orm/migrations';

/**
 * What the hot statements (server/src/public) need from the schema: list counts and sort
 * indexes that answer filtered pages without scanning items, and the vote toggle as one call.
 *
 * Exact list totals without counting rows: per project, the number of items in each
 * (status, type) cell, kept by statement triggers on `feedback`, so every change to an item,
 * whoever makes it (the API, an operator command, a bulk load in SQL), moves the counts in the
 * same transaction. `total` of a list is then a sum over at most 24 cells.
 *
 * Each cell is split into 16 shard rows picked by the writing backend's pid: concurrent submissions
 * on different connections update different rows instead of queueing on one row lock until the
 * other commits. A total sums at most 24 x 16 narrow rows through the primary key.
 */
export class Migration0004HotPath extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "feedback_stats" ("project_id" uuid not null, "status" text not null, "type" text not null, "shard" smallint not null, "item_count" int not null default 0, constraint "feedback_stats_pkey" primary key ("project_id", "status", "type", "shard"));`);
    this.addSql(`alter table "feedback_stats" add constraint "feedback_stats_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`);
    // Room on each page for in-place (HOT) updates of these small, often-written rows.
    this.addSql(`alter table "feedback_stats" set (fillfactor = 50);`);
    this.addSql(`insert into "feedback_stats" ("project_id", "status", "type", "shard", "item_count") select "project_id", "status", "type", 0, count(*) from "feedback" group by 1, 2, 3;`);

    // One trigger per kind of statement: each adds the net change of the statement's rows to their
    // cells, in key order.
    this.addSql(`create function "feedback_stats_on_insert"() returns trigger language plpgsql as $$
begin
  insert into feedback_stats (project_id, status, type, shard, item_count)
  select project_id, status, type, pg_backend_pid() % 16, sum(delta)
  from (select project_id, status, type, 1 as delta from new_rows) moved
  group by project_id, status, type
  having sum(delta) <> 0
  order by project_id, status, type
  on conflict (project_id, status, type, shard) do update set item_count = feedback_stats.item_count + excluded.item_count;
  return null;
end $$;`);
    this.addSql(`create trigger "feedback_stats_insert" after insert on "feedback" referencing new table as new_rows for each statement execute function "feedback_stats_on_insert"();`);
    this.addSql(`create function "feedback_stats_on_delete"() returns trigger language plpgsql as $$
begin
  insert into feedback_stats (project_id, status, type, shard, item_count)
  select project_id, status, type, pg_backend_pid() % 16, sum(delta)
  from (select project_id, status, type, -1 as delta from old_rows) moved
  group by project_id, status, type
  having sum(delta) <> 0
  order by project_id, status, type
  on conflict (project_id, status, type, shard) do update set item_count = feedback_stats.item_count + excluded.item_count;
  return null;
end $$;`);
    this.addSql(`create trigger "feedback_stats_delete" after delete on "feedback" referencing old table as old_rows for each statement execute function "feedback_stats_on_delete"();`);
    this.addSql(`create function "feedback_stats_on_update"() returns trigger language plpgsql as $$
begin
  insert into feedback_stats (project_id, status, type, shard, item_count)
  select project_id, status, type, pg_backend_pid() % 16, sum(delta)
  from (select project_id, status, type, 1 as delta from new_rows union all select project_id, status, type, -1 from old_rows) moved
  group by project_id, status, type
  having sum(delta) <> 0
  order by project_id, status, type
  on conflict (project_id, status, type, shard) do update set item_count = feedback_stats.item_count + excluded.item_count;
  return null;
end $$;`);
    this.addSql(`create trigger "feedback_stats_update" after update on "feedback" referencing old table as old_rows new table as new_rows for each statement execute function "feedback_stats_on_update"();`);

    // Every sort index carries status and type, so a filtered page is found by an index-only scan
    // instead of visiting every item it skips (for the votes and comments sorts, the counters
    // keep a copy of the item's status and type, see below).
    this.addSql(`drop index "feedback_project_id_created_at_id_index";`);
    this.addSql(`create index "feedback_project_id_created_at_id_index" on "feedback" ("project_id", "created_at" desc, "id" desc) include ("status", "type");`);

    this.addSql(`alter table "feedback_counters" add column "status" text null, add column "type" text null;`);
    this.addSql(`update "feedback_counters" c set "status" = f."status", "type" = f."type" from "feedback" f where f."id" = c."feedback_id";`);
    this.addSql(`alter table "feedback_counters" alter column "status" set not null, alter column "type" set not null;`);
    // A counters row written without them (a bulk load in SQL) takes them from its item.
    this.addSql(`create function "feedback_counters_fill"() returns trigger language plpgsql as $$
begin
  select f.status, f.type into new.status, new.type from feedback f where f.id = new.feedback_id;
  return new;
end $$;`);
    // Only for such rows: the API's inserts carry both and pay no trigger call.
    this.addSql(`create trigger "feedback_counters_fill" before insert on "feedback_counters" for each row when (new."status" is null or new."type" is null) execute function "feedback_counters_fill"();`);
    // An item that changes status or type moves its copy in the same transaction.
    this.addSql(`create function "feedback_counters_follow"() returns trigger language plpgsql as $$
begin
  update feedback_counters set status = new.status, type = new.type where feedback_id = new.id;
  return null;
end $$;`);
    this.addSql(`create trigger "feedback_counters_follow" after update of "status", "type" on "feedback" for each row when (old."status" is distinct from new."status" or old."type" is distinct from new."type") execute function "feedback_counters_follow"();`);
    this.addSql(`drop index "feedback_counters_votes_index";`);
    this.addSql(`create index "feedback_counters_votes_index" on "feedback_counters" ("project_id", "vote_count" desc, "created_at" desc, "feedback_id" desc) include ("status", "type");`);
    this.addSql(`drop index "feedback_counters_comments_index";`);
    this.addSql(`create index "feedback_counters_comments_index" on "feedback_counters" ("project_id", "comment_count" desc, "created_at" desc, "feedback_id" desc) include ("status", "type");`);

    // Spec 4.5, one call: the voter's vote is inserted, or, when it exists, deleted, and the item's
    // counter moves by exactly that one row, so vote_count always equals the number of vote rows.
    // Each statement of a function sees what committed before it began: when a concurrent toggle by
    // the same voter committed its vote after the insert began, the insert meets it (and waits for
    // it), and the delete that follows sees and removes it. If a concurrent toggle deleted it in
    // between, the loop inserts again. No lock is taken on the item, so toggles by different voters
    // only meet at the counter's row update. (Replaced since: server/src/db/schema.sql has the
    // toggle as it runs today.)
    this.addSql(`create function "toggle_vote"(p_item uuid, p_project uuid, p_voter text, p_end_user uuid)
returns table (item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
begin
  perform 1 from feedback_counters c where c.feedback_id = p_item and c.project_id = p_project;
  if not found then
    return query select false, false, 0;
    return;
  end if;
  loop
    insert into votes (feedback_id, voter_key, end_user_id) values (p_item, p_voter, p_end_user)
    on conflict (feedback_id, voter_key) do nothing;
    if found then
      return query update feedback_counters c set vote_count = c.vote_count + 1 where c.feedback_id = p_item returning true, true, c.vote_count;
      return;
    end if;
    delete from votes v where v.feedback_id = p_item and v.voter_key = p_voter;
    if found then
      return query update feedback_counters c set vote_count = c.vote_count - 1 where c.feedback_id = p_item returning true, false, c.vote_count;
      return;
    end if;
  end loop;
end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists "toggle_vote"(uuid, uuid, text, uuid);`);

    this.addSql(`drop index "feedback_counters_votes_index";`);
    this.addSql(`create index "feedback_counters_votes_index" on "feedback_counters" ("project_id", "vote_count" desc, "created_at" desc, "feedback_id" desc);`);
    this.addSql(`drop index "feedback_counters_comments_index";`);
    this.addSql(`create index "feedback_counters_comments_index" on "feedback_counters" ("project_id", "comment_count" desc, "created_at" desc, "feedback_id" desc);`);

    this.addSql(`drop trigger if exists "feedback_counters_follow" on "feedback";`);
    this.addSql(`drop function if exists "feedback_counters_follow"();`);
    this.addSql(`drop trigger if exists "feedback_counters_fill" on "feedback_counters";`);
    this.addSql(`drop function if exists "feedback_counters_fill"();`);
    this.addSql(`alter table "feedback_counters" drop column "status", drop column "type";`);

    this.addSql(`drop index "feedback_project_id_created_at_id_index";`);
    this.addSql(`create index "feedback_project_id_created_at_id_index" on "feedback" ("project_id", "created_at" desc, "id" desc);`);

    this.addSql(`drop trigger if exists "feedback_stats_insert" on "feedback";`);
    this.addSql(`drop function if exists "feedback_stats_on_insert"();`);
    this.addSql(`drop trigger if exists "feedback_stats_delete" on "feedback";`);
    this.addSql(`drop function if exists "feedback_stats_on_delete"();`);
    this.addSql(`drop trigger if exists "feedback_stats_update" on "feedback";`);
    this.addSql(`drop function if exists "feedback_stats_on_update"();`);
    this.addSql(`drop table if exists "feedback_stats" cascade;`);
  }
}
