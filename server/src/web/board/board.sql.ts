import type { Statement } from '../../db/pool.js';
import { upsertEndUser } from '../../api/end-user.sql.js';
import { isoTimestamp, jsonArrayText, jsonObject } from '../../db/json.sql.js';

/*
 * The board's own statements, beside the API's it reuses (the list, with which items the visitor
 * votes for; the detail; the vote check): what the API has no question for.
 */

/**
 * A visitor's token exchanged for their session, in one statement: the token's hash is spent (a
 * second use inserts nothing) and, only when it was not spent before, the end user is created or
 * updated with the token's profile, exactly as identify does (api/end-user.sql.ts). Returns
 * `fresh` false for a token used before; else the end user's id and name. $1 project, $2 externalId,
 * $3 token hash, $4 the token's expiry (Unix seconds), $5 the profile as JSON.
 */
export const EXCHANGE_TOKEN: Statement = {
  name: 'board_exchange_token',
  text: `with spent as (
    insert into board_spent_tokens (token_hash, expires_at) values ($3, to_timestamp($4)) on conflict do nothing returning 1
  ), u as (
    ${upsertEndUser({ project: '$1::uuid', externalId: '$2::text', profile: '$5' }, { where: 'exists (select 1 from spent)', returning: 'id, name' })}
  )
  select exists (select 1 from spent) as fresh, (select id::text from u) as end_user_id, (select name from u) as name`,
};

/** Spent tokens past their expiry, which could not be used again anyway (jobs/machine-jobs.ts). */
export const SWEEP_SPENT_TOKENS = 'delete from board_spent_tokens where expires_at < now()';

/**
 * An item's status history for the public page: from, to and when, oldest first (by id, the order
 * the item's lock let the changes happen), as a JSON array. Not who made them nor with which key:
 * those are the team's (DETAIL_WITH_HISTORY). $1 item, $2 project; an item of another project has none.
 */
export const STATUS_HISTORY: Statement = {
  name: 'board_status_history',
  text: `select ${jsonArrayText(
    jsonObject([
      ['from', 'h.from_status'],
      ['to', 'h.to_status'],
      ['changedAt', isoTimestamp('h.changed_at')],
    ]),
    'h.id',
  )} as history
  from feedback_status_changes h join feedback f on f.id = h.feedback_id
  where h.feedback_id = $1 and f.project_id = $2`,
};

/**
 * Which of a few items (the submit form's similar items) the voter votes for, as a JSON array of
 * ids: one probe of the votes' unique index per item, as the list's `voted` does. $1 the item ids,
 * $2 the voter key (an end user's id, or the anonymous visitor's hash).
 */
export const VOTED_AMONG: Statement = {
  name: 'board_voted_among',
  text: `select coalesce(json_agg(v.feedback_id), '[]')::text as voted from votes v where v.feedback_id = any($1::uuid[]) and v.voter_key = $2`,
};

/**
 * The published changelog entries that link item $1 of project $2, newest first: the item page's
 * "Shipped in …" (admin/changelog/changelog.sql.ts writes them).
 */
export const SHIPPED_IN = {
  name: 'board_shipped_in',
  text: `select coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'title', e.title) order by e.publish_at desc, e.id desc), '[]'::jsonb)::text as entries
    from changelog_entry_items l join changelog_entries e on e.id = l.entry_id
    where l.feedback_id = $1::uuid and e.project_id = $2::uuid and e.publish_at <= now()`,
};
