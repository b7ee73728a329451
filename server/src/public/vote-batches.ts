import type { SqlPool } from '../db/pool.js';
import { watchBatches } from '../metrics/figures.js';
import { answersInPlace, statementBatches, type Batched } from './statement-batches.js';
import { TOGGLE_BATCH } from './votes.sql.js';

/** What a toggle answers: whether the item exists, whether the voter now votes, and the new count. */
export type Toggled = {
  item_found: boolean;
  now_voted: boolean;
  new_count: number;
};

/** One toggle: by a known end user (`externalId`) or by an anonymous caller (`voterKey`). */
export type ToggleRequest = { project: string; item: string } & ({ externalId: string; voterKey?: undefined } | { voterKey: string; externalId?: undefined });

/**
 * A batched toggle's answer: the toggle, or `unknown-user` (no end user has that externalId yet;
 * the caller creates it with the single statement), or `alone` (statement-batches.ts: the caller
 * runs this toggle by itself).
 */
export type BatchedToggle = Batched<Toggled | 'unknown-user'>;

export interface VoteBatches {
  toggle(request: ToggleRequest): Promise<BatchedToggle>;
}

/**
 * Group commit for vote toggles (statement-batches.ts): the toggles that wait leave together as
 * one `toggle_votes` statement. Each toggle in it is the same `toggle_vote` as alone, in item
 * order, so two batches lock the items' counters in the same order and cannot deadlock on them.
 */
export function voteBatches(sql: SqlPool, inFlight: number): VoteBatches {
  const batches = statementBatches<ToggleRequest, Toggled | 'unknown-user'>({
    inFlight,
    maxBatch: 64,
    async run(project, toggles) {
      const rows = await sql.query<{ idx: number; user_known: boolean; item_found: boolean; now_voted: boolean; new_count: number }>(
        TOGGLE_BATCH.name,
        TOGGLE_BATCH.text,
        [project, toggles.map((t) => t.item), toggles.map((t) => t.externalId ?? null), toggles.map((t) => t.voterKey ?? null)],
      );
      return answersInPlace(rows, toggles.length, (row): Toggled | 'unknown-user' =>
        row.user_known ? { item_found: row.item_found, now_voted: row.now_voted, new_count: row.new_count } : 'unknown-user',
      );
    },
  });
  watchBatches('vote', batches);
  return { toggle: (request) => batches.send(request) };
}
