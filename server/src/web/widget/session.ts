import { createHmac } from 'node:crypto';
import type { AppContext } from '../../http/context.js';
import { sameSignature } from '../kit/signatures.js';
import type { Visitor } from '../kit/visitor-token.js';
import type { WidgetProject } from './widget-project.js';

/**
 * The panel's session (docs/widget.md, "Identity"). A browser that blocks third-party cookies
 * would drop a cookie set inside the host's frame, so the panel holds its session itself: in a
 * variable of its script, sent back as a header (`X-Feedback-Session`) on its fetches and as a
 * hidden field on its forms; never a cookie, never in an address (logs, Referer). It is bound to
 * the project and to the host origin it was exchanged for, and lasts an hour; the panel asks the
 * loader for a new token before then.
 */

/** How long a panel's session lasts: the host app's token is asked again before it ends. */
export const WIDGET_SESSION_SECONDS = 60 * 60;
/** The header the panel's script sends its session in. */
export const SESSION_HEADER = 'x-feedback-session';
/** The hidden field the panel's forms send it in. */
export const SESSION_FIELD = 'session';

/** A session, made when the panel exchanged the host app's token (widget.ts, /w/:slug/session). */
export function makeSession(project: WidgetProject, visitor: Visitor, hostOrigin: string): { session: string; expiresIn: number } {
  const expires = Math.floor(Date.now() / 1000) + WIDGET_SESSION_SECONDS;
  const payload = Buffer.from(JSON.stringify({ p: project.id, u: visitor.endUserId, x: visitor.externalId, n: visitor.name, o: hostOrigin, e: expires })).toString('base64url');
  return { session: `${payload}.${sign(project.identitySecret!, payload).toString('base64url')}`, expiresIn: WIDGET_SESSION_SECONDS };
}

/**
 * The visitor of a request: from its session header (or, for a form, its hidden field), signed for
 * this project and this host origin, not expired; undefined for anyone else (anonymous).
 */
export function sessionVisitor(ctx: AppContext, project: WidgetProject, hostOrigin: string | undefined): Visitor | undefined {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  const given = ctx.get(SESSION_HEADER) || (typeof body?.[SESSION_FIELD] === 'string' ? body[SESSION_FIELD] : '');
  if (!given || !project.identitySecret || hostOrigin === undefined) return undefined;
  const [payload, signature] = given.split('.');
  if (!payload || !signature) return undefined;
  if (!sameSignature(signature, sign(project.identitySecret, payload))) return undefined;
  let session: { p?: unknown; u?: unknown; x?: unknown; n?: unknown; o?: unknown; e?: unknown };
  try {
    session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof session;
  } catch {
    return undefined;
  }
  if (session.p !== project.id || session.o !== hostOrigin || typeof session.u !== 'string' || typeof session.x !== 'string' || typeof session.e !== 'number') return undefined;
  if (session.e * 1000 <= Date.now()) return undefined;
  return { endUserId: session.u, externalId: session.x, name: typeof session.n === 'string' ? session.n : null };
}

// A key of its own, derived from the identity secret: rotating the secret ends every panel's
// session, and neither a board cookie nor a token passes for a panel's session.
function sign(secret: string, payload: string): Buffer {
  const key = createHmac('sha256', secret).update('feedback widget session v1').digest();
  return createHmac('sha256', key).update(payload).digest();
}
