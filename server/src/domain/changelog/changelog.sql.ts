import { isoTimestamp } from '../../db/json.sql.js';
import { notifySubscribers } from '../events/outbox.sql.js';

/*
 * The changelog's statements (docs/changelog.md). An entry is visible once `publish_at <= now()`:
 * every reader filters on that, so a scheduled entry appears at its time with nothing to flip.
 * Entries are built as JSON in PostgreSQL, as the API and the webhook show them.
 */

/** An entry's state, from its publication time. */
const STATE = `case when e.publish_at is null then 'draft' when e.publish_at <= now() then 'published' else 'scheduled' end`;

/** The linked items of entry `e`, in the order the writer gave them. */
const LINKED_ITEMS = `coalesce((select jsonb_agg(jsonb_build_object('id', f.id, 'title', f.title, 'status', f.status) order by l.position)
    from changelog_entry_items l join feedback f on f.id = l.feedback_id where l.entry_id = e.id), '[]'::jsonb)`;

/** Entry `e` as ChangelogEntrySchema shows it (sdk/src/contract/changelog.ts), as jsonb. */
export const ENTRY_JSON = `jsonb_build_object(
    'id', e.id, 'title', e.title, 'body', e.body, 'state', ${STATE},
    'publishedAt', ${isoTimestamp('e.publish_at')}, 'items', ${LINKED_ITEMS},
    'createdAt', ${isoTimestamp('e.created_at')}, 'updatedAt', ${isoTimestamp('e.updated_at')})`;

/** One entry of a project: $1 project, $2 entry. */
export const ENTRY = `select ${ENTRY_JSON}::text as body from changelog_entries e where e.project_id = $1::uuid and e.id = $2::uuid`;

/**
 * A page of a project's entries, with the count of all: $1 project, $2 true for the published
 * ones only (a public key, the board), $3 limit, $4 offset. Newest publication first; for a secret
 * key drafts come first (the writer's work in progress), then scheduled ones, latest first.
 */
export const ENTRY_PAGE = `with listed as (
    select e.* from changelog_entries e
    where e.project_id = $1::uuid and (not $2::boolean or e.publish_at <= now())
  )
  select (select count(*) from listed)::int as total,
    coalesce((select jsonb_agg(p.entry order by p.n) from (
      select ${ENTRY_JSON} as entry, row_number() over (order by e.publish_at desc nulls first, e.created_at desc, e.id desc) as n
      from listed e order by e.publish_at desc nulls first, e.created_at desc, e.id desc limit $3 offset $4
    ) p), '[]'::jsonb)::text as items`;

/** Of ids $2 (uuid[]), those that are items of project $1. */
export const ITEMS_OF_PROJECT = `select id::text as id from feedback where project_id = $1::uuid and id = any($2::uuid[])`;

/**
 * Replacing the links of an entry: DELETE_LINKS then INSERT_LINKS, two statements (in one
 * statement the insert would still see the rows the delete removes, and conflict with them).
 * $1 entry, $2 items (uuid[], in order).
 */
export const DELETE_LINKS = `delete from changelog_entry_items where entry_id = $1::uuid`;
export const INSERT_LINKS = `insert into changelog_entry_items (entry_id, feedback_id, position)
  select $1::uuid, id, n::int from unnest($2::uuid[]) with ordinality as t(id, n)`;

/** The ids of the items entry $1 links to, in order. */
export const LINKED_IDS = `select feedback_id::text as id from changelog_entry_items where entry_id = $1::uuid order by position`;

/**
 * The announcement of entries whose publication time has come and that were not announced yet:
 * marks them (`announced_at`) and writes `changelog.published` for each when the project wants
 * it, in one statement, so an entry is announced once whoever runs it (the publish call for an
 * entry due at once, the jobs' sweep for a scheduled one, on any machine): a second runner skips
 * the rows the first has locked, and finds them announced afterwards. $1: one entry, or null for
 * every due entry. Returns the announced entries (project, id).
 *
 * Publishing also tells the subscribers of the linked items (`notified`, docs/notifications.md),
 * each person once across the entry's items, with the announcement.
 */
export const ANNOUNCE_DUE = `with due as (
    update changelog_entries e set announced_at = now()
    where e.id in (
      select id from changelog_entries
      where announced_at is null and publish_at is not null and publish_at <= now() and ($1::uuid is null or id = $1::uuid)
      order by publish_at limit 100 for update skip locked
    )
    returning e.*
  ), events as (
    insert into webhook_events (project_id, type, data)
    select e.project_id, 'changelog.published', jsonb_build_object('entry', jsonb_build_object(
      'id', e.id, 'title', e.title, 'body', e.body, 'publishedAt', ${isoTimestamp('e.publish_at')}, 'items', ${LINKED_ITEMS}))
    from due e where webhooks_wanted(e.project_id, 'changelog.published') order by e.publish_at, e.id
  ), notified as materialized (
    select ${notifySubscribers('e.project_id', 'array(select l.feedback_id from changelog_entry_items l where l.entry_id = e.id)', 'null', 'shipped', `jsonb_build_object('entry', jsonb_build_object(
      'id', e.id, 'title', e.title, 'body', e.body, 'publishedAt', ${isoTimestamp('e.publish_at')}, 'items', ${LINKED_ITEMS}))`)} as n
    from due e order by e.publish_at, e.id
  )
  select project_id::text as "projectId", id::text as id, (select count(*) from notified)::int as notified from due`;
