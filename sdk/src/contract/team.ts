import { z } from 'zod';
import { DISPLAY_NAME_MAX_LENGTH } from './admin.js';
import { labelledString, TimestampSchema } from './common.js';

// Triage in the browser (docs/triage.md): the team's pages at /team are signed into with a
// one-time link, which a secret key may ask for here.

/** How long a sign-in link works, in minutes, after it was made. */
export const SIGN_IN_LINK_MINUTES = 10;

/**
 * Who a team member says they are (optional): 1 to 200 characters after trimming. It signs their
 * replies and names them in the status history, beside their session.
 */
export const TeamMemberNameSchema = labelledString('name')
  .trim()
  .min(1, { error: 'name must not be empty' })
  .max(DISPLAY_NAME_MAX_LENGTH, { error: `name must be at most ${DISPLAY_NAME_MAX_LENGTH} characters` });

/** Body of POST /api/v1/team/sign-in-links (optional): who the link is for. */
export const CreateSignInLinkRequestSchema = z.object({ name: TeamMemberNameSchema.nullish() });

/**
 * Response 201 of POST /api/v1/team/sign-in-links: where the link signs in, as a path on the
 * server (`/team/sign-in?token=…`: put the server's address in front of it), and when it stops
 * working. It works once; the token in it is shown only here (the server keeps its hash).
 */
export const SignInLinkResponseSchema = z.object({
  path: z.string().startsWith('/team/sign-in?token='),
  expiresAt: TimestampSchema,
});

export type SignInLink = z.infer<typeof SignInLinkResponseSchema>;
export type CreateSignInLinkRequest = z.input<typeof CreateSignInLinkRequestSchema>;
