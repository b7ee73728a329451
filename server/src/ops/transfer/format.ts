import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ADDRESS_BLOCK_DAYS, FEEDBACK_STATUSES, FEEDBACK_TYPES, HoldReasonSchema } from '@feedbackd/sdk/contract';

/**
 * The dump format of `feedback export` and `feedback import` (docs/transfer.md): JSON Lines, a
 * header first, then one record per row, each `{"type": ..., "data": {...}}`, grouped by type in
 * RECORD_TYPES order so that every record's parents come before it and an import applies the
 * dump in one pass. `data` mirrors a table's row; the item's own `type` stays a plain field of it.
 */
export const DUMP_FORMAT = 'feedback-dump';

/**
 * Bumped when a reader of the previous version could misread a dump of the new one (a field
 * added, removed or changed in meaning). A reader refuses versions newer than its own.
 */
export const DUMP_VERSION = 6;

/*
 * Version 2 (the conversation, Migration0019): comments carry parentId, isInternal,
 * isPinned and editedAt, and commentRevision records follow the comments. A version 1 dump reads
 * as one whose comments are top-level, visible, unpinned and never edited, with no revisions.
 * Version 2 also carries the changelog (Migration0020): changelogEntry and
 * changelogLink records after the status changes; a dump without them has no changelog.
 *
 * Version 3 (subscriptions, Migration0021): users carry unsubscribedAt (they left the
 * whole project), and subscription records come last. An older dump reads as one whose users never
 * left, and its import subscribes its submitters, voters and commenters as the migration did.
 *
 * Version 4 (moderation and mail, Migration0022 and Migration0023): users carry
 * emailSuppressedAt (a mail server refused their address for good), and heldPost records (the
 * moderation queue) and postingBlock records (blocked authors) come after the subscriptions. An
 * older dump reads as one whose addresses were never refused, with an empty queue and no block.
 *
 * Version 5 (blocks that can be listed, lifted and expire, Migration0028): postingBlock
 * records carry their `id`, `excerpt` (the start of the rejected post) and `expiresAt` (null:
 * until lifted). A version 4 block reads as the migration left such a row: an id derived from its
 * author (the same on every import of that dump), no excerpt, and an anonymous caller's block
 * ending ADDRESS_BLOCK_DAYS days after it was made, an end user's lasting until lifted.
 *
 * Version 6 (held edits, Migration0029): a heldPost may be an edit of a published comment,
 * `editOf` naming it. An older dump reads as one whose held posts are all new posts.
 */

