import { z } from 'zod';
import { DISPLAY_NAME_MAX_LENGTH } from './admin.js';
import { labelledString } from './common.js';
import { BOARD_LOCALES } from './constants.js';
import { SortBySchema } from './enums.js';
import { ModerationModeSchema } from './moderation.js';

// A project's public board as its operator sets it (docs/board.md): what `feedback board` shows,
// and the brand (name, description, logo, accent colour, default order, default language) that PATCH /api/v1/board
// and `feedback board brand` change. Secret keys only.

/** Longest board description, after trimming: one line, as a link preview shows it. */
export const BOARD_DESCRIPTION_MAX_LENGTH = 300;

const ACCENT = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
/** Canonical base64 (padding included), as Buffer.toString('base64') writes it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The fields PATCH /api/v1/board may change; at least one of them must be given. */
const BRAND_FIELDS = ['name', 'description', 'accent', 'defaultSort', 'logo', 'locale'] as const;
/** The other settings PATCH /api/v1/board may change. */
const SETTING_FIELDS = ['anonymousComments', 'moderation', 'moderationHoldLinks'] as const;

/** A board's default language: one of BOARD_LOCALES, as spelled there. */
export const BoardLocaleSchema = z.enum(BOARD_LOCALES, { error: () => `locale must be one of the supported languages: ${BOARD_LOCALES.join(', ')}` });

/** The brand's fields, each checked alone (the server's service checks the CLI's input with them too). */
export const BoardBrandFieldsSchema = z.object({
  name: labelledString('name')
    .trim()
    .min(1, { error: 'name must not be empty' })
    .max(DISPLAY_NAME_MAX_LENGTH, { error: `name must be at most ${DISPLAY_NAME_MAX_LENGTH} characters` })
    .optional(),
  description: labelledString('description')
    .trim()
    .max(BOARD_DESCRIPTION_MAX_LENGTH, { error: `description must be at most ${BOARD_DESCRIPTION_MAX_LENGTH} characters` })
    .refine((text) => !/[\r\n]/.test(text), { error: 'description must be one line' })
    .nullish(),
  accent: labelledString('accent').trim().regex(ACCENT, { error: 'accent must be a colour written #rgb or #rrggbb, such as #0a6' }).nullish(),
  defaultSort: SortBySchema.nullish(),
  logo: labelledString('logo').regex(BASE64, { error: "logo must be the image's bytes in base64" }).nullish(),
  /** The pages' language when the reader chose none and their browser asks for none we have; null: English. */
  locale: BoardLocaleSchema.nullish(),
});

/**
 * Body of PATCH /api/v1/board. A field left out keeps its value; `null` clears it (the name cannot
 * be cleared). `logo` is the image's bytes in base64: PNG, JPEG, WebP or GIF by its first bytes, at
 * most 256 KB (SVG is refused). `accent` must reach 4.5:1 in the light theme (a 400 says the ratio
 * and a darker colour that passes); the dark theme's is derived from it.
 */
export const UpdateBoardRequestSchema = BoardBrandFieldsSchema.extend({
  /** Whether end users may comment without `endUser` through a public key (docs/api.md, "Comments"); off by default. */
  anonymousComments: z.boolean({ error: 'anonymousComments must be true or false' }).optional(),
  /** Whose posts wait for the team (docs/moderation.md); `none` by default. */
  moderation: ModerationModeSchema.optional(),
  /** Whether a post with a link waits for the team whatever `moderation` says. */
  moderationHoldLinks: z.boolean({ error: 'moderationHoldLinks must be true or false' }).optional(),
}).refine((body) => [...BRAND_FIELDS, ...SETTING_FIELDS].some((field) => body[field] !== undefined), {
  error: `Give at least one of ${[...BRAND_FIELDS, ...SETTING_FIELDS].join(', ')}`,
});

/** The board's logo as it is served: at `path` on the server, for a year (the path changes with the image). */
export const BoardLogoSchema = z.object({
  path: z.string().startsWith('/b/'),
  type: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif']),
  width: z.number().int(),
  height: z.number().int(),
});

/** A project's board settings: GET and PATCH /api/v1/board answer them, and `feedback board … --json` prints them. */
export const BoardSettingsSchema = z.object({
  project: z.string(),
  boardEnabled: z.boolean(),
  /** Where the board is served, on the server's own address. */
  path: z.string(),
  identifiedVisitors: z.boolean(),
  frameOrigins: z.array(z.string()),
  /** The project's name: the board's title, header and link previews. */
  name: z.string(),
  description: z.string().nullable(),
  /** The light theme's accent (`#rrggbb`); null: the board's own blue. */
  accent: z.string().nullable(),
  /** The dark theme's accent, derived from `accent` (the same, or lighter until it reads at 4.5:1). */
  darkAccent: z.string().nullable(),
  /** The list's order when a visitor picks none; null: newest, as the API. */
  defaultSort: SortBySchema.nullable(),
  logo: BoardLogoSchema.nullable(),
  /** The pages' language when the reader chose none and their browser asks for none we have; null: English. */
  locale: BoardLocaleSchema.nullable(),
  /** Whether end users may comment anonymously (without `endUser`) through a public key. */
  anonymousComments: z.boolean(),
  /** Whose posts wait for the team (docs/moderation.md): `none`, `anonymous` or `all`. */
  moderation: ModerationModeSchema,
  /** Whether a post with a link waits for the team whatever `moderation` says. */
  moderationHoldLinks: z.boolean(),
});

export type BoardSettings = z.infer<typeof BoardSettingsSchema>;
export type BoardLogo = z.infer<typeof BoardLogoSchema>;
export type UpdateBoardRequest = z.input<typeof UpdateBoardRequestSchema>;
