import type { EndUserInput } from '@feedbackd/sdk/contract';
import { endUserCtes } from '../people/end-user.sql.js';
import type { Statement } from '../../db/pool.js';
import { isoTimestamp, jsonArrayText, jsonObject } from '../../db/json.sql.js';
import { reasonNames, SUBSCRIPTION_REASONS, subscriptionInForce, userIsSubscribed } from './reasons.js';
import type { Statements } from '../../db/pool.js';

/*
 * Who is told when an item moves (issue 40, docs/notifications.md, "Subscriptions"). Taking part
 * subscribes by itself, inside the statement that records it (the vote's toggle_vote, domain/feedback/submit.sql.ts,
 * domain/comments/comments.sql.ts); these are the explicit choices and the reads. One statement each.
 */

const CHOSE = SUBSCRIPTION_REASONS.chose;

/** $1 item, $2 project, $3 externalId, $4 given profile: the end user is upserted as a vote does. */
const SUBSCRIBE: Statement = {
  name: 'subscribe',
  text: `with f as (
    select f.id from feedback f where f.id = $1::uuid and f.project_id = $2::uuid for key share
  ), ${endUserCtes({ project: '$2::uuid', externalId: '$3::text', profile: '$4' }, 'exists (select 1 from f)')},
  s as (
    insert into subscriptions (feedback_id, end_user_id, project_id, reasons)
    select f.id, uid.id, $2::uuid, ${CHOSE} from f cross join uid
    on conflict (feedback_id, end_user_id) do update set reasons = subscriptions.reasons | ${CHOSE}, unsubscribed_at = null
  )
  select exists (select 1 from f) as item_found`,
};

/**
 * Subscribes an end user to an item by choice (reason 8): an earlier unsubscribe from the item is
 * undone, and the choice holds even if they left the whole project before. Answers false when the
 * item is not in the project.
 */
export async function subscribe(db: Statements, input: { projectId: string; feedbackId: string; endUser: EndUserInput }): Promise<boolean> {
  const [row] = await db.query<{ item_found: boolean }>(SUBSCRIBE.name, SUBSCRIBE.text, [input.feedbackId, input.projectId, input.endUser.externalId, JSON.stringify(input.endUser)]);
  return row!.item_found;
}

/** Who: the end user's own id (a signed link carries it) or their externalId (the API). */
type Who = { endUserId: string } | { externalId: string };

function unsubscribeStatement(by: 'id' | 'external', scope: 'item' | 'project'): Statement {
  const target = `target as (
    select e.id from end_users e where e.project_id = $1::uuid and ${by === 'id' ? 'e.id = $2::uuid' : 'e.external_id = $2::text'}
  )`;
  // From one item: the row stays (reason 8 taken back) as a record that outlives taking part again.
  const item = `with ${target}, f as (
    select f.id from feedback f where f.id = $3::uuid and f.project_id = $1::uuid
  ), w as (
    insert into subscriptions (feedback_id, end_user_id, project_id, reasons, unsubscribed_at)
    select f.id, t.id, $1::uuid, 0, now() from f cross join target t
    on conflict (feedback_id, end_user_id) do update
    set reasons = subscriptions.reasons & ~${CHOSE}, unsubscribed_at = coalesce(subscriptions.unsubscribed_at, excluded.unsubscribed_at)
  )
  select exists (select 1 from f) as item_found, exists (select 1 from target) as user_found`;
  // From the whole project: earlier choices of single items go too, so none of them overrides it.
  const project = `with ${target}, w as (
    update end_users x set unsubscribed_at = coalesce(x.unsubscribed_at, now()) from target t where x.id = t.id
  ), c as (
    update subscriptions s set reasons = s.reasons & ~${CHOSE} from target t
    where s.end_user_id = t.id and s.reasons & ${CHOSE} <> 0
  )
  select true as item_found, exists (select 1 from target) as user_found`;
  return { name: `unsubscribe_${by}_${scope}`, text: scope === 'item' ? item : project };
}

const UNSUBSCRIBE = {
  id: { item: unsubscribeStatement('id', 'item'), project: unsubscribeStatement('id', 'project') },
  external: { item: unsubscribeStatement('external', 'item'), project: unsubscribeStatement('external', 'project') },
};

/** What an unsubscribe found: `item` false, no such item in the project; `user` false, no such end user. */
export interface UnsubscribeResult {
  item: boolean;
  user: boolean;
}

/**
 * Unsubscribes an end user from one item (`feedbackId`) or, with `feedbackId` null, from the whole
 * project (`end_users.unsubscribed_at`). Either sticks: voting or commenting again does not undo it.
 * `endUserId` is the end user's own id (as a signed unsubscribe link carries it); the API names
 * the person by externalId instead.
 */
