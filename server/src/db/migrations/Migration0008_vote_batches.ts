import { Migration } from '@mikro-orm/migrations';

/**
 * `toggle_votes`: several vote toggles in one statement, so in one transaction and one wait for
 * the WAL to reach the disk (server/src/public/vote-batches.ts). Each toggle is `toggle_vote`
 * (migration 0004), exactly as alone, taken in item order: two batches lock the items' counters
 * in the same order, so they cannot deadlock on them.
 *
 * Per toggle: the item, and either the externalId of an end user (looked up, never created here:
 * an unknown one answers `user_known` false, and the caller creates the user with the single
 * statement) or an anonymous voter key. One row per toggle; `idx` is its 1-based place in the arrays.
 *
 * Replaced since by 000800, 000900 and 001100: server/src/db/schema.sql has the function as it runs today.
 */
export class Migration0008VoteBatches extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "toggle_votes"(p_project uuid, p_items uuid[], p_external_ids text[], p_voter_keys text[])
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
  }

  override async down(): Promise<void> {
    this.addSql(`drop function "toggle_votes"(uuid, uuid[], text[], text[]);`);
  }
}
