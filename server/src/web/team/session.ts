import type { SqlPool } from '../../db/pool.js';
import type { AppContext } from '../../http/context.js';
import { hashToken, newToken } from '../../domain/team-sessions/team-sessions.service.js';
import { END_SESSION, FIND_SESSION, LINK_STATE, OPEN_WITH_KEY, USE_LINK } from '../../domain/team-sessions/team-sessions.sql.js';

/**
 * The team's session cookie. Its value is a random 256-bit token; the server keeps only its
 * SHA-256 and looks the session up by it on every request, so the cookie needs no signature of
 * its own: nobody can make a token that finds a row, and a copy of the database holds none.
 * HttpOnly (no script reads it), SameSite=Lax (another site's posts do not carry it; the posts
 * are also checked for their origin), Secure when the request came over HTTPS, and sent only to
 * the team's pages (Path=/team), never to the board or the API.
 */
export const SESSION_COOKIE = 'feedback_team';
const COOKIE_PATH = '/team';

/** The project a session is signed in to, as the team's pages know it. */
export interface TeamProject {
  id: string;
  slug: string;
  name: string;
  boardEnabled: boolean;
  /** The board's default language (`feedback board brand --locale`): the team's pages fall back to it too (kit/locale-choice.ts). Null when none. */
  locale: string | null;
}

/**
 * A live session: its id (the actor of its changes), who the member said they are (null: not
 * said), the key that opened it (null: made on the database), and its project.
 */
export interface TeamSession {
  id: string;
  name: string | null;
  keyId: string | null;
  project: TeamProject;
}

/** The team's sessions on the hot pool: found by the cookie's hash, opened from a link or a key, ended. */
export function teamSessions(sql: SqlPool) {
  const cookieToken = (ctx: AppContext): string | undefined => {
    const value = ctx.cookies.get(SESSION_COOKIE);
    // A token is 43 base64url characters: anything else names no session and is not looked up.
    return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
  };
  const setCookie = (ctx: AppContext, token: string | null): void => {
    ctx.cookies.set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: COOKIE_PATH, overwrite: true });
  };
  const open = async (ctx: AppContext, statement: typeof USE_LINK, values: unknown[]): Promise<boolean> => {
    const token = newToken();
    const [row] = await sql.query<{ id: string }>(statement.name, statement.text, [values[0], hashToken(token), ...values.slice(1)]);
    if (!row) return false;
    // A browser signing in again leaves no second session behind it: the one its cookie named ends.
    const previous = cookieToken(ctx);
    if (previous) await sql.query(END_SESSION.name, END_SESSION.text, [hashToken(previous)]);
    setCookie(ctx, token);
    return true;
  };

  return {
    /** Whether the request carries a session cookie at all (live or not). */
    hasCookie: (ctx: AppContext): boolean => ctx.cookies.get(SESSION_COOKIE) !== undefined,

    /** The request's live session, or undefined (no cookie, an unknown token, ended, idle, or its key revoked). */
    async current(ctx: AppContext): Promise<TeamSession | undefined> {
      const token = cookieToken(ctx);
      if (!token) return undefined;
      const [row] = await sql.query<{ id: string; member: string | null; api_key_id: string | null; project_id: string; slug: string; project_name: string; board_enabled: boolean; board_locale: string | null }>(
        FIND_SESSION.name,
        FIND_SESSION.text,
        [hashToken(token)],
      );
      if (!row) return undefined;
      return { id: row.id, name: row.member, keyId: row.api_key_id, project: { id: row.project_id, slug: row.slug, name: row.project_name, boardEnabled: row.board_enabled, locale: row.board_locale } };
    },

    /** Uses a one-time link's token and, when it works, opens a session and sets its cookie. */
    openWithLink: (ctx: AppContext, linkToken: string): Promise<boolean> => open(ctx, USE_LINK, [hashToken(linkToken)]),

    /** Why a link's token did not work: unknown, used or expired. */
    async linkState(linkToken: string): Promise<'unknown' | 'used' | 'expired'> {
      const [row] = await sql.query<{ used: boolean; expired: boolean }>(LINK_STATE.name, LINK_STATE.text, [hashToken(linkToken)]);
      if (!row) return 'unknown';
      // A link of a key revoked since then is neither: it reads as expired, which is what it is now.
      return row.used ? 'used' : 'expired';
    },

    /** Opens a session with a secret key's hash (the sign-in form) and the name given, setting its cookie; false when it is no live secret key. */
    openWithKey: (ctx: AppContext, keyHash: string, name: string | null): Promise<boolean> => open(ctx, OPEN_WITH_KEY, [keyHash, name]),

    /** Ends the request's session on the server and clears its cookie. */
    async end(ctx: AppContext): Promise<void> {
      const token = cookieToken(ctx);
      if (token) await sql.query(END_SESSION.name, END_SESSION.text, [hashToken(token)]);
      setCookie(ctx, null);
    },

    /** Clears a cookie that names no live session, so the browser stops sending it. */
    clear: (ctx: AppContext): void => setCookie(ctx, null),
  };
}

export type TeamSessions = ReturnType<typeof teamSessions>;