export async function unsubscribe(db: Statements, input: { projectId: string; feedbackId: string | null } & Who): Promise<UnsubscribeResult> {
  const byId = 'endUserId' in input;
  const statement = UNSUBSCRIBE[byId ? 'id' : 'external'][input.feedbackId === null ? 'project' : 'item'];
  const values: unknown[] = [input.projectId, byId ? input.endUserId : input.externalId];
  if (input.feedbackId !== null) values.push(input.feedbackId);
  const [row] = await db.query<{ item_found: boolean; user_found: boolean }>(statement.name, statement.text, values);
  return { item: row!.item_found, user: row!.user_found };
}

/** $1 item, $2 project, $3 externalId. No row: no such item. */
const IS_SUBSCRIBED: Statement = {
  name: 'is_subscribed',
  text: `select ${userIsSubscribed('$3::text')} as subscribed
    from feedback f where f.id = $1::uuid and f.project_id = $2::uuid`,
};

/** Whether the end user (by externalId) is told about the item; undefined when the item is not in the project. */
export async function isSubscribed(db: Statements, input: { projectId: string; feedbackId: string; externalId: string }): Promise<boolean | undefined> {
  const [row] = await db.query<{ subscribed: boolean }>(IS_SUBSCRIBED.name, IS_SUBSCRIBED.text, [input.feedbackId, input.projectId, input.externalId]);
  return row?.subscribed;
}

/** One subscriber as the secret key's list shows them. */
export interface SubscriberRow {
  externalId: string;
  email: string | null;
  name: string | null;
  reasons: string[];
  subscribedAt: string;
}

/**
 * $1 item, $2 project, $3 limit, $4 offset: the subscribers in force, oldest first, and their
 * number. No row: no such item. The end user index (subscriptions_end_user_id_index) is not needed
 * here: the primary key starts with the item.
 */
const LIST_SUBSCRIBERS: Statement = {
  name: 'list_subscribers',
  text: `with m as materialized (
    select e.external_id, e.email, e.name, s.reasons, s.created_at
    from subscriptions s join end_users e on e.id = s.end_user_id
    where s.feedback_id = $1::uuid and ${subscriptionInForce('s', 'e')}
  ), p as (
    select * from m order by m.created_at, m.external_id limit $3 offset $4
  )
  select (select count(*) from m)::int as total, (
    select ${jsonArrayText(
      jsonObject([
        ['externalId', 'p.external_id'],
        ['email', 'p.email'],
        ['name', 'p.name'],
        ['reasons', 'p.reasons'],
        ['subscribedAt', isoTimestamp('p.created_at')],
      ]),
      'p.created_at, p.external_id',
    )} from p
  ) as items
  from feedback f where f.id = $1::uuid and f.project_id = $2::uuid`,
};

/** A page of an item's subscribers in force, and how many there are; undefined when the item is not in the project. */
export async function listSubscribers(
  db: Statements,
  input: { projectId: string; feedbackId: string; page: number; limit: number },
): Promise<{ items: SubscriberRow[]; total: number } | undefined> {
  const [row] = await db.query<{ total: number; items: string }>(LIST_SUBSCRIBERS.name, LIST_SUBSCRIBERS.text, [
    input.feedbackId,
    input.projectId,
    input.limit,
    (input.page - 1) * input.limit,
  ]);
  if (!row) return undefined;
  const items = (JSON.parse(row.items) as (Omit<SubscriberRow, 'reasons'> & { reasons: number })[]).map((s) => ({ ...s, reasons: reasonNames(s.reasons) }));
  return { items, total: row.total };
}

/**
 * $1 the duplicate, $2 the target of a merge: the duplicate's subscribers become the target's,
 * reasons OR-ed with any they had there, an unsubscribe from either kept. The duplicate's own rows
 * go with it (on delete cascade). Run inside the merge's transaction (domain/items/merge.service.ts).
 */
export const MOVE_SUBSCRIBERS = `insert into subscriptions (feedback_id, end_user_id, project_id, reasons, unsubscribed_at, created_at)
  select $2::uuid, s.end_user_id, s.project_id, s.reasons, s.unsubscribed_at, s.created_at from subscriptions s where s.feedback_id = $1::uuid
  on conflict (feedback_id, end_user_id) do update
  set reasons = subscriptions.reasons | excluded.reasons, unsubscribed_at = coalesce(subscriptions.unsubscribed_at, excluded.unsubscribed_at)`;

/** $1 item: how many subscribers are told about it (the team's item page). */
export const COUNT_SUBSCRIBERS = `select count(*)::int as count from subscriptions s join end_users e on e.id = s.end_user_id
  where s.feedback_id = $1::uuid and ${subscriptionInForce('s', 'e')}`;
