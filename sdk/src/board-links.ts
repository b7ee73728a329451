/**
 * Sign-in links to the public board, for the host app's backend: its signed-in user opens the
 * board as themselves, with no second account (docs/board.md, "Identified visitors"). The link
 * carries a short HS256 JSON Web Token signed with the project's identity secret
 * (`feedback board secret create`), which the board exchanges once for a session cookie.
 *
 * Also exported alone as `@feedbackd/sdk/board`: it loads node:crypto only, never the client's
 * undici. Keep the secret on the server: never sign in a browser.
 *
 * @example
 * import { boardSignInLink } from '@feedbackd/sdk/board';
 *
 * app.get('/feedback', (req, res) => res.redirect(boardSignInLink({
 *   serverUrl: 'https://feedback.example.com',
 *   project: 'acme',
 *   secret: process.env.FEEDBACK_BOARD_SECRET!,
 *   user: { externalId: req.user.id, name: req.user.name, email: req.user.email },
 * })));
 */
import { createHmac, randomBytes } from 'node:crypto';

/** The longest a board token may live; the board refuses a longer one. */
export const BOARD_TOKEN_MAX_SECONDS = 600;
/** How long a link made here lives unless told otherwise: time to follow it, and no more. */
export const BOARD_TOKEN_DEFAULT_SECONDS = 300;

/** The host app's user, as identify takes them: the externalId, and optional profile fields that update the stored ones. */
export interface BoardVisitor {
  externalId: string;
  name?: string;
  email?: string;
  avatarUrl?: string;
}

export interface BoardTokenOptions {
  /** The project's slug: the token's audience, so a token for one board opens no other. */
  project: string;
  /** The project's identity secret (`feedback board secret create`). */
  secret: string;
  user: BoardVisitor;
  /** Seconds until the token expires: 1 to 600, 300 by default. */
  expiresIn?: number;
}

export interface BoardSignInLinkOptions extends BoardTokenOptions {
  /** The server's address, as an API client's `baseUrl` (https://feedback.example.com). */
  serverUrl: string | URL;
  /** A path of the same board to land on (`/b/acme/items/<id>`); the board's list by default. */
  returnTo?: string;
}

/**
 * The token alone (`sub` = externalId, `aud` = project, `iat`, `exp`, `jti`, and the profile
 * fields given), for a link made by hand. `jti` is 128 random bits: the board spends a token once,
 * and without it two links for one user made in the same second would be the same bytes, the
 * second refused as used.
 */
export function signBoardToken(options: BoardTokenOptions): string {
  const expiresIn = options.expiresIn ?? BOARD_TOKEN_DEFAULT_SECONDS;
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > BOARD_TOKEN_MAX_SECONDS) {
    throw new RangeError(`expiresIn must be a whole number of seconds from 1 to ${BOARD_TOKEN_MAX_SECONDS}`);
  }
  if (typeof options.user?.externalId !== 'string' || options.user.externalId.trim() === '') throw new TypeError('user.externalId is required');
  if (typeof options.secret !== 'string' || options.secret === '') throw new TypeError('secret is required');
  const now = Math.floor(Date.now() / 1000);
  const { externalId, name, email, avatarUrl } = options.user;
  const claims = { sub: externalId, aud: options.project, iat: now, exp: now + expiresIn, jti: randomBytes(16).toString('base64url'), name, email, avatarUrl };
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${unsigned}.${createHmac('sha256', options.secret).update(unsigned).digest('base64url')}`;
}

/** The board's sign-in link for the user: `<serverUrl>/b/<project>/sign-in?token=…`, valid once, for `expiresIn` seconds. */
export function boardSignInLink(options: BoardSignInLinkOptions): string {
  const url = new URL(`b/${encodeURIComponent(options.project)}/sign-in`, String(options.serverUrl).replace(/\/*$/, '/'));
  url.searchParams.set('token', signBoardToken(options));
  if (options.returnTo !== undefined) url.searchParams.set('to', options.returnTo);
  return url.toString();
}
