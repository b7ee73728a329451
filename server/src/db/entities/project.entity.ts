import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { SORT_ORDERS } from '@feedbackd/sdk/contract';

const p = defineEntity.properties;

/** A tenant: one customer product. Every other row belongs to one project. */
export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    /** Stable handle; the project made on first start is `default`. */
    slug: p.text().unique(),
    name: p.text(),
    /** Salt of the hashed IPs that identify anonymous voters; kept in the database so every instance hashes alike. */
    voterSalt: p.text().hidden().lazy(),
    /** Whether the public board and roadmap are served at /b/<slug> (docs/board.md); an operator turns it on. */
    boardEnabled: p.boolean().default(false),
    /** The key the host app signs its visitors' board tokens with (HS256); none: the board takes no token. Shown once, by `feedback board secret`. */
    identitySecret: p.text().nullable().hidden().lazy(),
    /** Origins allowed to frame the board (CSP frame-ancestors); empty refuses every frame. */
    boardFrameOrigins: p.array().defaultRaw("'{}'"),
    /** The board's line under its name and its pages' meta description (`feedback board brand`). */
    boardDescription: p.text().nullable(),
    /** The light theme's accent, `#rrggbb`, checked for contrast when set (domain/projects/brand/accent.ts). */
    boardAccent: p.text().nullable(),
    /** The board list's order when the visitor picks none; null: the API's default (newest). */
    boardDefaultSort: p.enum([...SORT_ORDERS]).nullable(),
    /** The logo's bytes, checked by domain/projects/brand/logo.ts; read only by the logo's route. */
    boardLogo: p.blob().nullable().hidden().lazy(),
    boardLogoType: p.text().nullable(),
    /** Names the logo's URL (and is its ETag): a new logo has a new URL, so the old can be cached forever. */
    boardLogoHash: p.text().nullable(),
    boardLogoWidth: p.integer().nullable(),
    boardLogoHeight: p.integer().nullable(),
    /** The pages' language when the reader chose none and their browser asks for none we have (web/kit/locale-choice.ts); null: English. */
    boardLocale: p.text().nullable(),
    /** Whether end users may comment without `endUser` through a public key (PATCH /api/v1/board `anonymousComments`); off by default. */
    anonymousComments: p.boolean().default(false),
    /** Whether the widget's loader and panel answer (`feedback widget on|off`, docs/widget.md). */
    widgetEnabled: p.boolean().default(false),
    /** The host origins allowed to frame the widget's panel and talk to it by postMessage. */
    widgetOrigins: p.array().defaultRaw("'{}'"),
    /** Whose posts wait for the team (docs/moderation.md): none, those without an identified end user, or every end user's. */
    moderation: p.enum(['none', 'anonymous', 'all'] as const).default('none'),
    /** Whether a post with a link waits for the team whatever `moderation` says. */
    moderationHoldLinks: p.boolean().default(false),
    /** Mail subscribers one daily digest instead of a message per coalescing window (`feedback notifications digest`). */
    notifyDigest: p.boolean().default(false),
    createdAt: p.datetime(3).defaultRaw('now()'),
  },
});

export type Project = InferEntity<typeof Project>;
