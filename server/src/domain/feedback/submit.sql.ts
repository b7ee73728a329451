import { counterRowsOfNewItems } from '../../db/counters.sql.js';
import { endUserCtes, profileUnchanged } from '../people/end-user.sql.js';
import type { Statement } from '../../db/pool.js';
import { itemFields, jsonObject } from '../../db/json.sql.js';
import { feedbackCreatedEvents } from '../events/outbox.sql.js';
import { notBlocked } from '../moderation/posting-blocks.sql.js';
import { subscribeRows } from '../subscriptions/reasons.js';

/**
 * Spec 4.2, submit: each submission inserts the item, its counters (voteCount 1), the
 * submitter's vote and, when the project wants it, its `feedback.created` event, in one statement. Alone, an identified submitter is upserted on the way;
 * in a batch (submitBatches in feedback.route.ts), several submissions share one statement and one transaction.
 */

/** The new item as FeedbackListItem JSON: no comments, and the submitter's vote. */
function submittedItem(user: string | null): string {
  return `${jsonObject(itemFields({ feedback: 'f', voteCount: '1', commentCount: '0', user }))}::text as body`;
}

/**
 * The counters, the submitter's vote and, for an identified submitter, their subscription (they
 * submitted and voted: issue 40) of the items in `f`; `voterKey` is an expression over `f` and
 * `from` (approval's too: domain/moderation/moderation.sql.ts).
 */
export function countersAndVote(voterKey: string, from: string): string {
  return `c as (
    ${counterRowsOfNewItems('f i', { votes: '1', comments: '0' })}
  ), v as (
    insert into votes (feedback_id, voter_key, end_user_id) select f.id, ${voterKey}, f.end_user_id from ${from}
  ), s as (
    ${subscribeRows('f', { item: 'f.id', endUser: 'f.end_user_id', project: 'f.project_id' }, ['submitted', 'voted'])}
  )`;
}

/**
 * By an identified user: upsert the submitter, then the item. $1 project, $2 title,
 * $3 description, $4 type, $5 metadata, $6 externalId, $7 given profile. No row: the team
 * blocked the submitter (docs/moderation.md).
 */
export const SUBMIT_IDENTIFIED: Statement = {
  name: 'submit_identified',
  text: `with ${endUserCtes({ project: '$1::uuid', externalId: '$6::text', profile: '$7' })},
  f as (
    insert into feedback (project_id, end_user_id, title, description, type, metadata)
    select $1::uuid, uid.id, $2::text, $3::text, $4::text, $5::jsonb from uid where ${notBlocked('$1::uuid', 'uid.id::text')}
    returning *
  ), ${countersAndVote('f.end_user_id::text', 'f')}, w as (
    ${feedbackCreatedEvents('f', '$6::text')}
  )
  select ${submittedItem('uid')} from f cross join uid`,
};

/**
 * Without `endUser`: the submission is the caller's anonymous vote. $6 voter key, $7 whether a
 * secret key sends it (the team's own: a block on the address's anonymous key does not stop it).
 * No row: that key is blocked.
 */
export const SUBMIT_ANONYMOUS: Statement = {
  name: 'submit_anonymous',
  text: `with f as (
    insert into feedback (project_id, end_user_id, title, description, type, metadata)
    select $1::uuid, null, $2::text, $3::text, $4::text, $5::jsonb where $7::boolean or ${notBlocked('$1::uuid', '$6::text')}
    returning *
  ), ${countersAndVote('$6::text', 'f')}, w as (
    ${feedbackCreatedEvents('f', 'null::text')}
  )
  select ${submittedItem(null)} from f`,
};

/**
 * Several submissions to project $1 in one statement; per submission the title ($2), description
 * ($3), type ($4), metadata ($5), and either the submitter's externalId ($6) and given profile
 * ($7) or the anonymous voter key ($8). Each item's id is made first, so that its row can be told
 * apart from the others' whatever order the inserts take.
 *
 * End users are only read here: a submission whose submitter is unknown, whose profile would
 * change a stored field, or whose author is blocked, is left out and answers no row, and the caller submits it alone (with
 * the upsert). So two submissions of one user can share a batch, and no batch waits on another's
 * end-user row lock. One row per submission made: `idx`, its 1-based place, and `body`.
 */
export const SUBMIT_BATCH: Statement = {
  name: 'submit_batch',
  text: `with b as materialized (
    select b.i, time_ordered_uuid() as id, b.title, b.description, b.type, b.metadata, b.external_id, b.profile, b.voter_key
    from unnest($2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::jsonb[], $8::text[])
      with ordinality as b(title, description, type, metadata, external_id, profile, voter_key, i)
  ), r as materialized (
    select b.i, b.id, b.title, b.description, b.type, b.metadata, b.voter_key, b.external_id, e.id as user_id, e.name, e.avatar_url
    from b left join end_users e on e.project_id = $1::uuid and e.external_id = b.external_id
    where (b.external_id is null or (e.id is not null and ${profileUnchanged('b.profile', 'e')}))
      and ${notBlocked('$1::uuid', 'coalesce(e.id::text, b.voter_key)')}
  ), f as (
    insert into feedback (id, project_id, end_user_id, title, description, type, metadata)
    select r.id, $1::uuid, r.user_id, r.title, r.description, r.type, r.metadata from r order by r.id
    returning *
  ), ${countersAndVote('coalesce(f.end_user_id::text, r.voter_key)', 'f join r on r.id = f.id')}, w as (
    ${feedbackCreatedEvents('f join r on r.id = f.id', 'r.external_id', true)}
  )
  select r.i as idx, ${submittedItem('r')} from f join r on r.id = f.id`,
};
