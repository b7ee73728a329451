import { Migration } from '@mikro-orm/migrations';

/**
 * A batch of vote toggles as one set-based statement (issue 48, docs/operations.md, "What made
 * vote and submit wait").
 *
 * `toggle_votes` looped over its toggles and called `toggle_vote` for each: per toggle a lock of
 * the item, a lock of its counters, an insert or a delete of the vote, a counter update (a new
 * row version in the counters' three indexes) and the subscription's insert or delete, each an
 * executor start of its own. Now the items and their counters are locked once, in item order (the
 * order every toggle path takes, so batches still cannot deadlock on them), and one statement
 * deletes the votes that were there, inserts the ones that were not, moves each counter once by
 * the batch's net change, subscribes the new voters (bit 2, as `toggle_vote` does) and writes the
 * batch's webhook event; then the reasons of the votes taken back are removed, one subscription
 * row at a time by its key. Each toggle's `new_count` is the count after it and the toggles before
 * it on the same item, in the order of the old loop (item, then place).
 *
 * The answers are those of the loop, toggle for toggle (same rows, counters, votes,
 * subscriptions and event): a batch in which one voter toggles one item twice depends on its own
 * order, and runs the loop, kept as `toggle_votes_in_turn`. A toggle whose vote another
 * transaction inserted or deleted under it (not through a vote toggle, which waits on the
 * counters' lock) gets no row, and the server runs it alone (db/statement-batches.ts, `alone`).
 */
export class Migration0026ToggleBatchStatement extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter function "toggle_votes"(uuid, uuid[], text[], text[]) rename to "toggle_votes_in_turn";`);
    this.addSql(`create function "toggle_votes"(p_project uuid, p_items uuid[], p_external_ids text[], p_voter_keys text[])
returns table (idx int, user_known boolean, item_found boolean, now_voted boolean, new_count int) language plpgsql
-- Its statements touch only the rows of their toggles, so an index is always the way in. A hot
-- connection plans them once (force_generic_plan) and keeps the plans until the tables' statistics
-- change: planned while subscriptions was empty (a new project, a fresh database), a join to it
-- hashed the whole table on every batch, and a seq scan by key would read it all, which took half
-- the vote rate away for the seconds until autoanalyze replanned them.
set enable_seqscan = off
as $$
declare
  v_added boolean := webhooks_wanted(p_project, 'vote.added');
  v_removed boolean := webhooks_wanted(p_project, 'vote.removed');
  a_idx int[]; a_known boolean[]; a_found boolean[]; a_voted boolean[]; a_count int[];
  a_taken_items uuid[]; a_taken_users uuid[];
