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
  readonly method: 'GET' | 'POST';
  readonly path: string;
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
    body: IdentifyRequestSchema,
    responses: { 200: IdentifyResponseSchema },
  },
  createFeedback: {
    method: 'POST',
    path: '/api/v1/feedback',
    body: CreateFeedbackRequestSchema,
    responses: { 201: CreateFeedbackResponseSchema },
  },
  listFeedback: {
    method: 'GET',
    path: '/api/v1/feedback',
    query: ListFeedbackQuerySchema,
    responses: { 200: PaginatedFeedbackSchema },
  },
  getFeedback: {
    method: 'GET',
    path: '/api/v1/feedback/:id',
    params: FeedbackIdParamsSchema,
    query: EndUserIdQuerySchema,
    responses: { 200: GetFeedbackResponseSchema },
  },
  toggleVote: {
    method: 'POST',
    path: '/api/v1/feedback/:id/vote',
    params: FeedbackIdParamsSchema,
    body: ToggleVoteRequestSchema,
    responses: { 200: VoteResultSchema },
  },
  getVote: {
    method: 'GET',
    path: '/api/v1/feedback/:id/vote',
    params: FeedbackIdParamsSchema,
    query: EndUserIdQuerySchema,
    responses: { 200: VoteResultSchema },
  },
} as const satisfies Record<string, RouteDefinition>;

/** The name of an operation of the API. */
export type OperationName = keyof typeof routes;
