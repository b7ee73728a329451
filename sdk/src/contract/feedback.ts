import { z } from 'zod';
import { labelledString, MetadataSchema, optionalText, TimestampSchema } from './common.js';
import { FeedbackStatusSchema, FeedbackTypeSchema, SortBySchema } from './enums.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SIMILAR_LIMIT_DEFAULT, SIMILAR_LIMIT_MAX, TITLE_MAX_LENGTH } from './constants.js';
import { choiceParam, commaList, integerParam, textParam } from './query.js';
import { StatusChangeSchema } from './status-history.js';
import { EndUserInputSchema, externalIdField } from './users.js';

export { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SIMILAR_LIMIT_DEFAULT, SIMILAR_LIMIT_MAX, TITLE_MAX_LENGTH };

/** Longest description accepted. */
export const DESCRIPTION_MAX_LENGTH = 100_000;

/** An item's title: 1 to 200 characters after trimming; the trimmed text is stored. */
export const TitleSchema = labelledString('Title')
  .trim()
  .min(1, { error: 'Title is required' })
  .max(TITLE_MAX_LENGTH, { error: `Title must be at most ${TITLE_MAX_LENGTH} characters` });

/** An item's description; `null` means none. */
export const DescriptionSchema = optionalText('Description', DESCRIPTION_MAX_LENGTH);

/** Body of POST /api/v1/feedback (spec 4.2). */
export const CreateFeedbackRequestSchema = z.object({
  title: TitleSchema,
  description: DescriptionSchema,
  type: FeedbackTypeSchema.default('idea'),
  metadata: MetadataSchema.nullish(),
  endUser: EndUserInputSchema.nullish(),
});

/** Query of GET /api/v1/feedback (spec 4.3). */
export const ListFeedbackQuerySchema = z.object({
  status: commaList(FeedbackStatusSchema, 'status'),
  type: commaList(FeedbackTypeSchema, 'type'),
  search: textParam('search', 200),
  sortBy: choiceParam(SortBySchema, 'newest'),
  page: integerParam('page', 1, 1, 10_000_000),
  limit: integerParam('limit', PAGE_SIZE_DEFAULT, 1, PAGE_SIZE_MAX),
});

/**
 * Query of GET /api/v1/feedback/similar (an extension): the title being written, checked as a
 * submitted title is (so the same messages), how many items at most, an optional status filter as
 * the list's, and the end user whose votes `userHasVoted` reports.
 */
export const SimilarFeedbackQuerySchema = z.object({
  title: TitleSchema,
  limit: integerParam('limit', SIMILAR_LIMIT_DEFAULT, 1, SIMILAR_LIMIT_MAX),
  status: commaList(FeedbackStatusSchema, 'status'),
  endUserId: externalIdField('endUserId').optional(),
});

/** Path parameters of the routes under /api/v1/feedback/:id. */
export const FeedbackIdParamsSchema = z.object({ id: z.string() });

/** Query of GET /api/v1/feedback/:id (spec 4.4) and GET /api/v1/feedback/:id/vote (spec 4.6). */
export const EndUserIdQuerySchema = z.object({
  endUserId: externalIdField('endUserId').optional(),
});

/** The submitter of an item as lists show it. */
export const FeedbackAuthorSchema = z.object({
  name: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});

/** An item of a list, and the created item (spec 2.2). */
export const FeedbackListItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  type: FeedbackTypeSchema,
  status: FeedbackStatusSchema,
  voteCount: z.number().int(),
  commentCount: z.number().int(),
  createdAt: TimestampSchema,
  endUser: FeedbackAuthorSchema.nullable(),
});

/**
 * An item similar to a title (GET /api/v1/feedback/similar): a list item, whether the given end
 * user has voted on it (false without `endUserId`), and how close its title is, from 0 to 1
 * (pg_trgm's trigram similarity, rounded to 3 decimals).
 */
export const SimilarFeedbackItemSchema = FeedbackListItemSchema.extend({
  userHasVoted: z.boolean(),
  similarity: z.number().min(0).max(1),
});

/**
 * The author of a comment (spec 2.4): `avatarUrl` for end users, `isTeam: true` for the owning
 * team. `id` (an extension) is the end user's externalId, for an end user's comment whose author
 * is still known (absent for the team and after an erasure).
 */
export const CommentAuthorSchema = z.object({
  name: z.string().nullable(),
  avatarUrl: z.string().nullable().optional(),
  isTeam: z.boolean().optional(),
  id: z.string().nullable().optional(),
});

/**
 * A comment of the detail view (spec 2.4). The extensions follow the spec's fields: `parentId`
 * (the top-level comment a reply answers, null for a top-level one), `editedAt` (the last edit,
 * null if never edited), `isPinned` (the item's official answer, listed first) and `internal`,
 * present and true on a private note of the team, which only a secret key sees.
 */
export const CommentSchema = z.object({
  id: z.string(),
  content: z.string(),
  createdAt: TimestampSchema,
  author: CommentAuthorSchema.nullable(),
  parentId: z.string().nullable().optional(),
  editedAt: TimestampSchema.nullable().optional(),
  isPinned: z.boolean().optional(),
  internal: z.boolean().optional(),
});

/**
 * One item with its comments, the pinned answer first and then oldest first (spec 2.3). `statusHistory` is an extension: present
 * only when the item is read with a secret key, never in a public key's answer.
 */
export const FeedbackDetailSchema = FeedbackListItemSchema.extend({
  userHasVoted: z.boolean(),
  /** An extension: whether the end user named by `endUserId` is told when the item moves; only when `endUserId` is given. */
  userIsSubscribed: z.boolean().optional(),
  comments: z.array(CommentSchema),
  statusHistory: z.array(StatusChangeSchema).optional(),
});

/** Response 201 of POST /api/v1/feedback. */
export const CreateFeedbackResponseSchema = z.object({ feedback: FeedbackListItemSchema });
/** Response 200 of GET /api/v1/feedback/:id. */
export const GetFeedbackResponseSchema = z.object({ feedback: FeedbackDetailSchema });
/** Response 200 of GET /api/v1/feedback (spec 2.7). */
export const PaginatedFeedbackSchema = z.object({
  items: z.array(FeedbackListItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
});

/**
 * Response 200 of GET /api/v1/feedback/similar, at most `limit` items: those whose titles are
 * near-identical to the title (similarity 0.7 or more) first, most votes first; then the others,
 * closest first.
 */
export const SimilarFeedbackResponseSchema = z.object({ items: z.array(SimilarFeedbackItemSchema) });

export type CreateFeedbackRequest = z.input<typeof CreateFeedbackRequestSchema>;
export type ListFeedbackQuery = z.output<typeof ListFeedbackQuerySchema>;
export type FeedbackListItem = z.infer<typeof FeedbackListItemSchema>;
export type FeedbackAuthor = z.infer<typeof FeedbackAuthorSchema>;
export type CommentAuthor = z.infer<typeof CommentAuthorSchema>;
export type Comment = z.infer<typeof CommentSchema>;
export type FeedbackDetail = z.infer<typeof FeedbackDetailSchema>;
export type PaginatedFeedback = z.infer<typeof PaginatedFeedbackSchema>;
export type SimilarFeedbackQuery = z.output<typeof SimilarFeedbackQuerySchema>;
export type SimilarFeedbackItem = z.infer<typeof SimilarFeedbackItemSchema>;
export type SimilarFeedback = z.infer<typeof SimilarFeedbackResponseSchema>;
