import { signBoardToken } from '@feedbackd/sdk/board';
import { END_USER_TOKEN_HEADER } from '@feedbackd/sdk/contract';
import { changeIdentitySecret } from '@feedbackd/server';
import type { TestServer } from './test-server.js';

/*
 * The proof of an end user that a public key's edit or delete of their comment needs (docs/api.md,
 * "Comments"): a token signed with the project's identity secret, as the customer's backend signs
 * one (the board's and the widget's token), sent in X-Feedback-User-Token.
 */

/** Makes (or remakes) the identity secret of project `slug` and returns it. */
export async function identitySecretOf(server: TestServer, slug = 'default'): Promise<string> {
  return ((await changeIdentitySecret(server.server.orm.em.fork(), slug, 'rotate')) as { secret: string }).secret;
}

/** A fresh token of end user `externalId` of project `slug` (each call another: a token is spent once). */
export function endUserToken(secret: string, externalId: string, slug = 'default'): string {
  return signBoardToken({ project: slug, secret, user: { externalId } });
}

/** The header that proves end user `externalId` for one request. */
export function asEndUser(secret: string, externalId: string, slug = 'default'): Record<string, string> {
  return { [END_USER_TOKEN_HEADER]: endUserToken(secret, externalId, slug) };
}
