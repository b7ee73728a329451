import type { AppContext } from '../../http/context.js';
import type { TeamSession } from './session.js';
import { teamPaths } from './layout.js';

/** A request of a signed-in team member: its context and its live session (with the project). */
export interface TeamRequest {
  ctx: AppContext;
  session: TeamSession;
}

/** A field of the posted form: text, a list (a repeated field), or undefined. */
export function formField(ctx: AppContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  return body && Object.hasOwn(body, name) ? body[name] : undefined;
}

/** Post, then redirect, then get: 303, so a reload does not post again. */
export function seeOther(ctx: AppContext, path: string): void {
  ctx.status = 303;
  ctx.redirect(path);
}

/**
 * Where a team form may send the browser back: a path of the team's pages on this server, never
 * another site (`//host`, `/\host`, a scheme) nor a header break.
 */
export function safeTeamReturn(value: unknown): string | undefined {
  const inbox = teamPaths.inbox;
  if (typeof value !== 'string' || value.length > 2_000) return undefined;
  if (value !== inbox && !value.startsWith(`${inbox}/`) && !value.startsWith(`${inbox}?`)) return undefined;
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return undefined;
  const base = 'http://team.invalid';
  const url = new URL(value, base);
  return url.origin === base ? url.pathname + url.search : undefined;
}
