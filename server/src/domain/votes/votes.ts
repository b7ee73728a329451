import { type EndUserInput, type VoteResult } from '@feedbackd/sdk/contract';
import type { SqlPool, Statements } from '../../db/pool.js';
import { answersInPlace, statementBatches, type Batched } from '../../db/statement-batches.js';
import { feedbackNotFound, isItemGone } from '../errors.js';
import { watchBatches } from '../../metrics/figures.js';
import { hashVoterKey } from '../../db/voter-secret.js';
import { TOGGLE_ANONYMOUS, TOGGLE_BATCH, TOGGLE_IDENTIFIED, TOGGLE_KNOWN_USER } from './votes.sql.js';

/*
 * A vote (spec 4.5), the one implementation: the API's handler (votes.route.ts) and the board's
 * vote form (web/) both call these, so the two cannot count a vote differently.
 */

/**
 * Toggle statements running at once per process; the toggles that arrive meanwhile leave together
 * (voteBatches). One: every batch is a commit that waits for the WAL to reach the disk, and two
 * commits in flight made each flush slower (0.53 to 0.65 ms against 0.31 to 0.36 ms alone), for
 * smaller batches and about 15 % fewer toggles a second (docs/operations.md, "What made vote and
 * submit wait").
 */
export const TOGGLES_IN_FLIGHT = 1;

/**
 * The anonymous caller's toggle (spec 4.5 without `endUser`): in the process's batch, or alone in
 * a request's transaction (`inBatch` false: a batch is its own transaction). It is the one
 * implementation of an anonymous vote.
 */
export async function toggleAnonymousVote(batches: VoteBatches, sql: Statements, toggle: ToggleRequest & { voterKey: string }, inBatch: boolean): Promise<VoteResult> {
  let row: Toggled | undefined;
  try {
    row = (inBatch ? batched(await batches.toggle(toggle)) : undefined) ?? (await sql.query<Toggled>(TOGGLE_ANONYMOUS.name, TOGGLE_ANONYMOUS.text, [toggle.item, toggle.project, toggle.voterKey]))[0];
  } catch (error) {
    throw itemGoneAsNotFound(error);
  }
  return voteReply(row);
}

/**
 * An end user's toggle (spec 4.5 with `endUser`), upserting the user when the request gives
 * profile fields or the user is new. The one implementation of an identified vote.
 */
export async function toggleIdentifiedVote(
  batches: VoteBatches,
  sql: Statements,
  target: { project: string; item: string },
  endUser: EndUserInput,
  inBatch: boolean,
): Promise<VoteResult> {
  const { project, item } = target;
  let row: Toggled | undefined;
  try {
    // Only an externalId: a returning voter is read, not upserted (no write to end_users).
    if (endUser.email === undefined && endUser.name === undefined && endUser.avatarUrl === undefined && endUser.metadata === undefined) {
      const answer = inBatch ? await batches.toggle({ project, item, externalId: endUser.externalId }) : 'alone';
      if (answer === 'alone') [row] = await sql.query<Toggled>(TOGGLE_KNOWN_USER.name, TOGGLE_KNOWN_USER.text, [item, project, endUser.externalId]);
      else if (answer !== 'unknown-user') row = answer;
    }
    if (!row) [row] = await sql.query<Toggled>(TOGGLE_IDENTIFIED.name, TOGGLE_IDENTIFIED.text, [item, project, endUser.externalId, JSON.stringify(endUser)]);
  } catch (error) {
    throw itemGoneAsNotFound(error);
  }
  return voteReply(row);
}

/** The item was deleted or merged away while the toggle ran (the statement rolled back whole): not found, as if the vote had come a moment later. */
function itemGoneAsNotFound(error: unknown): unknown {
  return isItemGone(error) ? feedbackNotFound() : error;
}

function voteReply(row: Toggled | undefined): VoteResult {
  if (!row?.item_found) throw feedbackNotFound();
  return { voted: row.now_voted, voteCount: row.new_count };
}

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
 * the caller creates it with the single statement), or `alone` (db/statement-batches.ts: the
 * caller runs this toggle by itself).
 */
export type BatchedToggle = Batched<Toggled | 'unknown-user'>;

export interface VoteBatches {
  toggle(request: ToggleRequest): Promise<BatchedToggle>;
}

/**
 * Group commit for vote toggles (db/statement-batches.ts): the toggles that wait leave together as
 * one `toggle_votes` statement (migration 0026), which answers each toggle as `toggle_vote` would
 * alone, in item order, and locks the items' counters in that order, so two batches cannot
 * deadlock on them.
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

/** The toggle a batch answered, or undefined when the toggle must run by itself. */
function batched(answer: BatchedToggle): Toggled | undefined {
  return typeof answer === 'string' ? undefined : answer;
}

/**
 * Voter keys made lately, by secret, salt and address: the two HMACs cost more than the rest of a
 * board page's or a vote's own work (about 3% of a page profiled under wrk), and one address asks
 * again and again. Bounded: past the limit the oldest goes first. Only hashes and the addresses
 * that asked are kept, in this process's memory, as its connections hold them anyway.
 */
const keptVoterKeys = new Map<string, string>();
const KEPT_VOTER_KEYS = 10_000;
const secretIds = new WeakMap<Buffer, number>();
let nextSecretId = 0;

/**
 * The key behind http/edge.ts's `anonymousVoterKey` (db/voter-secret.ts, hashVoterKey), kept; also for a caller
 * without a key: the board's visitor (web/board/) is the same anonymous voter as an API call from
 * the same address, so both ask here.
 */
export function voterKeyOf(secret: Buffer, voterSalt: string, ip: string): string {
  let secretId = secretIds.get(secret);
  if (secretId === undefined) secretIds.set(secret, (secretId = nextSecretId++));
  const asked = `${secretId}\n${voterSalt}\n${ip}`;
  const kept = keptVoterKeys.get(asked);
  if (kept !== undefined) return kept;
  const key = hashVoterKey(secret, voterSalt, ip);
  if (keptVoterKeys.size >= KEPT_VOTER_KEYS) keptVoterKeys.delete(keptVoterKeys.keys().next().value!);
  keptVoterKeys.set(asked, key);
  return key;
}
