import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangelogEntry as EntryView } from '@feedbackd/sdk/contract';
import { transaction } from '../../db/conflicts.js';
import { ChangelogEntry } from '../../db/entities/changelog.entity.js';
import { transactionSql } from '../../db/request-transaction.js';
import { isUuid } from '../../db/uuid.js';
import { isItemGone } from '../errors.js';
import { updateStatuses, type ChangedBy } from '../items/items.service.js';
import { ANNOUNCE_DUE, ENTRY, ITEMS_OF_PROJECT, LINKED_IDS, DELETE_LINKS, INSERT_LINKS } from './changelog.sql.js';

/*
 * The changelog's writes (docs/changelog.md), one transaction each, called alike by the API
 * (routes/moderation.routes.ts) and the CLI through it. Publishing sets the entry's time; the announcement
 * (`changelog.published`) follows in the same transaction when that time has come, or from the
 * jobs' sweep when it comes later (announce.ts): either way once.
 */

/** A link to something that is not an item of the project: the caller's input is wrong (400). */
export class UnknownLinksError extends Error {
  constructor(readonly ids: readonly string[]) {
    super(`No feedback item ${ids.join(', ')} in this project`);
  }
}

/** What an entry is written with. */
export interface EntryFields {
  title: string;
  body: string;
  links?: readonly string[] | undefined;
}

/** When to publish (`at` absent: now), and whether to move the linked items to `completed` then. */
export interface Publication {
  at?: string | undefined;
  complete?: boolean | undefined;
}

/** Creates an entry, and publishes it when `publication` says so, in one transaction. */
export async function createEntry(em: EntityManager, projectId: string, fields: EntryFields, publication: Publication | undefined, by: ChangedBy): Promise<EntryView> {
  return transaction(em, async (tx) => {
    const links = await checkedLinks(tx, projectId, fields.links ?? []);
    const entry = tx.create(ChangelogEntry, { project: projectId, title: fields.title, body: fields.body });
    await tx.flush();
    await replaceLinks(tx, entry.id, links);
    if (publication) await publishIn(tx, projectId, entry.id, publication, by);
    return (await entryView(tx, projectId, entry.id))!;
  });
}

/** Changes an entry's title, body or links (the list replaced whole). Undefined when the project has no such entry. */
export async function updateEntry(em: EntityManager, projectId: string, id: string, changes: Partial<EntryFields>): Promise<EntryView | undefined> {
  return transaction(em, async (tx) => {
    const fields = Object.fromEntries(Object.entries({ title: changes.title, body: changes.body }).filter(([, value]) => value !== undefined));
    if ((await tx.nativeUpdate(ChangelogEntry, { id, project: projectId }, { ...fields, updatedAt: new Date() })) === 0) return undefined;
    if (changes.links) await replaceLinks(tx, id, await checkedLinks(tx, projectId, changes.links));
    return entryView(tx, projectId, id);
  });
}

/**
 * Publishes an entry now or at `publication.at`. An entry already published stays as it is
 * (published once: no second announcement); a scheduled one may be moved. Undefined when the
 * project has no such entry.
 */
export async function publishEntry(em: EntityManager, projectId: string, id: string, publication: Publication, by: ChangedBy): Promise<EntryView | undefined> {
  return transaction(em, async (tx) => {
    // Under the entry's lock: two publish calls at once publish it once.
    const [row] = await transactionSql(tx).query<{ published: boolean | null }>('', 'select publish_at <= now() as published from changelog_entries where id = $1::uuid and project_id = $2::uuid for update', [id, projectId]);
    if (!row) return undefined;
    if (!row.published) await publishIn(tx, projectId, id, publication, by);
    return entryView(tx, projectId, id);
  });
}

/** Deletes an entry with its links (its items stay). False when the project has no such entry. */
export async function deleteEntry(em: EntityManager, projectId: string, id: string): Promise<boolean> {
  return (await em.nativeDelete(ChangelogEntry, { id, project: projectId })) > 0;
}

/** An entry as the API shows it, read in `tx`. */
async function entryView(tx: EntityManager, projectId: string, id: string): Promise<EntryView | undefined> {
  const [row] = await transactionSql(tx).query<{ body: string }>('', ENTRY, [projectId, id]);
  return row ? (JSON.parse(row.body) as EntryView) : undefined;
}

/**
 * Sets the entry's publication time in the open transaction `tx`, moves its items to `completed`
 * when asked (through the one status change of items.service.ts: history and events with it), and
 * announces it at once when its time has come.
 */
async function publishIn(tx: EntityManager, projectId: string, id: string, publication: Publication, by: ChangedBy): Promise<void> {
  // Now, to the millisecond the column keeps: rounded up, it would still be to come for this very transaction.
  await transactionSql(tx).query('', "update changelog_entries set publish_at = coalesce($2::timestamptz, date_trunc('milliseconds', now())), updated_at = now() where id = $1::uuid", [id, publication.at ?? null]);
  if (publication.complete) {
    const linked = await transactionSql(tx).query<{ id: string }>('', LINKED_IDS, [id]);
    if (linked.length > 0) await updateStatuses(tx, projectId, linked.map((row) => row.id), 'completed', by);
  }
  await transactionSql(tx).query('', ANNOUNCE_DUE, [id]);
}

/** Replaces the entry's links; an item deleted since it was checked is an unknown link, as if the call had come a moment later. */
async function replaceLinks(tx: EntityManager, id: string, links: readonly string[]): Promise<void> {
  try {
    await transactionSql(tx).query('', DELETE_LINKS, [id]);
    await transactionSql(tx).query('', INSERT_LINKS, [id, [...links]]);
  } catch (error) {
    if (isItemGone(error)) throw new UnknownLinksError(links);
    throw error;
  }
}

/** The links, deduplicated in order, once each is known to be an item of the project; else UnknownLinksError. */
async function checkedLinks(tx: EntityManager, projectId: string, links: readonly string[]): Promise<string[]> {
  const unique = [...new Set(links.map((link) => link.trim()))];
  const malformed = unique.filter((link) => !isUuid(link));
  if (malformed.length > 0) throw new UnknownLinksError(malformed);
  const found = new Set((await transactionSql(tx).query<{ id: string }>('', ITEMS_OF_PROJECT, [projectId, unique])).map((row) => row.id));
  const unknown = unique.filter((link) => !found.has(link.toLowerCase()));
  if (unknown.length > 0) throw new UnknownLinksError(unknown);
  return unique.map((link) => link.toLowerCase());
}