/** The record types in the order a dump holds them: parents before children. */
export const RECORD_TYPES = ['project', 'user', 'item', 'vote', 'comment', 'commentRevision', 'statusChange', 'changelogEntry', 'changelogLink', 'subscription', 'heldPost', 'postingBlock'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** How many records of each type a dump holds, as its header announces them. */
export type DumpCounts = Record<RecordType, number>;

// Hex in the 8-4-4-4-12 form, any version (seeded ids are not random), in lower case as
// PostgreSQL prints it, so that one id is one string wherever the import compares it.
const id = z.guid().transform((value) => value.toLowerCase());
// ISO 8601 with a zone and at most milliseconds, what timestamptz(3) holds: a finer fraction would
// be rounded on the way in, and a second import of the same dump would then see other data.
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;
const timestamp = z.string().regex(ISO_MS, 'must be an ISO 8601 timestamp with a zone and at most milliseconds').refine((text) => !Number.isNaN(Date.parse(text)), 'is not a valid date');
const text = z.string().refine((value) => !value.includes('\u0000'), 'must not contain NUL characters');
const nullableText = text.nullable();
const metadata = z.record(z.string(), z.unknown()).nullable();
const status = z.enum(FEEDBACK_STATUSES);
const count = z.number().int().nonnegative();

/** The record types added after version 1: an older header has no count of them. */
const LATER_TYPES = new Set<RecordType>(['commentRevision', 'changelogEntry', 'changelogLink', 'subscription', 'heldPost', 'postingBlock']);

export const HeaderSchema = z.strictObject({
  type: z.literal('header'),
  format: z.literal(DUMP_FORMAT),
  version: z.number().int().positive(),
  /** When the dump was made; not part of the data. */
  exportedAt: timestamp,
  /** The slug `--project` named, or null for a dump of every project. */
  project: z.string().nullable(),
  // A header of a dump made before comment revisions, the changelog, subscriptions or moderation has no count of those records: none.
  counts: z.strictObject(Object.fromEntries(RECORD_TYPES.map((type) => [type, LATER_TYPES.has(type) ? count.default(0) : count])) as Record<RecordType, typeof count>),
});
export type DumpHeader = z.infer<typeof HeaderSchema>;

/** The `data` of each record type, field by field in the order an export writes them. */
export const RECORD_SCHEMAS = {
  project: z.strictObject({ id, slug: text.min(1), name: text, voterSalt: text.min(1), createdAt: timestamp }),
  user: z.strictObject({
    id,
    projectId: id,
    externalId: text,
    email: nullableText,
    name: nullableText,
    avatarUrl: nullableText,
    metadata,
    createdAt: timestamp,
    updatedAt: timestamp,
    // Version 3: when they unsubscribed from the whole project; absent from older dumps (never).
    unsubscribedAt: timestamp.nullable().default(null),
    // Version 4: when a mail server refused their address for good (notifications skip it); absent from older dumps (never).
    emailSuppressedAt: timestamp.nullable().default(null),
  }),
  item: z.strictObject({
    id,
    projectId: id,
    endUserId: id.nullable(),
    title: text,
    description: nullableText,
    type: z.enum(FEEDBACK_TYPES),
    status,
    metadata,
    createdAt: timestamp,
  }),
  vote: z.strictObject({ id, itemId: id, voterKey: text.min(1), endUserId: id.nullable(), createdAt: timestamp }),
  comment: z.strictObject({
    id,
    itemId: id,
    authorEndUserId: id.nullable(),
    authorName: nullableText,
    isTeam: z.boolean(),
    content: text,
    createdAt: timestamp,
    // Version 2: absent from a version 1 dump, whose comments had none of these.
    parentId: id.nullable().default(null),
    isInternal: z.boolean().default(false),
    isPinned: z.boolean().default(false),
    editedAt: timestamp.nullable().default(null),
  }),
  commentRevision: z.strictObject({ id, commentId: id, content: text, writtenAt: timestamp, replacedAt: timestamp }),
  // The key that made a change is not carried (keys are not exported): `actor` is.
  statusChange: z.strictObject({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), itemId: id, from: status, to: status, actor: nullableText, changedAt: timestamp }),
  // A changelog entry with its publication (null: a draft) and whether it was announced, so an import announces nothing again.
  changelogEntry: z.strictObject({ id, projectId: id, title: text, body: text, publishAt: timestamp.nullable(), announcedAt: timestamp.nullable(), createdAt: timestamp, updatedAt: timestamp }),
  changelogLink: z.strictObject({ id, entryId: id, itemId: id, position: z.number().int().nonnegative().max(2_147_483_647) }),
  // Version 3: one end user's subscription to one item (keyed by the pair), its reasons as bits
  // (1 submitted, 2 voted, 4 commented, 8 chose) and an unsubscribe from the item that sticks.
  subscription: z.strictObject({
    itemId: id,
    endUserId: id,
    projectId: id,
    reasons: z.number().int().min(0).max(15),
    unsubscribedAt: timestamp.nullable(),
    createdAt: timestamp,
  }),
  // Version 4: a submission (`feedback`: title, description, type, metadata) or a comment (on
  // `itemId`, a reply to `parentId`: content) waiting for the team; its id is the one the item or
  // comment gets on approval, and `voterKey` its author as votes key them (what a block names).
  heldPost: z
    .strictObject({
      id,
      projectId: id,
      kind: z.enum(['feedback', 'comment']),
      itemId: id.nullable(),
      parentId: id.nullable(),
      endUserId: id.nullable(),
      voterKey: text.min(1),
      title: nullableText,
      description: nullableText,
      type: z.enum(FEEDBACK_TYPES).nullable(),
      metadata,
      content: nullableText,
      reason: HoldReasonSchema,
      createdAt: timestamp,
      // Version 5: an edit of a published comment of `itemId`, whose text `content` would replace; absent from older dumps (a new post).
      editOf: id.nullable().default(null),
    })
    // What its approval needs (moderation.sql.ts inserts these into feedback or comments), checked here so a dump cannot hold a post no one can approve.
    .refine(
      (post) =>
        post.kind === 'feedback'
          ? post.title !== null && post.type !== null && post.itemId === null && post.parentId === null && post.content === null && post.editOf === null
          : post.itemId !== null && post.content !== null && post.title === null && post.description === null && post.type === null && post.metadata === null,
      'a held submission has a title and a type and no itemId, parentId, content or editOf; a held comment has an itemId and content and no title, description, type or metadata',
    ),
  // Version 4: an author the team blocked when rejecting (keyed by the pair), with their end user when identified.
  // Version 5: its id, the start of the rejected post, and when it ends (null: until lifted); an older dump's, as the migration made them.
  postingBlock: z
    .strictObject({
      id: id.optional(),
      projectId: id,
      voterKey: text.min(1),
      endUserId: id.nullable(),
      excerpt: nullableText.default(null),
      createdAt: timestamp,
      expiresAt: timestamp.nullable().optional(),
    })
    .transform(({ id: given, expiresAt, ...block }) => ({
      id: given ?? olderBlockId(block.projectId, block.voterKey),
      ...block,
      expiresAt: expiresAt !== undefined ? expiresAt : block.endUserId === null ? new Date(Date.parse(block.createdAt) + ADDRESS_BLOCK_DAYS * 86_400_000).toISOString() : null,
    })),
} as const satisfies Record<RecordType, z.ZodType>;

