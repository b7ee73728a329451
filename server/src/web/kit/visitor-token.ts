import { createHash } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
// The longest a token may live (10 minutes): a link that leaks (a log, a history) is soon worth nothing.
import { BOARD_TOKEN_MAX_SECONDS } from '@feedbackd/sdk/board';
import { EndUserInputSchema, ERROR_MESSAGES } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import { AppError } from '../../http/errors.js';
import { EXCHANGE_TOKEN } from '../../domain/people/visitor-tokens.sql.js';

/**
 * The host app's visitor token (docs/board.md, "Identified visitors"), which the board's sign-in
 * link and the widget's panel (docs/widget.md) both take: HS256 signed with the project's identity
 * secret, `sub` = the user's externalId, `aud` = the project's slug, `exp` at most 10 minutes
 * ahead, `iat` (optional) not in the future. Checked with jose, spent once, and its end user
 * recorded as identify does.
 */

/** What a token is checked against: the project's slug (the audience) and its identity secret. */
export interface TokenProject {
  id: string;
  slug: string;
  identitySecret: string | null;
}

/** Clocks disagree a little: a token this far past its `exp` (or ahead of the limit, or issued this far ahead) still passes. */
const CLOCK_TOLERANCE_SECONDS = 30;
/** Who is looking, when the host app said so. */
export interface Visitor {
  /** The end user's id: their voter key, as the API's identified votes use it. */
  endUserId: string;
  externalId: string;
  name: string | null;
}

/** Why a token is refused, each in words for whoever sent it (a visitor's page, or the API's JSON). */
export type TokenRefusals = Readonly<Record<'notTaken' | 'expired' | 'used' | 'invalid', string>>;

/** The refusals of a sign-in link, each a page that says what to do. */
const REFUSED: TokenRefusals = {
  notTaken: 'This board does not take sign-in links. Open the board without one to read and vote anonymously.',
  expired: 'This sign-in link has expired: links last a few minutes. Go back to the app that sent you here and open the board again.',
  used: 'This sign-in link has been used already. Go back to the app that sent you here and open the board again.',
  invalid: 'This sign-in link is not valid. Go back to the app that sent you here and open the board again.',
} as const;

/**
 * Checks a token, spends it, and records its end user; the visitor it names, or a 401 page. jose
 * pins the algorithm (so neither `none` nor a key confusion passes), requires `exp` and `sub`, and
 * checks the audience; a token meant to outlive the limit is refused as not valid. `refused`: the
 * words of the refusals (a sign-in link's by default; the API's proof of an end user, docs/api.md,
 * says them its own way). `sql`: the pool, or the transaction of the request it proves.
 */
export async function exchangeToken(sql: Pick<SqlPool, 'query'>, project: TokenProject, token: string, refused: TokenRefusals = REFUSED): Promise<Visitor> {
  if (!project.identitySecret) throw new AppError(401, refused.notTaken);
  let payload;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(project.identitySecret), {
      algorithms: ['HS256'],
      audience: project.slug,
      requiredClaims: ['exp', 'sub'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    throw new AppError(401, error instanceof errors.JWTExpired ? refused.expired : refused.invalid);
  }
  const now = Math.floor(Date.now() / 1000);
  if (payload.exp! > now + BOARD_TOKEN_MAX_SECONDS + CLOCK_TOLERANCE_SECONDS) throw new AppError(401, refused.invalid);
  // Issued in the future (jose checks only that `iat` is a number): a clock that far ahead, or a
  // token made to be used later, is not one the host app just signed.
  if (payload.iat !== undefined && payload.iat > now + CLOCK_TOLERANCE_SECONDS) throw new AppError(401, refused.invalid);
  // The profile as identify takes it: the same names, the same checks; absent claims keep what is stored.
  const claims = Object.fromEntries(['name', 'email', 'avatarUrl'].filter((name) => payload[name] !== undefined).map((name) => [name, payload[name]]));
  const user = EndUserInputSchema.safeParse({ externalId: payload.sub, ...claims });
  if (!user.success) throw new AppError(401, refused.invalid);
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
  if (!row?.fresh || !row.end_user_id) throw new AppError(401, refused.used);
  return { endUserId: row.end_user_id, externalId: user.data.externalId, name: row.name };
}

/** The API's words for a refused token of an end user (docs/api.md, "Comments"). */
const API_REFUSED: TokenRefusals = {
  notTaken: ERROR_MESSAGES.endUserTokenNotTaken,
  expired: ERROR_MESSAGES.endUserTokenExpired,
  used: ERROR_MESSAGES.endUserTokenUsed,
  invalid: ERROR_MESSAGES.endUserTokenInvalid,
};

/**
 * The API's proof of an end user (a public key editing or deleting their comment: docs/api.md,
 * "Comments"): their token, checked and spent exactly as a sign-in link's, by exchangeToken, for
 * the key's project. The externalId it proves, or a 403 (the key is valid; the end user is not
 * proved) with the API's reason.
 */
export async function proveEndUser(sql: Pick<SqlPool, 'query'>, projectId: string, token: string): Promise<string> {
  const [project] = await sql.query<{ slug: string; identity_secret: string | null }>('', 'select slug, identity_secret from projects where id = $1::uuid', [projectId]);
  try {
    const visitor = await exchangeToken(sql, { id: projectId, slug: project!.slug, identitySecret: project!.identity_secret }, token, API_REFUSED);
    return visitor.externalId;
  } catch (error) {
    if (error instanceof AppError && error.status === 401) throw new AppError(403, error.message);
    throw error;
  }
}
