import type { Statement } from '../../db/pool.js';
import { isoTimestamp, jsonArrayText, jsonObject } from '../../db/json.sql.js';

/*
 * The widget's own statements, beside the API's and the board's it reuses (the list, the similar
 * items, the changelog's page, the token exchange): what nobody else asks.
 */

/** A project whose widget is on: what the panel needs, with its allowed host origins and its moderation. $1 slug. */
export const WIDGET_PROJECT: Statement = {
  name: 'widget_project',
  text: `select id::text, slug, name, voter_salt, identity_secret, widget_origins, board_locale, board_default_sort, moderation, moderation_hold_links
    from projects where slug = $1 and widget_enabled`,
};

/**
 * "My requests": the items end user $1 of project $2 submitted or votes for, newest first (at
 * most 50), each with its last status change and last public team reply, and whether either came
 * after the end user's previous visit (unread). The visit is recorded in the same statement: the
 * update reads the previous time from the row as it was (the self-join's `old`), so one round
 * trip both answers and marks everything read for the next visit.
 */
export const MY_REQUESTS: Statement = {
  name: 'widget_my_requests',
  text: `with seen as (
    update end_users e set widget_seen_at = now() from end_users old
    where e.id = old.id and e.id = $1::uuid and e.project_id = $2::uuid
    returning old.widget_seen_at as before
  ), mine as (
    select f.id, f.title, f.status, f.created_at, c.vote_count, f.end_user_id is not distinct from $1::uuid as submitted,
      exists (select 1 from votes v where v.feedback_id = f.id and v.end_user_id = $1::uuid) as voted,
      (select max(h.changed_at) from feedback_status_changes h where h.feedback_id = f.id) as changed_at,
      (select max(r.created_at) from comments r where r.feedback_id = f.id and r.is_team and not r.is_internal) as replied_at
    from feedback f join feedback_counters c on c.feedback_id = f.id
    where f.project_id = $2::uuid and (f.end_user_id = $1::uuid or f.id in (select v.feedback_id from votes v where v.end_user_id = $1::uuid))
    order by f.created_at desc limit 50
  )
  select ${jsonArrayText(
    jsonObject([
      ['id', 'm.id'],
      ['title', 'm.title'],
      ['status', 'm.status'],
      ['voteCount', 'm.vote_count'],
      ['submitted', 'm.submitted'],
      ['voted', 'm.voted'],
      ['changedAt', isoTimestamp('m.changed_at')],
      ['repliedAt', isoTimestamp('m.replied_at')],
      ['unreadStatus', 'm.changed_at > coalesce((select before from seen), \'-infinity\')'],
      ['unreadReply', 'm.replied_at > coalesce((select before from seen), \'-infinity\')'],
    ]),
    'm.created_at desc',
  )} as items from mine m`,
};
