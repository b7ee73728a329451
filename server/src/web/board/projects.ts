import type { SqlPool } from '../../db/pool.js';
import { ShortCache } from '../../http/short-cache.js';

/** A project whose board is on, as the pages know it. */
export interface BoardProject {
  id: string;
  slug: string;
  name: string;
  voterSalt: string;
  /** The key of the host app's visitor tokens (visitors.ts); null: the board takes none. */
  identitySecret: string | null;
  /** Origins allowed to frame the board (kit/guards.ts); empty: none. */
  frameOrigins: readonly string[];
}

/**
 * How long a board's project is trusted without asking the database again: the bound on how long
 * a change by `feedback board` (off, a rotated secret, a framing origin) goes unseen by a running
 * server, as KEY_CACHE_TTL_MS is for a revoked key.
 */
export const BOARD_PROJECT_CACHE_TTL_MS = 1_000;
/** Slugs remembered at most (unknown ones too, so that asking for made-up boards cannot grow it). */
const BOARD_PROJECT_CACHE_MAX_ENTRIES = 1_000;

/** The project of a board, by slug, only when its board is on. $1 slug. */
const BOARD_PROJECT = {
  name: 'board_project',
  text: 'select id::text, slug, name, voter_salt, identity_secret, board_frame_origins from projects where slug = $1 and board_enabled',
};

/** The boards' projects by slug, each read at most once a second per process. */
export function boardProjects(sql: SqlPool): (slug: string) => Promise<BoardProject | undefined> {
  const cache = new ShortCache<BoardProject | undefined>(BOARD_PROJECT_CACHE_TTL_MS, BOARD_PROJECT_CACHE_MAX_ENTRIES);
  const load = async (slug: string): Promise<BoardProject | undefined> => {
    const [row] = await sql.query<{ id: string; slug: string; name: string; voter_salt: string; identity_secret: string | null; board_frame_origins: string[] }>(
      BOARD_PROJECT.name,
      BOARD_PROJECT.text,
      [slug],
    );
    return row && { id: row.id, slug: row.slug, name: row.name, voterSalt: row.voter_salt, identitySecret: row.identity_secret, frameOrigins: row.board_frame_origins };
  };
  return (slug) => cache.get(slug, () => load(slug));
}
