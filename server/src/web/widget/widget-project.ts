import type { ModerationMode, SortBy } from '@feedbackd/sdk/contract';
import type { SqlPool } from '../../db/pool.js';
import { ShortCache } from '../../http/short-cache.js';
import { exactOrigin } from '../../origins.js';
import { moderationPolicy, type ModerationPolicy } from '../../domain/moderation/policy.js';
import { WIDGET_PROJECT } from './widget.sql.js';

/** A project whose widget is on, as the panel knows it. */
export interface WidgetProject {
  id: string;
  slug: string;
  name: string;
  voterSalt: string;
  /** The key of the host app's visitor tokens; null: the panel takes none (anonymous only). */
  identitySecret: string | null;
  /** The host origins allowed to frame the panel and exchange messages with it (`feedback widget on --origin`). */
  origins: readonly string[];
  locale: string | null;
  defaultSort: SortBy | null;
  /** Whose posts wait for the team (`feedback board moderation`, domain/moderation/policy.ts), as on the board; null: nobody's. */
  moderation: ModerationPolicy | null;
}

/** As the board's (web/board/projects.ts): a change by `feedback widget` is seen within a second. */
const CACHE_TTL_MS = 1_000;
const CACHE_MAX_ENTRIES = 1_000;

type Row = {
  id: string;
  slug: string;
  name: string;
  voter_salt: string;
  identity_secret: string | null;
  widget_origins: string[];
  board_locale: string | null;
  board_default_sort: SortBy | null;
  moderation: ModerationMode;
  moderation_hold_links: boolean;
};

/** The widgets' projects by slug, each read at most once a second per process. */
export function widgetProjects(sql: SqlPool): (slug: string) => Promise<WidgetProject | undefined> {
  const cache = new ShortCache<WidgetProject | undefined>(CACHE_TTL_MS, CACHE_MAX_ENTRIES);
  const load = async (slug: string): Promise<WidgetProject | undefined> => {
    const [row] = await sql.query<Row>(WIDGET_PROJECT.name, WIDGET_PROJECT.text, [slug]);
    if (!row) return undefined;
    // Checked again as the board checks its framing origins: only exact origins reach a header.
    const origins = row.widget_origins.map(exactOrigin).filter((origin) => origin !== undefined);
    return {
      id: row.id,
      slug: row.slug,
      name: row.name,
      voterSalt: row.voter_salt,
      identitySecret: row.identity_secret,
      origins,
      locale: row.board_locale,
      defaultSort: row.board_default_sort,
      moderation: moderationPolicy(row.moderation, row.moderation_hold_links),
    };
  };
  return (slug) => cache.get(slug, () => load(slug));
}
