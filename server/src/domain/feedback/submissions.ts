import type { HoldReason } from '@feedbackd/sdk/contract';
import type { SqlPool, Statements } from '../../db/pool.js';
import { answersInPlace, statementBatches, type Batched } from '../../db/statement-batches.js';
import type { ModerationPolicy } from '../moderation/policy.js';
import { watchBatches } from '../../metrics/figures.js';
import { holdReason, postingBlocked } from '../moderation/hold-reason.js';
import { HOLD_SUBMISSION_ANONYMOUS, HOLD_SUBMISSION_IDENTIFIED } from '../moderation/held-posts.sql.js';
import { SUBMIT_ANONYMOUS, SUBMIT_BATCH, SUBMIT_IDENTIFIED } from './submit.sql.js';

/*
 * A submission (spec 4.2), the one implementation: the API's handler (feedback.route.ts), the
 * board's submit form and the widget's (web/) all call submitOrHold, so an item made on the board
 * or in the widget is made, or held, exactly as one sent to the API.
 */

/** Submission statements running at once per process (submitBatches). */
export const SUBMITS_IN_FLIGHT = 2;

/** One submission: by an end user (`externalId` and the given profile) or by an anonymous caller (`voterKey`). */
export type Submission = {
  project: string;
  title: string;
  description: string | null;
  type: string;
  /** The metadata as JSON text, or null. */
  metadata: string | null;
} & (
  | { externalId: string; profile: string; voterKey?: undefined }
  /** `byTeam`: sent with a secret key, which a block of the address's anonymous key (docs/moderation.md) does not stop. */
  | { voterKey: string; byTeam?: boolean; externalId?: undefined; profile?: undefined }
);

/**
 * A batched submission's answer: the new item as JSON text, or `alone` (the submitter must be
 * created or updated first, or the batch was refused): the caller runs `submitAlone`.
 */
export type BatchedSubmission = Batched<string>;

export interface SubmitBatches {
  submit(submission: Submission): Promise<BatchedSubmission>;
}

/**
 * Group commit for submissions (db/statement-batches.ts). A batch of several is one
 * `submit_batch` statement: one transaction, one start of the executor, one run of the statement
 * trigger that keeps the list totals, where each submission alone pays all three. A batch of one
 * is the single statement, as without batches.
 */
export function submitBatches(sql: SqlPool, inFlight: number): SubmitBatches {
  const batches = statementBatches<Submission, string>({
    inFlight,
    maxBatch: 64,
    async run(project, submissions) {
      if (submissions.length === 1) return [await submitAlone(sql, submissions[0]!)];
      const rows = await sql.query<{ idx: number; body: string }>(SUBMIT_BATCH.name, SUBMIT_BATCH.text, [
        project,
        submissions.map((s) => s.title),
        submissions.map((s) => s.description),
        submissions.map((s) => s.type),
        submissions.map((s) => s.metadata),
        submissions.map((s) => s.externalId ?? null),
        submissions.map((s) => s.profile ?? null),
        submissions.map((s) => s.voterKey ?? null),
      ]);
      return answersInPlace(rows, submissions.length, (row) => row.body);
    },
  });
  watchBatches('submit', batches);
  return { submit: (submission) => batches.send(submission) };
}

/**
 * What became of a submission: the item as JSON text (the detail's list shape), made at once
 * (`held` null) or held for the team, then as it will be once approved, with why it waits.
 */
export type Submitted = { item: string; held: null } | { item: string; held: HoldReason };

/**
 * A submission, for every caller: held for the team where the project's moderation policy says
 * so (docs/moderation.md: holdSubmission), else submitted (submitFeedback).
 * `policy` is null for a team's (secret-key) post and for a project that holds nothing: then
 * nothing is asked. A blocked author's post is refused either way (Forbidden). No await of its
 * own: the API's handler chains its reply onto this promise (its hot path).
 */
export function submitOrHold(
  submissions: SubmitBatches,
  sql: Statements,
  submission: Submission,
  policy: ModerationPolicy | null,
  inBatch: boolean,
): Promise<Submitted> {
  const reason = policy && holdReason(policy, submission.externalId !== undefined, [submission.title, submission.description]);
  return reason ? holdSubmission(sql, submission, reason) : submitFeedback(submissions, sql, submission, inBatch);
}

/**
 * Submits one item (spec 4.2), asking no moderation (submitOrHold asks): in the process's batch,
 * or alone in a request's transaction (`inBatch` false: a batch is its own transaction).
 */
export async function submitFeedback(
  submissions: SubmitBatches,
  sql: Statements,
  submission: Submission,
  inBatch: boolean,
): Promise<Submitted> {
  const answer = inBatch ? await submissions.submit(submission) : 'alone';
  const created = answer === 'alone' ? await submitAlone(sql, submission) : answer;
  return { item: created, held: null };
}

/** One submission in its own statement, upserting an identified submitter: the new item as JSON text. */
export async function submitAlone(sql: Pick<SqlPool, 'query'>, s: Submission): Promise<string> {
  const item = [s.project, s.title, s.description, s.type, s.metadata];
  const [row] =
    s.externalId !== undefined
      ? await sql.query<{ body: string }>(SUBMIT_IDENTIFIED.name, SUBMIT_IDENTIFIED.text, [...item, s.externalId, s.profile])
      : await sql.query<{ body: string }>(SUBMIT_ANONYMOUS.name, SUBMIT_ANONYMOUS.text, [...item, s.voterKey, s.byTeam ?? false]);
  // No row: the team blocked this author (docs/moderation.md).
  if (!row) throw postingBlocked();
  return row.body;
}

/** A held submission: the item as it will be once approved, and why it waits. Forbidden when its author is blocked. */
export async function holdSubmission(
  sql: Statements,
  s: Submission,
  reason: HoldReason,
): Promise<Submitted> {
  const item = [s.project, s.title, s.description, s.type, s.metadata];
  const [row] =
    s.externalId !== undefined
      ? await sql.query<HeldRow>(HOLD_SUBMISSION_IDENTIFIED.name, HOLD_SUBMISSION_IDENTIFIED.text, [...item, s.externalId, s.profile, reason])
      : await sql.query<HeldRow>(HOLD_SUBMISSION_ANONYMOUS.name, HOLD_SUBMISSION_ANONYMOUS.text, [...item, s.voterKey, reason]);
  if (!row || row.blocked) throw postingBlocked();
  return { item: row.body!, held: reason };
}

type HeldRow = { blocked: boolean; body: string | null };
