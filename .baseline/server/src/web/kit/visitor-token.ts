import { createHash } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
// The longest a token may live (10 minutes): a link that leaks (a log, a history) is soon worth nothing.
import { BOARD_TOKEN_MAX_SECONDS } from '@feedbackd/sdk/board';
import { EndUserInputSchema } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import { AppError } from '../../http/errors.js';
import { EXCHANGE_TOKEN } from './visitor-token.sql.js';

/**
 * The host app's visitor token (docs/board.md, "Identified visitors"), which the board's sign-in
 * link and the widget's panel (docs/widget.md) both take: HS256 signed with the project's identity
 * secret, `sub` = the user's externalId, `aud` = the project's slug, `exp` at most 10 minutes
 * ahead. Checked with jose, spent once, and its end user recorded as identify does.
 */

/** What a token is checked against: the project's slug (the audience) and its identity secret. */
export interface TokenProject {
  id: string;
  slug: string;
  identitySecret: string | null;
}

/** Clocks disagree a little: a token this far past its `exp` (or ahead of the limit) still passes. */
const CLOCK_TOLERANCE_SECONDS = 30;
/** Who is looking, when the host app said so. */
export interface Visitor {
  /** The end user's id: their voter key, as the API's identified votes use it. */
  endUserId: string;
  externalId: string;
  name: string | null;
}

/** The refusals of a sign-in link, each a page that says what to do. */
const REFUSED = {
  notTaken: 'This board does not take sign-in links. Open the board without one to read and vote anonymously.',
  expired: 'This sign-in link has expired: links last a few minutes. Go back to the app that sent you here and open the board again.',
  used: 'This sign-in link has been used already. Go back to the app that sent you here and open the board again.',
  invalid: 'This sign-in link is not valid. Go back to the app that sent you here and open the board again.',
} as const;

/**
 * Checks a token, spends it, and records its end user; the visitor it names, or a 401 page. jose
 * pins the algorithm (so neither `none` nor a key confusion passes), requires `exp` and `sub`, and
 * checks the audience; a token meant to outlive the limit is refused as not valid.
 */
export async function exchangeToken(sql: SqlPool, project: TokenProject, token: string): Promise<Visitor> {
  if (!project.identitySecret) throw new AppError(401, REFUSED.notTaken);
  let payload;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(project.identitySecret), {
      algorithms: ['HS256'],
      audience: project.slug,
      requiredClaims: ['exp', 'sub'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    throw new AppError(401, error instanceof errors.JWTExpired ? REFUSED.expired : REFUSED.invalid);
  }
  const now = Math.floor(Date.now() / 1000);
  if (payload.exp! > now + BOARD_TOKEN_MAX_SECONDS + CLOCK_TOLERANCE_SECONDS) throw new AppError(401, REFUSED.invalid);
  // The profile as identify takes it: the same names, the same checks; absent claims keep what is stored.
  const claims = Object.fromEntries(['name', 'email', 'avatarUrl'].filter((name) => payload[name] !== undefined).map((name) => [name, payload[name]]));
  const user = EndUserInputSchema.safeParse({ externalId: payload.sub, ...claims });
  if (!user.success) throw new AppError(401, REFUSED.invalid);
  // Spent by its signature's bytes, not by its text: base64url lets the last character of a
  // signature vary in bits that decode to nothing, so one token has several texts that verify.
  const hash = createHash('sha256').update(Buffer.from(token.split('.')[2]!, 'base64url')).digest('base64url');
  const [row] = await sql.query<{ fresh: boolean; end_user_id: string | null; name: string | null }>(EXCHANGE_TOKEN.name, EXCHANGE_TOKEN.text, [
    project.id,
    user.data.externalId,
    hash,
    payload.exp,
    JSON.stringify(user.data),
  ]);
  if (!row?.fresh || !row.end_user_id) throw new AppError(401, REFUSED.used);
  return { endUserId: row.end_user_id, externalId: user.data.externalId, name: row.name };
}

