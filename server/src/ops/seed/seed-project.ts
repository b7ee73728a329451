import { availableParallelism } from 'node:os';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PoolClient } from 'pg';
import { ormConnection } from '../../db/orm-connections.js';
import { DEFAULT_PROJECT_SLUG } from '../../serve-defaults.js';
import { ensureProject } from '../../domain/projects/projects.service.js';
import { hash32 } from './random.js';
import { seedId, seedIdPrefix } from './seed-ids.js';
import { SEED_EPOCH_MS, seedItem, seedUser, voterPoolSize, type SeedItem, type SeedPlan } from './seed-items.js';
import { COMMENT_TEXTS, COUNT_ITEMS, EXISTING_ITEMS, INSERT_ITEMS, INSERT_USERS, ITEM_PARAMS } from './seed-sql.js';
import { markerItemCount, SEED_MARKERS } from './vocabulary.js';

export interface SeedOptions {
  /** Items to seed (the item indexes 0 … count - 1 of the seed). */
  count: number;
  /** The project's slug; a project that does not exist is created. Default `default`. */
  project?: string;
  /** Default 1. The same seed, count and project give the same rows, ids and timestamps included. */
  seed?: number;
  /**
   * Put the marker words of SEED_MARKERS into a known share of the descriptions, for benchmarks
   * and tests that search for them (default false: a seed that looks real has none). Seeding
   * again completes a seed as it was begun only when this is the same.
   */
  searchMarkers?: boolean;
  /** Called after each batch. */
  onProgress?: (progress: SeedProgress) => void;
  /**
   * How long one batch statement should take: batches grow or shrink towards it. Short enough
   * that a server on the same embedded database, which waits while a statement runs, stays
   * responsive; long enough that per-statement costs vanish. Default 250 ms.
   */
  batchTargetMs?: number;
  /** At most this many connections of the ORM's pool work side by side (default: one per core). */
  connections?: number;
}

export interface SeedProgress {
  /** Items handled so far (inserted or found already there), of `count`. */
  done: number;
  count: number;
  /** Items, votes and comments inserted so far. */
  rows: number;
  seconds: number;
}

/** What a seed did. `rows` = items + votes + comments inserted; users are counted apart. */
export interface SeedSummary {
  project: string;
  seed: number;
  count: number;
  items: number;
  votes: number;
  comments: number;
  users: number;
  /** Items of this seed that were there already (a repeated or resumed seed) and were left alone. */
  skippedItems: number;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  /** The marker words and how many of this seed's items carry each (search for them); empty without `searchMarkers`. */
  markers: { word: string; items: number }[];
  /** The external ids of the seeded end users are `seed-<seed>-user-1` … `seed-<seed>-user-<users>`. */
  userPool: number;
  /** Every seeded timestamp is before this instant. */
  epoch: string;
}

