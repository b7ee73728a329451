import { createHash } from 'node:crypto';
import type { ModerationMode, SortBy } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import { ShortCache } from '../../http/short-cache.js';
import { accentStyle } from '../../domain/projects/brand/accent.js';
import { boardPaths } from '../../board-paths.js';
import { moderationPolicy, type ModerationPolicy } from '../../domain/moderation/policy.js';

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
  /** The brand (`feedback board brand`): the line under the name and the pages' meta description. */
  description?: string | null | undefined;
  /** The list's order when the visitor picks none; null: the API's (newest). */
  defaultSort?: SortBy | null | undefined;
  /** The logo's path and size, for the header's <img> and the link previews' og:image. */
  logo?: { path: string; width: number; height: number } | null | undefined;
  /** The accent's stylesheet (both themes) and its CSP hash: inline, allowed by that hash alone (kit/guards.ts). */
  accent?: { style: string; hash: string } | null | undefined;
  /** The pages' language when the reader chose none and their browser asks for none we have (`feedback board brand --locale`); null: English. */
  locale?: string | null | undefined;
  /** Whether anonymous visitors may comment (`anonymousComments`, off by default): else the form asks them to sign in through the app. */
  anonymousComments?: boolean | undefined;
  /** Whose posts wait for the team (`feedback board moderation`, domain/moderation/policy.ts); null or none given: nobody's. */
  moderation?: ModerationPolicy | null | undefined;
  /**
   * The origin this request's pages are at (the public URL, or else the request's own): set per
   * request (board.ts), for the link previews' absolute og:url and og:image.
   */
  origin?: string | undefined;
}

/**
 * How long a board's project is trusted without asking the database again: the bound on how long
 * a change by `feedback board` (off, a rotated secret, a framing origin, the brand) goes unseen by
 * a running server, as KEY_CACHE_TTL_MS is for a revoked key.
 */
export const BOARD_PROJECT_CACHE_TTL_MS = 1_000;
/** Slugs remembered at most (unknown ones too, so that asking for made-up boards cannot grow it). */
const BOARD_PROJECT_CACHE_MAX_ENTRIES = 1_000;

/** The project of a board, by slug, only when its board is on; not the logo's bytes (the logo's own route reads them). $1 slug. */
const BOARD_PROJECT = {
  name: 'board_project',
  text: `select id::text, slug, name, voter_salt, identity_secret, board_frame_origins, board_description, board_accent, board_default_sort,
board_logo_hash, board_logo_width, board_logo_height, board_locale, anonymous_comments, moderation, moderation_hold_links from projects where slug = $1 and board_enabled`,
};

type Row = {
  id: string;
  slug: string;
  name: string;
  voter_salt: string;
  identity_secret: string | null;
  board_frame_origins: string[];
  board_description: string | null;
  board_accent: string | null;
  board_default_sort: SortBy | null;
  board_logo_hash: string | null;
  board_logo_width: number | null;
  board_logo_height: number | null;
  board_locale: string | null;
  anonymous_comments: boolean;
  moderation: ModerationMode;
  moderation_hold_links: boolean;
};

/** The boards' projects by slug, each read at most once a second (`ttlMs`) per process. */
export function boardProjects(sql: SqlPool, ttlMs: number = BOARD_PROJECT_CACHE_TTL_MS): (slug: string) => Promise<BoardProject | undefined> {
  const cache = new ShortCache<BoardProject | undefined>(ttlMs, BOARD_PROJECT_CACHE_MAX_ENTRIES);
  const load = async (slug: string): Promise<BoardProject | undefined> => {
    const [row] = await sql.query<Row>(BOARD_PROJECT.name, BOARD_PROJECT.text, [slug]);
    return row && projectOf(row);
  };
  return (slug) => cache.get(slug, () => load(slug));
}

function projectOf(row: Row): BoardProject {
  const style = accentStyle(row.board_accent);
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    voterSalt: row.voter_salt,
    identitySecret: row.identity_secret,
    frameOrigins: row.board_frame_origins,
    description: row.board_description,
    defaultSort: row.board_default_sort,
    logo: row.board_logo_hash ? { path: boardPaths.logo(row.slug, row.board_logo_hash), width: row.board_logo_width ?? 0, height: row.board_logo_height ?? 0 } : null,
    accent: style === undefined ? null : { style, hash: `'sha256-${createHash('sha256').update(style).digest('base64')}'` },
    locale: row.board_locale,
    anonymousComments: row.anonymous_comments,
    moderation: moderationPolicy(row.moderation, row.moderation_hold_links),
  };
}

/** A board's logo, by the project's slug and the hash in its path: only the current logo of a board that is on. $1 slug, $2 hash. */
export const BOARD_LOGO = {
  name: 'board_logo',
  text: 'select board_logo as bytes, board_logo_type as type from projects where slug = $1 and board_enabled and board_logo_hash = $2',
};
