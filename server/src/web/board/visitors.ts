import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
// The longest a token may live (10 minutes): a link that leaks (a log, a history) is soon worth nothing.
import { BOARD_TOKEN_MAX_SECONDS } from '@feedbackd/sdk/board';
import { EndUserInputSchema } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import type { BoardProject } from './projects.js';
import { EXCHANGE_TOKEN } from './board.sql.js';
import { boardPaths } from '../kit/paths.js';

/**
 * Identified visitors (docs/board.md, "Identified visitors"). The host app's backend signs a short
 * token for its signed-in user with the project's identity secret (HS256, `sub` = the user's
 * externalId, `aud` = the project's slug, `exp` at most 10 minutes ahead); the board checks it
 * with jose, spends it, records the end user as identify does, and gives the browser a session
 * cookie instead. From then on the visitor's votes and submissions are that end user's.
 */

/** Clocks disagree a little: a token this far past its `exp` (or ahead of the limit) still passes. */
const CLOCK_TOLERANCE_SECONDS = 30;
/** How long a session lasts: the host app can sign its user in again at any time with a new link. */
export const VISITOR_SESSION_SECONDS = 7 * 24 * 60 * 60;
/** The cookie, one per board (its path is the board's). */
export const VISITOR_COOKIE = 'feedback_visitor';

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
export async function exchangeToken(sql: SqlPool, project: BoardProject, token: string): Promise<Visitor> {
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

/** The visitor of a request, from a session cookie this board signed; undefined for anyone else. */
export function visitorOf(ctx: AppContext, project: BoardProject): Visitor | undefined {
  const cookie = ctx.cookies.get(VISITOR_COOKIE);
  if (!cookie || !project.identitySecret) return undefined;
  const [payload, signature] = cookie.split('.');
  if (!payload || !signature) return undefined;
  const expected = sign(project.identitySecret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let session: { p?: unknown; u?: unknown; x?: unknown; n?: unknown; e?: unknown };
  try {
    session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof session;
  } catch {
    return undefined;
  }
  if (session.p !== project.id || typeof session.u !== 'string' || typeof session.x !== 'string' || typeof session.e !== 'number') return undefined;
  if (session.e * 1000 <= Date.now()) return undefined;
  return { endUserId: session.u, externalId: session.x, name: typeof session.n === 'string' ? session.n : null };
}

/**
 * Gives the browser the visitor's session: HttpOnly (no script reads it), SameSite=Lax (another
 * site's form post does not carry it), Secure over HTTPS, and only for this board's paths. Its
 * value is signed with a key derived from the identity secret, so rotating the secret ends every
 * session, and a session cannot be passed off as a token (nor the other way).
 */
export function startSession(ctx: AppContext, project: BoardProject, visitor: Visitor): void {
  const expires = Math.floor(Date.now() / 1000) + VISITOR_SESSION_SECONDS;
  const payload = Buffer.from(JSON.stringify({ p: project.id, u: visitor.endUserId, x: visitor.externalId, n: visitor.name, e: expires })).toString('base64url');
  setCookie(ctx, project, `${payload}.${sign(project.identitySecret!, payload).toString('base64url')}`, VISITOR_SESSION_SECONDS * 1000);
}

/** Signs the visitor out of this board (this browser): the cookie is cleared. */
export function endSession(ctx: AppContext, project: BoardProject): void {
  setCookie(ctx, project, '', 0);
}

function setCookie(ctx: AppContext, project: BoardProject, value: string, maxAge: number): void {
  ctx.cookies.set(VISITOR_COOKIE, value || null, {
    path: boardPaths.board(project.slug),
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secure,
    maxAge: maxAge || undefined,
    expires: maxAge ? undefined : new Date(0),
    overwrite: true,
  });
}

function sign(secret: string, payload: string): Buffer {
  const key = createHmac('sha256', secret).update('feedback board session v1').digest();
  return createHmac('sha256', key).update(payload).digest();
}