/** The part of a node-postgres client the seeder uses. */
interface Client {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

const MIN_BATCH = 20;
const MAX_BATCH = 5_000;
const USER_BATCH = 5_000;

/**
 * Fills a project with realistic feedback: items of every type and status over a year, with
 * heavy-tailed vote and comment counts backed by real vote rows (end users and anonymous voters)
 * and comment rows (team and end users); a different title for every item but a few deliberate
 * near-duplicates; on request, marker words of known frequency for searches.
 *
 * Operator side, but raw SQL: speed is the point here, so rows go in as set-based batches on the
 * connections of the ORM's pool, each batch one statement in its own transaction. Counters are set to
 * exactly the vote and comment rows of the same statement, and the per-project totals follow from
 * the triggers on `feedback`.
 *
 * Seeding again with the same seed adds only the items that are missing (none after a complete
 * run), so an interrupted seed is completed by running it again. Another seed adds other rows.
 */
export async function seedProject(orm: MikroORM, options: SeedOptions): Promise<SeedSummary> {
  const count = options.count;
  const seed = options.seed ?? 1;
  const slug = options.project ?? DEFAULT_PROJECT_SLUG;
  if (!Number.isSafeInteger(count) || count < 0 || count > 100_000_000) throw new RangeError('count must be a whole number from 0 to 100000000');
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError('seed must be a whole number of at least 0');

  // Through the ORM, before the connections below are taken: on the embedded database its pool
  // has only one.
  const projectId = (await ensureProject(orm.em.fork(), slug, { createAny: true })).project.id;
  // The connections of the ORM's pool, one per core at most: an operator command's 2 on
  // PostgreSQL (batches run side by side), 1 on the embedded database (which runs one statement
  // at a time anyway).
  const clients: PoolClient[] = [];
  const connections = Math.max(1, Math.min(options.connections ?? availableParallelism(), orm.config.get('pool')?.max ?? 1));
  try {
    for (let i = 0; i < connections; i++) clients.push(await ormConnection(orm));
    const client = clients[0]!;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const searchMarkers = options.searchMarkers ?? false;
    const plan: SeedPlan = { seed, users: voterPoolSize(count), anonymousVoters: voterPoolSize(count), searchMarkers };
    const prefix = (kind: Parameters<typeof seedIdPrefix>[2]) => seedIdPrefix(seed, slug, kind);

    const users = count === 0 ? 0 : await insertUsers(client, projectId, plan, prefix('user'));

    const fixed = {
      project: projectId,
      epochMs: SEED_EPOCH_MS,
      mix: hash32(`${seed}:sql`) % 1_000_000_007,
      itemPrefix: prefix('item'),
      votePrefix: prefix('vote'),
      commentPrefix: prefix('comment'),
      userPrefix: prefix('user'),
      anonymousBase: prefix('anonymous-voter'),
      users: plan.users,
      anonymousVoters: plan.anonymousVoters,
      ...COMMENT_TEXTS,
    };
    const totals = { items: 0, votes: 0, comments: 0, skipped: 0, done: 0 };
    const target = options.batchTargetMs ?? 250;
    const idOf = (index: number) => seedId(fixed.itemPrefix, index);
    // A seed's item ids are consecutive in uuid order, so one range scan tells whether any of them
    // is there already; only then does each batch look for the ones it may skip.
    const { rows: found } = count === 0 ? { rows: [{ n: 0 }] } : await client.query<{ n: number }>(COUNT_ITEMS, [idOf(0), idOf(count - 1)]);
    const resuming = found[0]!.n > 0;
    let next = 0;
    let failure: { error: unknown } | undefined;
    // Each connection takes the next range of items, sized towards the target duration. While a
    // batch runs in PostgreSQL, the next one is generated here. The first failure stops them all.
    const worker = async (connection: Client) => {
      let batch = MIN_BATCH * 10;
      let running: Promise<void> = Promise.resolve();
      while (next < count && !failure) {
        const start = next;
        const end = Math.min(count, start + batch);
        next = end;
        const existing = resuming ? await existingIds(connection, idOf(start), idOf(end - 1)) : new Set<string>();
        const items = range(start, end)
          .filter((index) => !existing.has(idOf(index)))
          .map((index) => seedItem(plan, index));
        const values = items.length > 0 ? itemValues(fixed, items) : undefined;
        await running;
        if (failure) break;
        running = (async () => {
          if (values) {
            const batchStarted = performance.now();
            await insertBatch(connection, values);
            // Towards the target duration, by at most a factor of 2 per batch.
            const ms = performance.now() - batchStarted;
            batch = Math.round(Math.min(MAX_BATCH, Math.max(MIN_BATCH, batch * Math.min(2, Math.max(0.5, target / Math.max(ms, 1))))));
            totals.items += items.length;
            for (const item of items) {
              totals.votes += item.identifiedVotes + item.anonymousVotes;
              totals.comments += item.comments;
            }
          }
          totals.skipped += existing.size;
          totals.done += end - start;
          options.onProgress?.({ done: totals.done, count, rows: totals.items + totals.votes + totals.comments, seconds: seconds() });
        })().catch((error: unknown) => {
          failure ??= { error };
        });
      }
      await running;
    };
    // Every worker ends (none is left using a connection) before the first failure is thrown.
    await Promise.all(clients.map((connection) => worker(connection).catch((error: unknown) => void (failure ??= { error }))));
    if (failure) throw failure.error;

    // Fresh statistics, so that the planner sees the new rows at once. No VACUUM: on a large
    // seed it would take longer than a third of the inserts, and autovacuum (at a 1% scale
    // factor on feedback) refreshes the visibility map soon anyway. A benchmark that needs
    // index-only scans right away runs VACUUM itself.
    if (totals.items > 0) await client.query('analyze feedback, feedback_counters, votes, comments, end_users');

    const rows = totals.items + totals.votes + totals.comments;
    const elapsed = seconds();
    return {
      project: slug,
      seed,
      count,
      items: totals.items,
      votes: totals.votes,
      comments: totals.comments,
      users,
      skippedItems: totals.skipped,
      rows,
      seconds: Math.round(elapsed * 1000) / 1000,
      rowsPerSecond: elapsed > 0 ? Math.round(rows / elapsed) : 0,
      markers: (searchMarkers ? SEED_MARKERS : []).map((marker) => ({ word: marker.word, items: markerItemCount(marker, count) })),
      userPool: count === 0 ? 0 : plan.users,
      epoch: new Date(SEED_EPOCH_MS).toISOString(),
    };
  } finally {
    for (const client of clients) client.release();
  }
}

/**
 * One batch in a transaction of its own, with two settings for it alone: no JIT (compiling the
 * big generated statement costs more than running it) and no wait for the WAL flush at commit
 * (a crash loses at most the last batches, which a rerun of the same seed adds again).
 */
async function existingIds(client: Client, first: string, last: string): Promise<Set<string>> {
  const { rows } = await client.query<{ id: string }>(EXISTING_ITEMS, [first, last]);
  return new Set(rows.map((row) => row.id));
}

async function insertBatch(client: Client, values: unknown[]): Promise<void> {
  await client.query('begin');
  try {
    await client.query('set local jit = off');
    await client.query('set local synchronous_commit = off');
    await client.query(INSERT_ITEMS, values);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}

/** Inserts the pool of end users; returns how many were new. */
async function insertUsers(client: Client, projectId: string, plan: SeedPlan, userPrefix: string): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < plan.users; start += USER_BATCH) {
    const users = range(start, Math.min(plan.users, start + USER_BATCH)).map((index) => seedUser(plan.seed, index));
    const result = await client.query(INSERT_USERS, [
      projectId,
      users.map((user) => seedId(userPrefix, user.index)),
      users.map((user) => user.externalId),
      users.map((user) => user.email),
      users.map((user) => user.name),
      users.map((user) => user.avatarUrl),
      users.map((user) => user.metadata),
      users.map((user) => user.createdMs),
    ]);
    inserted += (result as { rowCount?: number | null }).rowCount ?? 0;
  }
  return inserted;
}

function itemValues(fixed: Record<string, unknown>, items: SeedItem[]): unknown[] {
  const columns: Record<string, unknown[]> = {
    ids: items.map((item) => seedId(fixed.itemPrefix as string, item.index)),
    indexes: items.map((item) => item.index),
    submitters: items.map((item) => item.submitter),
    titles: items.map((item) => item.title),
    descriptions: items.map((item) => item.description),
    types: items.map((item) => item.type),
    statuses: items.map((item) => item.status),
    metadata: items.map((item) => item.metadata),
    createdMs: items.map((item) => item.createdMs),
    identifiedVotes: items.map((item) => item.identifiedVotes),
    anonymousVotes: items.map((item) => item.anonymousVotes),
    anonymousFirst: items.map((item) => item.anonymousFirst),
    userStarts: items.map((item) => item.userStart),
    anonymousStarts: items.map((item) => item.anonymousStart),
    comments: items.map((item) => item.comments),
  };
  return ITEM_PARAMS.map((name) => (name in columns ? columns[name] : fixed[name]));
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, i) => start + i);
}
