import { Migration } from '@mikro-orm/migrations';

/**
 * Subscriptions kept by the vote itself (issue 40, docs/notifications.md): `toggle_vote`, which
 * every vote runs (alone, or per toggle inside `toggle_votes`), subscribes an identified voter
 * (reason bit 2) in the statement that records the vote, and taking the vote back clears that bit,
 * deleting the row only when no reason and no unsubscribe is left. No round trip is added to the
 * vote; an anonymous vote (no end user) writes nothing more. Submissions and comments subscribe in
 * their own statements (domain/feedback/submit.sql.ts, domain/comments/comments.sql.ts).
 */
export class Migration0025SubscribeOnVote extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "toggle_vote"(p_item uuid, p_project uuid, p_voter text, p_end_user uuid, p_events boolean default null)
returns table (item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
declare
  v_count int;
  v_type text;
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
      update feedback_counters c set vote_count = c.vote_count + 1 where c.feedback_id = p_item returning c.vote_count into v_count;
      v_type := 'vote.added';
      -- The voter is subscribed (bit 2) by the vote itself; a row that has the bit already is not rewritten.
      if p_end_user is not null then
        insert into subscriptions (feedback_id, end_user_id, project_id, reasons) values (p_item, p_end_user, p_project, 2)
        on conflict (feedback_id, end_user_id) do update set reasons = subscriptions.reasons | 2
        where subscriptions.reasons & 2 = 0;
      end if;
      exit;
    end if;
    delete from votes v where v.feedback_id = p_item and v.voter_key = p_voter;
    if found then
      update feedback_counters c set vote_count = c.vote_count - 1 where c.feedback_id = p_item returning c.vote_count into v_count;
      v_type := 'vote.removed';
      -- Taking the vote back takes back its reason only: the row goes when no reason is left,
      -- unless it records an unsubscribe, which must outlive a later vote.
      if p_end_user is not null then
        delete from subscriptions s where s.feedback_id = p_item and s.end_user_id = p_end_user
          and s.reasons & ~2 = 0 and s.unsubscribed_at is null;
        if not found then
          update subscriptions s set reasons = s.reasons & ~2
          where s.feedback_id = p_item and s.end_user_id = p_end_user and s.reasons & 2 <> 0;
        end if;
      end if;
      exit;
    end if;
  end loop;
  if coalesce(p_events, webhooks_wanted(p_project, v_type)) then
    insert into webhook_events (project_id, type, data) values (p_project, v_type, jsonb_build_object('feedback', jsonb_build_object('id', p_item, 'voteCount', v_count),
      'endUser', (select jsonb_build_object('externalId', e.external_id) from end_users e where e.id = p_end_user)));
  end if;
  return query select true, v_type = 'vote.added', v_count;
end
$$;`);
  }

  override async down(): Promise<void> {
    // 000900's toggle, as it was: without the subscription.
    this.addSql(`create or replace function "toggle_vote"(p_item uuid, p_project uuid, p_voter text, p_end_user uuid, p_events boolean default null)
returns table (item_found boolean, now_voted boolean, new_count int) language plpgsql as $$
declare
  v_count int;
  v_type text;
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
      update feedback_counters c set vote_count = c.vote_count + 1 where c.feedback_id = p_item returning c.vote_count into v_count;
      v_type := 'vote.added';
      exit;
    end if;
    delete from votes v where v.feedback_id = p_item and v.voter_key = p_voter;
    if found then
      update feedback_counters c set vote_count = c.vote_count - 1 where c.feedback_id = p_item returning c.vote_count into v_count;
      v_type := 'vote.removed';
      exit;
    end if;
  end loop;
  if coalesce(p_events, webhooks_wanted(p_project, v_type)) then
    insert into webhook_events (project_id, type, data) values (p_project, v_type, jsonb_build_object('feedback', jsonb_build_object('id', p_item, 'voteCount', v_count),
      'endUser', (select jsonb_build_object('externalId', e.external_id) from end_users e where e.id = p_end_user)));
  end if;
  return query select true, v_type = 'vote.added', v_count;
end
$$;`);
  }
}
