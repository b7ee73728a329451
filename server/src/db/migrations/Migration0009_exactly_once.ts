import { Migration } from '@mikro-orm/migrations';

/**
 * The vote toggle takes its locks in the order every writer takes them (domain/item-locks.ts):
 * the item (`key share`: only its delete or merge away waits for it, or makes it wait), its
 * counters row, and only then the vote row. Before, it took the vote row first and the counters
 * second: two batches toggling one item for two voters in opposite orders each held one vote and
 * waited for the other's counters (deadlock detected, a 500), and a batch holding a target's
 * counters could wait on a merge holding the item it toggled next. The body is otherwise 000300's.
 *
 * Also: an idempotent request's stored answer is the exact text that was sent (was jsonb, which
 * reorders an object's keys, so a replay read differently from the first answer).
 *
 * Both functions were replaced since (000900, 001100): server/src/db/schema.sql has them as they run today.
 */
export class Migration0009ExactlyOnce extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "toggle_vote"(p_item uuid, p_project uuid, p_voter text, p_end_user uuid)
returns table (item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
begin
  perform 1 from feedback f where f.id = p_item and f.project_id = p_project for key share;
  if not found then
    return query select false, false, 0;
    return;
  end if;
  perform 1 from feedback_counters c where c.feedback_id = p_item for no key update;
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

    // A batch locks all its items first, in id order, before any counters row: otherwise it could
    // hold the counters of one item while it waits for another that a merge holds, and the merge
    // wait for those counters. Then each toggle, in item order, as 000700 did.
    this.addSql(`create or replace function "toggle_votes"(p_project uuid, p_items uuid[], p_external_ids text[], p_voter_keys text[])
returns table (idx int, user_known boolean, item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
declare
  r record;
  v_user uuid;
begin
  perform 1 from feedback f where f.id = any(p_items) and f.project_id = p_project order by f.id for key share;
  for r in
    select b.i, b.item, b.external_id, b.voter_key
    from unnest(p_items, p_external_ids, p_voter_keys) with ordinality as b(item, external_id, voter_key, i)
    order by b.item, b.i
  loop
    idx := r.i;
    item_found := null; now_voted := null; new_count := null;
    if r.external_id is null then
      user_known := true;
      select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
        from toggle_vote(r.item, p_project, r.voter_key, null) t;
    else
      select e.id into v_user from end_users e where e.project_id = p_project and e.external_id = r.external_id;
      user_known := found;
      if user_known then
        select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
          from toggle_vote(r.item, p_project, v_user::text, v_user) t;
      end if;
    end if;
    return next;
  end loop;
end $$;`);

    this.addSql(`alter table "idempotency_keys" alter column "body" type text using "body"::text;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" alter column "body" type jsonb using "body"::jsonb;`);
    // 000700's batch and 000300's toggle, as they were.
    this.addSql(`create or replace function "toggle_votes"(p_project uuid, p_items uuid[], p_external_ids text[], p_voter_keys text[])
returns table (idx int, user_known boolean, item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
declare
  r record;
  v_user uuid;
begin
  for r in
    select b.i, b.item, b.external_id, b.voter_key
    from unnest(p_items, p_external_ids, p_voter_keys) with ordinality as b(item, external_id, voter_key, i)
    order by b.item, b.i
  loop
    idx := r.i;
    item_found := null; now_voted := null; new_count := null;
    if r.external_id is null then
      user_known := true;
      select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
        from toggle_vote(r.item, p_project, r.voter_key, null) t;
    else
      select e.id into v_user from end_users e where e.project_id = p_project and e.external_id = r.external_id;
      user_known := found;
      if user_known then
        select t.item_found, t.now_voted, t.new_count into item_found, now_voted, new_count
          from toggle_vote(r.item, p_project, v_user::text, v_user) t;
      end if;
    end if;
    return next;
  end loop;
end $$;`);
    this.addSql(`create or replace function "toggle_vote"(p_item uuid, p_project uuid, p_voter text, p_end_user uuid)
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
}
