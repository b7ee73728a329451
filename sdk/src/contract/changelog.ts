import { z } from 'zod';
import { labelledString, TimestampSchema } from './common.js';
import { FeedbackStatusSchema } from './enums.js';
import { integerParam } from './query.js';

// The changelog (docs/changelog.md), an operator's extension: a secret key writes entries, a
// public key reads the published ones. An entry is published once its `publishedAt` is reached:
// readers filter by that time, so a scheduled entry appears at its time without anyone acting.

/** Longest entry title, as an item's (spec part 8). */
export const CHANGELOG_TITLE_MAX_LENGTH = 200;
/** Longest Markdown body: a long release note, not a document store. */
export const CHANGELOG_BODY_MAX_LENGTH = 50_000;
/** Most items one entry links to. */
export const CHANGELOG_LINKS_MAX = 100;

const TitleSchema = labelledString('title')
  .trim()
  .min(1, { error: 'title is required' })
  .max(CHANGELOG_TITLE_MAX_LENGTH, { error: `title must be at most ${CHANGELOG_TITLE_MAX_LENGTH} characters` });

const BodySchema = labelledString('body').max(CHANGELOG_BODY_MAX_LENGTH, { error: `body must be at most ${CHANGELOG_BODY_MAX_LENGTH} characters` });

/** The items an entry links to, by id; duplicates count once. */
const LinksSchema = z
  .array(z.string({ error: 'links must be a list of feedback ids' }), { error: 'links must be a list of feedback ids' })
  .max(CHANGELOG_LINKS_MAX, { error: `links must name at most ${CHANGELOG_LINKS_MAX} items` });

/** A publication time: an ISO 8601 date and time, with an offset or Z. */
const PublishAtSchema = z.iso.datetime({ offset: true, error: 'publishAt must be an ISO 8601 date and time, like 2026-12-01T09:00:00Z' });

const ActorSchema = labelledString('actor').trim().max(200, { error: 'actor must be at most 200 characters' }).optional();

/** `draft` (no publication time), `scheduled` (a time to come) or `published` (its time has come). */
export const ChangelogStateSchema = z.enum(['draft', 'scheduled', 'published']);

/** An item an entry links to, as entries show it. */
export const ChangelogItemSchema = z.object({ id: z.string(), title: z.string(), status: FeedbackStatusSchema });

/** A changelog entry. `body` is the Markdown the writer sent; the board renders it (raw HTML off). */
export const ChangelogEntrySchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  state: ChangelogStateSchema,
  /** When it is (or was) published; null for a draft. */
  publishedAt: TimestampSchema.nullable(),
  /** The linked items, oldest first. */
  items: z.array(ChangelogItemSchema),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});

/** Body of POST /api/v1/changelog. */
export const CreateChangelogRequestSchema = z.object({
  title: TitleSchema,
  body: BodySchema,
  links: LinksSchema.optional(),
  /** Publish it now (`publish: true`), or at `publishAt`; neither leaves a draft. */
  publish: z.boolean({ error: 'publish must be true or false' }).optional(),
  publishAt: PublishAtSchema.optional(),
  /** On publishing, move the linked items to `completed` (with their history and events). */
  complete: z.boolean({ error: 'complete must be true or false' }).optional(),
  /** The name recorded with those status changes. */
  actor: ActorSchema,
});

/** Body of PATCH /api/v1/changelog/:entryId: at least one field; `links` replaces the whole list. */
export const UpdateChangelogRequestSchema = z
  .object({ title: TitleSchema.optional(), body: BodySchema.optional(), links: LinksSchema.optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { error: 'Give at least one of title, body or links' });

/** Body of POST /api/v1/changelog/:entryId/publish: now, or at `publishAt` (a scheduled entry may be moved). */
export const PublishChangelogRequestSchema = z.object({
  publishAt: PublishAtSchema.optional(),
  complete: z.boolean({ error: 'complete must be true or false' }).optional(),
  actor: ActorSchema,
});

/** Query of GET /api/v1/changelog: newest publication first (drafts first for a secret key). */
export const ListChangelogQuerySchema = z.object({
  page: integerParam('page', 1, 1, 10_000_000),
  limit: integerParam('limit', 20, 1, 100),
});

export const ChangelogEntryIdParamsSchema = z.object({ entryId: z.string() });
export const ChangelogEntryResponseSchema = z.object({ entry: ChangelogEntrySchema });
export const ChangelogListResponseSchema = z.object({
  items: z.array(ChangelogEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
});
export const DeleteChangelogResponseSchema = z.object({ id: z.string(), deleted: z.literal(true) });

export type ChangelogEntry = z.infer<typeof ChangelogEntrySchema>;
export type ChangelogItem = z.infer<typeof ChangelogItemSchema>;
export type ChangelogState = z.infer<typeof ChangelogStateSchema>;
export type CreateChangelogRequest = z.input<typeof CreateChangelogRequestSchema>;
export type UpdateChangelogRequest = z.input<typeof UpdateChangelogRequestSchema>;
export type PublishChangelogRequest = z.input<typeof PublishChangelogRequestSchema>;
export type ListChangelogQuery = z.input<typeof ListChangelogQuerySchema>;
export type ChangelogList = z.infer<typeof ChangelogListResponseSchema>;
