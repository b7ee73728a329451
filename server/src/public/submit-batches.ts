import type { SqlPool } from '../db/pool.js';
import { watchBatches } from '../metrics/figures.js';
import { answersInPlace, statementBatches, type Batched } from './statement-batches.js';
import { SUBMIT_ANONYMOUS, SUBMIT_BATCH, SUBMIT_IDENTIFIED } from './submit.sql.js';

/** One submission: by an end user (`externalId` and the given profile) or by an anonymous caller (`voterKey`). */
export type Submission = {
  project: string;
  title: string;
  description: string | null;
  type: string;
  /** The metadata as JSON text, or null. */
  metadata: string | null;
} & ({ externalId: string; profile: string; voterKey?: undefined } | { voterKey: string; externalId?: undefined; profile?: undefined });

/**
 * A batched submission's answer: the new item as JSON text, or `alone` (the submitter must be
 * created or updated first, or the batch was refused): the caller runs `submitAlone`.
 */
export type BatchedSubmission = Batched<string>;

export interface SubmitBatches {
  submit(submission: Submission): Promise<BatchedSubmission>;
}

/**
 * Group commit for submissions (statement-batches.ts). A batch of several is one `submit_batch`
 * statement: one transaction, one start of the executor, one run of the statement trigger that
 * keeps the list totals, where each submission alone pays all three. A batch of one is the
 * single statement, as without batches.
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

/** One submission in its own statement, upserting an identified submitter: the new item as JSON text. */
export async function submitAlone(sql: Pick<SqlPool, 'query'>, s: Submission): Promise<string> {
  const item = [s.project, s.title, s.description, s.type, s.metadata];
  const [row] =
    s.externalId !== undefined
      ? await sql.query<{ body: string }>(SUBMIT_IDENTIFIED.name, SUBMIT_IDENTIFIED.text, [...item, s.externalId, s.profile])
      : await sql.query<{ body: string }>(SUBMIT_ANONYMOUS.name, SUBMIT_ANONYMOUS.text, [...item, s.voterKey]);
  return row!.body;
}