/**
 * The id of a block from a version 4 dump, which had none: derived from its author (a UUID of
 * version 8, from SHA-256), so every import of that dump gives it the same id, and a second import
 * finds it there with the same data.
 */
function olderBlockId(projectId: string, voterKey: string): string {
  const hex = createHash('sha256').update(`feedback posting block ${projectId} ${voterKey}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export type RecordData<T extends RecordType> = z.infer<(typeof RECORD_SCHEMAS)[T]>;

/** A whole record line of each type: `{"type": ..., "data": {...}}` and nothing else. */
const LINE_SCHEMAS = Object.fromEntries(
  RECORD_TYPES.map((type) => [type, z.strictObject({ type: z.literal(type), data: RECORD_SCHEMAS[type] })]),
) as unknown as Record<RecordType, z.ZodType<DumpRecord>>;

/** One parsed line after the header. */
export interface DumpRecord {
  type: RecordType;
  data: Record<string, unknown>;
}

/** A line of a dump that cannot be read; `line` counts from 1. */
export class DumpFormatError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'DumpFormatError';
  }
}

/** The header, from the first line of a dump. */
export function parseHeader(line: string): DumpHeader {
  const value = parseJson(line, 1);
  const type = (value as { type?: unknown } | null)?.type;
  if (type !== 'header') throw new DumpFormatError(1, 'the first line must be the header ({"type":"header","format":"feedback-dump",...}); is this a dump of `feedback export`?');
  const version = (value as { version?: unknown }).version;
  if (typeof version === 'number' && version > DUMP_VERSION) {
    throw new DumpFormatError(1, `the dump has format version ${version}; this feedback reads version ${DUMP_VERSION} and before: upgrade it to import this dump`);
  }
  return check(HeaderSchema, value, 1);
}

/** A record line (any line after the header). */
export function parseRecord(line: string, lineNumber: number): DumpRecord {
  const value = parseJson(line, lineNumber);
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !(RECORD_TYPES as readonly string[]).includes(type)) {
    throw new DumpFormatError(lineNumber, `"type" must be one of ${RECORD_TYPES.join(', ')}, not ${JSON.stringify(type)}`);
  }
  return check(LINE_SCHEMAS[type as RecordType], value, lineNumber);
}

/** One record as a line of the dump (without its line break). */
export function recordLine(type: RecordType, data: Record<string, unknown>): string {
  return JSON.stringify({ type, data });
}

function parseJson(line: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new DumpFormatError(lineNumber, `not valid JSON (${(error as Error).message})`);
  }
}

function check<T>(schema: z.ZodType<T>, value: unknown, lineNumber: number): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new DumpFormatError(lineNumber, `${path}${issue.message}`);
}
