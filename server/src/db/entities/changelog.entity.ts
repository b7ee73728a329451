import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Feedback } from './feedback.entity.js';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/**
 * A changelog entry (docs/changelog.md): a title, a Markdown body, and a publication time. With no
 * `publishAt` it is a draft; readers show it once `publishAt <= now()`, so a scheduled entry
 * appears at its time without a job having to flip it. `announcedAt` is when the publication was
 * announced (`changelog.published`, and later the subscribers' notifications): set once, by the
 * publish call for an entry due at once, or by the jobs' sweep when a scheduled time comes.
 */
export const ChangelogEntry = defineEntity({
  name: 'ChangelogEntry',
  tableName: 'changelog_entries',
  indexes: [
    { name: 'changelog_entries_project_id_publish_at_index', properties: ['project', 'publishAt'] },
    // The sweep looks only at entries published but not yet announced: a handful, whatever the table's size.
    { name: 'changelog_entries_unannounced_index', expression: 'create index "changelog_entries_unannounced_index" on "changelog_entries" ("publish_at") where "announced_at" is null and "publish_at" is not null' },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    title: p.text(),
    body: p.text(),
    publishAt: p.datetime(3).nullable(),
    announcedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
    updatedAt: p.datetime(3).defaultRaw('now()'),
  },
});

/** An item an entry links to ("Shipped in …" on the item's page). Deleting either deletes the link. */
export const ChangelogLink = defineEntity({
  name: 'ChangelogLink',
  tableName: 'changelog_entry_items',
  indexes: [{ name: 'changelog_entry_items_feedback_id_index', properties: ['feedback'] }],
  uniques: [{ name: 'changelog_entry_items_entry_id_feedback_id_unique', properties: ['entry', 'feedback'] }],
  properties: {
    // An id of its own, as every row the transfer carries (ops/transfer/tables.ts).
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    entry: p.manyToOne(ChangelogEntry).deleteRule('cascade').updateRule('cascade'),
    feedback: p.manyToOne(Feedback).deleteRule('cascade').updateRule('cascade'),
    // The order the writer linked them in.
    position: p.integer(),
  },
});

export type ChangelogEntry = InferEntity<typeof ChangelogEntry>;
export type ChangelogLink = InferEntity<typeof ChangelogLink>;
