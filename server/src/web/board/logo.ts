import type { SqlPool } from '../../db/pool.js';
import type { AppContext } from '../../http/context.js';
import { BOARD_LOGO } from './projects.js';

/** The logo's route, answered before the board's router (board.ts lists it with the router's). */
export const LOGO_ROUTE = '/b/:slug/logo/:hash';

/** /b/<slug>/logo/<hash>: the hash is the 22 characters of base64url the brand service names a logo by. */
const LOGO_PATH = /^\/b\/([^/]+)\/logo\/([A-Za-z0-9_-]{22})$/;

/** A year, and never asked again: a new logo has a new hash, so a new path. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Answers a GET or HEAD of a board's logo (`feedback board brand --logo`), from the database: its
 * bytes as stored, its type as its magic bytes said when it was checked (domain/projects/brand/logo.ts), a
 * year of cache and its hash as ETag (a 304 for a browser that has it). False when the path is
 * not a logo's, or names none that a board that is on has now: the page runner answers it (404).
 */
export async function serveLogo(sql: SqlPool, ctx: AppContext): Promise<boolean> {
  const match = LOGO_PATH.exec(ctx.path);
  if (!match || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
  let slug: string;
  try {
    slug = decodeURIComponent(match[1]!);
  } catch {
    return false;
  }
  // A NUL names no board (and no PostgreSQL text holds one): the page runner refuses the address with a 400.
  if (slug.includes('\u0000')) return false;
  const hash = match[2]!;
  const [row] = await sql.query<{ bytes: Buffer; type: string }>(BOARD_LOGO.name, BOARD_LOGO.text, [slug, hash]);
  if (!row) return false;
  ctx.set('Cache-Control', IMMUTABLE);
  ctx.set('ETag', `"${hash}"`);
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return true;
  }
  ctx.type = row.type;
  ctx.body = row.bytes;
  return true;
}
