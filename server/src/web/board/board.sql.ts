import type { Statement } from '../../db/pool.js';
import { isoTimestamp, jsonArrayText, jsonObject } from '../../db/json.sql.js';

/*
 * The board's own statements, beside the API's it reuses (the list, with which items the visitor
 * votes for; the detail; the vote check): what the API has no question for.
 */

// The token exchange is the widget's too (domain/people/), and so are the similar items' votes (web/kit).
export { EXCHANGE_TOKEN } from '../../domain/people/visitor-tokens.sql.js';
export { VOTED_AMONG } from '../kit/similar.sql.js';


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
 * The published changelog entries that link item $1 of project $2, newest first: the item page's
 * "Shipped in …" (domain/changelog/changelog.sql.ts writes them).
 */
export const SHIPPED_IN = {
  name: 'board_shipped_in',
  text: `select coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'title', e.title) order by e.publish_at desc, e.id desc), '[]'::jsonb)::text as entries
    from changelog_entry_items l join changelog_entries e on e.id = l.entry_id
    where l.feedback_id = $1::uuid and e.project_id = $2::uuid and e.publish_at <= now()`,
};
