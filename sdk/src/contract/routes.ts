import type { z } from 'zod';
import {
  CreateFeedbackRequestSchema,
  CreateFeedbackResponseSchema,
  EndUserIdQuerySchema,
  FeedbackIdParamsSchema,
  GetFeedbackResponseSchema,
  ListFeedbackQuerySchema,
  PaginatedFeedbackSchema,
} from './feedback.js';
import { IdentifyRequestSchema, IdentifyResponseSchema } from './users.js';
import { ToggleVoteRequestSchema, VoteResultSchema } from './votes.js';

/** One operation of the API: where it lives, what it takes, and what it answers per status. */
export interface RouteDefinition {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  /**
   * The kind of key the operation needs: `public` (a `pk_` or an `sk_` key) for the spec's
   * endpoints, `secret` (an `sk_` key only) for the operator's extensions.
   */
  readonly auth: 'public' | 'secret';
  /** One line for the API reference (docs and the OpenAPI document). */
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly responses: Readonly<Record<number, z.ZodType>>;
}

/** Every operation of spec part 4, keyed by operation name. The server mounts each one; the SDK calls each one. */
export const routes = {
  identify: {
    method: 'POST',
    path: '/api/v1/identify',
    auth: 'public',
    summary: 'Create or update an end user (upsert by externalId)',
    body: IdentifyRequestSchema,
    responses: { 200: IdentifyResponseSchema },
  },
  createFeedback: {
    method: 'POST',
    path: '/api/v1/feedback',
    auth: 'public',
    summary: "Submit feedback; counts as the submitter's vote",
    body: CreateFeedbackRequestSchema,
    responses: { 201: CreateFeedbackResponseSchema },
  },
  listFeedback: {
    method: 'GET',
    path: '/api/v1/feedback',
    auth: 'public',
    summary: 'List feedback with filters, search, sorting and pages',
    query: ListFeedbackQuerySchema,
    responses: { 200: PaginatedFeedbackSchema },
  },
  getFeedback: {
    method: 'GET',
    path: '/api/v1/feedback/:id',
    auth: 'public',
    summary: 'One feedback item with its comments',
    params: FeedbackIdParamsSchema,
    query: EndUserIdQuerySchema,
    responses: { 200: GetFeedbackResponseSchema },
  },
  toggleVote: {
    method: 'POST',
    path: '/api/v1/feedback/:id/vote',
    auth: 'public',
    summary: 'Vote for an item, or take the vote back',
    params: FeedbackIdParamsSchema,
    body: ToggleVoteRequestSchema,
    responses: { 200: VoteResultSchema },
  },
  getVote: {
    method: 'GET',
    path: '/api/v1/feedback/:id/vote',
    auth: 'public',
    summary: "Whether the caller has voted, and the item's vote count",
    params: FeedbackIdParamsSchema,
    query: EndUserIdQuerySchema,
    responses: { 200: VoteResultSchema },
  },
} as const satisfies Record<string, RouteDefinition>;

/** The name of an operation of the API. */
export type OperationName = keyof typeof routes;
