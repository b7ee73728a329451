import { createHmac } from 'node:crypto';
import type { AppContext } from '../../http/context.js';
import type { BoardProject } from './projects.js';
import type { Visitor } from '../kit/visitor-token.js';
import { boardPaths } from '../../board-paths.js';
import { sameSignature } from '../kit/signatures.js';

/**
 * Identified visitors (docs/board.md, "Identified visitors"). The host app's backend signs a short
 * token for its signed-in user with the project's identity secret (HS256, `sub` = the user's
 * externalId, `aud` = the project's slug, `exp` at most 10 minutes ahead); the board checks it
 * with jose, spends it, records the end user as identify does, and gives the browser a session
 * cookie instead. From then on the visitor's votes and submissions are that end user's.
 */

// The token's check and exchange are the widget's too (web/kit/visitor-token.ts).
export { exchangeToken, type Visitor } from '../kit/visitor-token.js';

/** How long a session lasts: the host app can sign its user in again at any time with a new link. */
export const VISITOR_SESSION_SECONDS = 7 * 24 * 60 * 60;
/** The cookie, one per board (its path is the board's). */
export const VISITOR_COOKIE = 'feedback_visitor';

/** The visitor of a request, from a session cookie this board signed; undefined for anyone else. */
export function visitorOf(ctx: AppContext, project: BoardProject): Visitor | undefined {
  const cookie = ctx.cookies.get(VISITOR_COOKIE);
  if (!cookie || !project.identitySecret) return undefined;
  const [payload, signature] = cookie.split('.');
  if (!payload || !signature) return undefined;
  if (!sameSignature(signature, sign(project.identitySecret, payload))) return undefined;
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
