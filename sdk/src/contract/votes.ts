import { z } from 'zod';
import { EndUserInputSchema } from './users.js';

/** Body of POST /api/v1/feedback/:id/vote (spec 4.5); `{}` votes anonymously, by the caller's IP. */
export const ToggleVoteRequestSchema = z.object({
  endUser: EndUserInputSchema.nullish(),
});

/** Response 200 of both vote routes (spec 2.6). */
export const VoteResultSchema = z.object({
  voted: z.boolean(),
  voteCount: z.number().int(),
});

export type ToggleVoteRequest = z.input<typeof ToggleVoteRequestSchema>;
export type VoteResult = z.infer<typeof VoteResultSchema>;
