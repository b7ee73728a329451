import { endUserCtes } from '../people/end-user.sql.js';
import type { Statement } from '../../db/pool.js';

/**
 * Spec 4.5 in one statement: the toggle itself is the `toggle_vote` function (migration 0004),
 * which inserts or deletes the vote and moves the counter in one transaction, exact under any
 * concurrency and without retries. Rows: item_found, now_voted, new_count; no row: not found.
 */
const TOGGLE_COLUMNS = 't.item_found, t.now_voted, t.new_count';

/**
 * $1 item, $2 project, $3 externalId, $4 given profile. The user is created (or updated) only
 * when the item exists, so a vote on an unknown item leaves no trace.
 */
export const TOGGLE_IDENTIFIED: Statement = {
  name: 'toggle_identified',
  text: `with ${endUserCtes(
    { project: '$2::uuid', externalId: '$3::text', profile: '$4' },
    'exists (select 1 from feedback_counters where feedback_id = $1::uuid and project_id = $2::uuid)',
  )}
  select ${TOGGLE_COLUMNS} from uid cross join lateral toggle_vote($1::uuid, $2::uuid, uid.id::text, uid.id) t`,
};

/**
 * The common case of TOGGLE_IDENTIFIED: a voter sent with no profile fields (only externalId), who
 * is known already. The user is only read, so the statement carries no upsert at all. No row back:
 * the user (or the item) is not there, and TOGGLE_IDENTIFIED runs instead. $1 item, $2 project,
 * $3 externalId.
 */
export const TOGGLE_KNOWN_USER: Statement = {
  name: 'toggle_known_user',
  text: `select ${TOGGLE_COLUMNS}
  from end_users e cross join lateral toggle_vote($1::uuid, $2::uuid, e.id::text, e.id) t
  where e.project_id = $2::uuid and e.external_id = $3::text`,
};

/**
 * Several toggles in one statement, one transaction (voteBatches in votes.ts): $1 project, and per toggle
 * the item ($2), the externalId of a known end user or null ($3), the anonymous voter key or null
 * ($4). One row per toggle, `idx` its 1-based place; `user_known` false: no such end user yet.
 */
export const TOGGLE_BATCH: Statement = {
  name: 'toggle_batch',
  text: `select t.idx, t.user_known, ${TOGGLE_COLUMNS} from toggle_votes($1::uuid, $2::uuid[], $3::text[], $4::text[]) t`,
};

/** $1 item, $2 project, $3 voter key of the anonymous caller. */
export const TOGGLE_ANONYMOUS: Statement = {
  name: 'toggle_anonymous',
  text: `select ${TOGGLE_COLUMNS} from toggle_vote($1::uuid, $2::uuid, $3::text, null) t`,
};

/**
 * Spec 4.6: the item's count and whether the voter has voted. $1 item, $2 project, and $3 the
 * external id of an end user (never created here: an unknown one has not voted) or, for
 * CHECK_ANONYMOUS, the caller's voter key. No row: not found.
 */
export const CHECK_IDENTIFIED: Statement = {
  name: 'check_identified',
  text: `select c.vote_count, exists (
      select 1 from votes v
      where v.feedback_id = c.feedback_id
        and v.voter_key = (select e.id::text from end_users e where e.project_id = c.project_id and e.external_id = $3)
    ) as voted
    from feedback_counters c where c.feedback_id = $1 and c.project_id = $2`,
};

export const CHECK_ANONYMOUS: Statement = {
  name: 'check_anonymous',
  text: `select c.vote_count, exists (select 1 from votes v where v.feedback_id = c.feedback_id and v.voter_key = $3) as voted
    from feedback_counters c where c.feedback_id = $1 and c.project_id = $2`,
};
