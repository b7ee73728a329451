import { isStatementError } from '../db/pipelined-pool.js';
import type { SqlPool } from '../db/pool.js';
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
 * the caller creates it with the single statement), or `alone` (PostgreSQL refused the batch
 * statement, which then changed nothing: the caller runs this toggle by itself, where its own
 * error, if any, is its own).
 */
export type BatchedToggle = Toggled | 'unknown-user' | 'alone';

export interface VoteBatches {
  toggle(request: ToggleRequest): Promise<BatchedToggle>;
}

interface Waiting {
  request: ToggleRequest;
  resolve: (answer: BatchedToggle) => void;
  reject: (error: unknown) => void;
}

/** Toggles in one statement at most; a bigger backlog leaves in several. */
const MAX_BATCH = 64;

/**
 * Group commit for vote toggles. Every toggle is a transaction that waits for its WAL to reach the
 * disk, and a hot connection runs one statement at a time: with a few connections, the commits
 * waited in line and a quarter of the machine sat idle (docs/operations.md, run 21). Here at most
 * `inFlight` toggle statements run at once; the toggles that arrive meanwhile wait and then leave
 * together as one statement (`toggle_votes`, one transaction, one wait for the disk). Under no
 * load a toggle leaves at the end of the event-loop turn it arrived in, alone.
 *
 * Each toggle in a batch is the same `toggle_vote` as alone, in item order, so two batches lock
 * the items' counters in the same order and cannot deadlock on them. If PostgreSQL refuses the
 * batch statement (an item was deleted while it ran), it rolled back whole, and every toggle in it
 * runs again by itself: one voter's error never becomes another's. Any other failure (the
 * connection was lost) fails every toggle of the batch as it would have failed one alone: whether
 * the batch committed is unknown then, and running a toggle again could undo it.
 */
export function voteBatches(sql: SqlPool, inFlight: number): VoteBatches {
  const waiting = new Map<string, Waiting[]>();
  let running = 0;
  let scheduled = false;

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }

  function pump(): void {
    while (running < inFlight && waiting.size > 0) {
      const [project, queue] = waiting.entries().next().value!;
      waiting.delete(project);
      const batch = queue.splice(0, MAX_BATCH);
      // A project with more left goes to the back: projects take turns, none waits behind another's backlog.
      if (queue.length > 0) waiting.set(project, queue);
      void send(project, batch);
    }
  }

  async function send(project: string, batch: Waiting[]): Promise<void> {
    running++;
    let answers: BatchedToggle[] | undefined;
    let failure: unknown;
    try {
      const rows = await sql.query<{ idx: number; user_known: boolean; item_found: boolean; now_voted: boolean; new_count: number }>(
        TOGGLE_BATCH.name,
        TOGGLE_BATCH.text,
        [project, batch.map((w) => w.request.item), batch.map((w) => w.request.externalId ?? null), batch.map((w) => w.request.voterKey ?? null)],
      );
      const byPlace = new Map<number, BatchedToggle>(
        rows.map((row) => [Number(row.idx), row.user_known ? { item_found: row.item_found, now_voted: row.now_voted, new_count: row.new_count } : 'unknown-user']),
      );
      answers = batch.map((_, i) => byPlace.get(i + 1) ?? 'alone');
    } catch (error) {
      if (isStatementError(error)) answers = batch.map(() => 'alone');
      else failure = error;
    }
    running--;
    // The toggles that waited leave now, and this batch's voters are answered after the hot
    // connection has sent them (its writes go out at the end of the turn, in order): PostgreSQL
    // works on the next batch while this process writes the replies of this one.
    pump();
    setImmediate(() => batch.forEach((w, i) => (answers ? w.resolve(answers[i]!) : w.reject(failure))));
  }

  return {
    toggle(request) {
      return new Promise<BatchedToggle>((resolve, reject) => {
        const queue = waiting.get(request.project);
        if (queue) queue.push({ request, resolve, reject });
        else waiting.set(request.project, [{ request, resolve, reject }]);
        schedule();
      });
    },
  };
}
