import type Router from '@koa/router';
import type { z } from 'zod';
import { routes, type CreateFeedbackResponseSchema, type ListFeedbackQuery } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../db/pool.js';
import { answersInPlace, statementBatches, type Batched } from '../db/statement-batches.js';
import { anonymousVoterKey } from '../http/client-address.js';
import type { AppState } from '../http/context.js';
import { feedbackNotFound } from '../http/item-ids.js';
import { jsonReply, mount, type JsonText, type MountOptions, type Statements } from '../http/mount.js';
import { watchBatches } from '../metrics/figures.js';
import { buildList, DETAIL, DETAIL_WITH_HISTORY, FIELD_SEPARATOR, type ListStatement } from './feedback.sql.js';
import { SUBMIT_ANONYMOUS, SUBMIT_BATCH, SUBMIT_IDENTIFIED } from './submit.sql.js';

/** Submission statements running at once per process (submitBatches). */
export const SUBMITS_IN_FLIGHT = 2;

/**
 * Spec 4.2 to 4.4: submit, list and read feedback. Statements in feedback.sql.ts and submit.sql.ts.
 * `submissions` is the process's one group commit of submissions (api/routes.ts, hotWrites),
 * which the board's submit form shares.
 */
export function mountFeedbackRoutes(router: Router<AppState>, options: MountOptions, submissions: SubmitBatches): void {
  // The handler returns the submission's own promise: no await of its own on the hot path.
  mount(router, routes.createFeedback, options, ({ body }, ctx, sql) => {
    const item = { project: ctx.state.caller.projectId, title: body.title, description: body.description ?? null, type: body.type, metadata: body.metadata == null ? null : JSON.stringify(body.metadata) };
    const submission: Submission = body.endUser
      ? { ...item, externalId: body.endUser.externalId, profile: JSON.stringify(body.endUser) }
      : { ...item, voterKey: anonymousVoterKey(ctx) };
    return submitFeedback(submissions, sql, submission, !ctx.state.tx);
  });

  mount(router, routes.listFeedback, options, async ({ query }, ctx, sql) => {
    const statement = listStatement(query);
    const [row] = await sql.query<{ total: number; items: string }>(statement.name, statement.text, listValues(statement, ctx.state.caller.projectId, query));
    const total = row!.total;
    return jsonReply(
      routes.listFeedback,
      200,
      `{"items":${row!.items},"total":${total},"page":${query.page},"limit":${query.limit},"totalPages":${Math.ceil(total / query.limit)}}`,
    );
  });

  mount(router, routes.getFeedback, options, async ({ params: { id }, query }, ctx, sql) => {
    // A secret key also sees the status history (an extension); a public key's answer is the spec's, unchanged.
    const statement = ctx.state.caller.kind === 'secret' ? DETAIL_WITH_HISTORY : DETAIL;
    const [row] = await sql.query<{ body: string }>(statement.name, statement.text, [id, ctx.state.caller.projectId, query.endUserId ?? null]);
    if (!row) throw feedbackNotFound();
    return jsonReply(routes.getFeedback, 200, `{"feedback":${row.body}}`);
  });
}

// ---------------------------------------------------------------------------------- list (4.3)

const listStatements = new Map<string, ListStatement>();

/**
 * The statement for one shape of list (sort x which filters are present x search), built once by
 * `buildList` (feedback.sql.ts, which says how each shape reads). One statement per shape keeps
 * every generic plan simple: no `$n is null or ...` branches.
 */
export function listStatement(query: Pick<ListFeedbackQuery, 'sortBy' | 'status' | 'type' | 'search'>, options: { votedBy?: boolean } = {}): ListStatement {
  const params: ListStatement['params'] = [];
  if (query.status) params.push('status');
  if (query.type) params.push('type');
  if (query.search) params.push('search');
  const perColumn = query.search?.includes(FIELD_SEPARATOR) ?? false;
  const votedBy = options.votedBy ?? false;
  const name = `list_${query.sortBy}_${params.join('_') || 'all'}${perColumn ? '_per_column' : ''}${votedBy ? '_voted' : ''}`;
  let statement = listStatements.get(name);
  if (!statement) {
    statement = { name, params, votedBy, text: buildList(query.sortBy, params, perColumn, votedBy) };
    listStatements.set(name, statement);
  }
  return statement;
}

/** The values of a list statement's parameters, in its order; `voterKey` for a statement made with `votedBy`. */
export function listValues(statement: ListStatement, projectId: string, query: ListFeedbackQuery, voterKey?: string): unknown[] {
  const values: unknown[] = [projectId, query.limit, (query.page - 1) * query.limit];
  for (const param of statement.params) {
    if (param === 'status') values.push(query.status);
    if (param === 'type') values.push(query.type);
    if (param === 'search') values.push(`%${escapeLike(query.search ?? '')}%`);
  }
  if (statement.votedBy) values.push(voterKey);
  return values;
}

/** A search is a plain substring: `%`, `_` and `\` match themselves (backslash is LIKE's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

// ---------------------------------------------------------------------------------- submit (4.2)

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
 * Submits one item (spec 4.2): in the process's batch, or alone in a request's transaction
 * (`inBatch` false: a batch is its own transaction). It is the one implementation of a
 * submission: the API's handler above and the board's submit form (web/board-actions.ts) both call
 * it, so an item made on the board is made exactly as one sent to the API. The reply is the API's
 * 201, whose JSON text is the new item.
 */
export async function submitFeedback(
  submissions: SubmitBatches,
  sql: Statements,
  submission: Submission,
  inBatch: boolean,
): Promise<{ status: 201; body: JsonText<z.input<typeof CreateFeedbackResponseSchema>> }> {
  const answer = inBatch ? await submissions.submit(submission) : 'alone';
  const created = answer === 'alone' ? await submitAlone(sql, submission) : answer;
  return jsonReply(routes.createFeedback, 201, `{"feedback":${created}}`);
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