begin
  -- One voter twice on one item: the second toggle undoes the first, so they run one at a time.
  if exists (select 1 from unnest(p_items, p_external_ids, p_voter_keys) b(item, external_id, voter_key)
             group by b.item, b.external_id, b.voter_key having count(*) > 1) then
    return query select * from toggle_votes_in_turn(p_project, p_items, p_external_ids, p_voter_keys);
    return;
  end if;
  perform 1 from feedback f where f.id = any(p_items) and f.project_id = p_project order by f.id for key share;
  perform 1 from feedback_counters c where c.feedback_id = any(p_items) order by c.feedback_id for no key update;
  with t as (
    select b.i::int as i, b.item, b.external_id, coalesce(b.voter_key, e.id::text) as voter_key, e.id as end_user,
      (b.external_id is null or e.id is not null) as user_known
    from unnest(p_items, p_external_ids, p_voter_keys) with ordinality as b(item, external_id, voter_key, i)
    left join end_users e on b.external_id is not null and e.project_id = p_project and e.external_id = b.external_id
  ), k as materialized (
    -- The toggles to make: a known voter on an item of this project, and whether the vote is there.
    select t.*, c.vote_count as old_count, exists (select 1 from votes v where v.feedback_id = t.item and v.voter_key = t.voter_key) as had
    from t join feedback f on f.id = t.item and f.project_id = p_project join feedback_counters c on c.feedback_id = t.item
    where t.user_known
  ), gone as (
    delete from votes v using k where k.had and v.feedback_id = k.item and v.voter_key = k.voter_key returning v.feedback_id, v.voter_key
  ), made as (
    insert into votes (feedback_id, voter_key, end_user_id) select k.item, k.voter_key, k.end_user from k where not k.had
    on conflict (feedback_id, voter_key) do nothing returning feedback_id, voter_key
  ), done as (
    select k.*, m.feedback_id is not null as added
    from k
    left join gone g on g.feedback_id = k.item and g.voter_key = k.voter_key
    left join made m on m.feedback_id = k.item and m.voter_key = k.voter_key
    where g.feedback_id is not null or m.feedback_id is not null
  ), counted as (
    select d.*, d.old_count + (sum(case when d.added then 1 else -1 end) over (partition by d.item order by d.i))::int as count_after from done d
  ), moved as (
    update feedback_counters c set vote_count = c.vote_count + n.delta
    from (select d.item, sum(case when d.added then 1 else -1 end)::int as delta from done d group by d.item) n
    where c.feedback_id = n.item
  ), subscribed as (
    -- The voter is subscribed (bit 2) by the vote itself; a row that has the bit already is not rewritten.
    insert into subscriptions (feedback_id, end_user_id, project_id, reasons)
    select d.item, d.end_user, p_project, 2 from done d where d.added and d.end_user is not null
    on conflict (feedback_id, end_user_id) do update set reasons = subscriptions.reasons | 2 where subscriptions.reasons & 2 = 0
  ), events as (
    insert into webhook_events (project_id, type, data)
    select p_project, 'batch', jsonb_agg(jsonb_build_object(
      'type', case when c.added then 'vote.added' else 'vote.removed' end,
      'data', jsonb_build_object('feedback', jsonb_build_object('id', c.item, 'voteCount', c.count_after),
        'endUser', case when c.external_id is null then null else jsonb_build_object('externalId', c.external_id) end)
    ) order by c.item, c.i)
    from counted c where (c.added and v_added) or (not c.added and v_removed)
    having count(*) > 0
  )
  -- Unknown voter: user_known false. Unknown item: not found. A toggle that raced: no row (alone).
  select array_agg(t.i order by t.i), array_agg(t.user_known order by t.i),
    array_agg(case when t.user_known then c.i is not null end order by t.i),
    array_agg(case when t.user_known then coalesce(c.added, false) end order by t.i),
    array_agg(case when t.user_known then coalesce(c.count_after, 0) end order by t.i),
    array_agg(c.item) filter (where not c.added and c.end_user is not null),
    array_agg(c.end_user) filter (where not c.added and c.end_user is not null)
  into a_idx, a_known, a_found, a_voted, a_count, a_taken_items, a_taken_users
  from t left join counted c on c.i = t.i
  where not t.user_known or c.i is not null or not exists (select 1 from k where k.i = t.i);
  -- Taking the vote back takes back its reason only: the row goes when no reason is left, unless
  -- it records an unsubscribe, which must outlive a later vote. One row at a time, by its key: a
  -- join to the table's rows would be planned on its size when the connection first ran this.
  for j in 1 .. coalesce(cardinality(a_taken_items), 0) loop
    delete from subscriptions s where s.feedback_id = a_taken_items[j] and s.end_user_id = a_taken_users[j]
      and s.reasons & ~2 = 0 and s.unsubscribed_at is null;
    if not found then
      update subscriptions s set reasons = s.reasons & ~2
      where s.feedback_id = a_taken_items[j] and s.end_user_id = a_taken_users[j] and s.reasons & 2 <> 0;
    end if;
  end loop;
  return query select * from unnest(a_idx, a_known, a_found, a_voted, a_count);
end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function "toggle_votes"(uuid, uuid[], text[], text[]);`);
    this.addSql(`alter function "toggle_votes_in_turn"(uuid, uuid[], text[], text[]) rename to "toggle_votes";`);
  }
}
