import type { Statement } from '../../db/pool.js';
import { isoTimestamp, jsonArrayText, jsonObject } from '../../db/json.sql.js';
import { subscriptionInForce } from '../subscriptions/reasons.js';

/** Voters on one page of the team's item page. */
export const VOTERS_PAGE_SIZE = 20;

/**
 * Who posted an item and who votes for it, for the team's item page (web/team/items.ts): what only
 * the team may see (the submitter's external id and email, each identified voter's), never the
 * board. One statement, one row (none: no such item in the project):
 * - `submitter`: `{ externalId, name, email }`, or null for an anonymous item (or one whose
 *   submitter was erased);
 * - `identified` and `anonymous`: how many votes are an end user's, and how many an anonymous
 *   caller's (votes.end_user_id is null: a hashed address, which names nobody);
 * - `subscribers`: how many people are told when the item moves (domain/subscriptions/subscriptions.sql.ts);
 * - `voters`: one page of the identified voters, newest vote first, each `{ externalId, name,
 *   email, votedAt }`.
 * $1 item, $2 project, $3 how many (VOTERS_PAGE_SIZE), $4 how many to skip. The counts and the page
 * each walk the item's votes by the (feedback_id, voter_key) unique index.
 */
export const ITEM_PEOPLE: Statement = {
  name: 'team_item_people',
  text: `select
    case when u.id is null then null else ${jsonObject([['externalId', 'u.external_id'], ['name', 'u.name'], ['email', 'u.email']])}::text end as submitter,
    (select count(*) from votes v where v.feedback_id = f.id and v.end_user_id is not null)::int as identified,
    (select count(*) from votes v where v.feedback_id = f.id and v.end_user_id is null)::int as anonymous,
    (select count(*) from subscriptions s join end_users e on e.id = s.end_user_id where s.feedback_id = f.id and ${subscriptionInForce('s', 'e')})::int as subscribers,
    (
      select ${jsonArrayText(jsonObject([['externalId', 'p.external_id'], ['name', 'p.name'], ['email', 'p.email'], ['votedAt', isoTimestamp('p.created_at')]]), 'p.created_at desc, p.id desc')}
      from (
        select e.external_id, e.name, e.email, v.created_at, v.id
        from votes v join end_users e on e.id = v.end_user_id
        where v.feedback_id = f.id
        order by v.created_at desc, v.id desc
        limit $3 offset $4
      ) p
    ) as voters
  from feedback f left join end_users u on u.id = f.end_user_id
  where f.id = $1 and f.project_id = $2`,
};
