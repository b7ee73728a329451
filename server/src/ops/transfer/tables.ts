import type { RecordType } from './format.js';

/**
 * Where each record type lives: its table, and its columns with the record field each one maps
 * to. Export and import read these same lists, so a column added to a table and to this list is
 * carried both ways; the SQL of both sides is generated from here (export-sql.ts, import-sql.ts).
 */

/** The part of a node-postgres client the transfer uses. */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
}

export type PgType = 'uuid' | 'text' | 'jsonb' | 'timestamptz' | 'boolean' | 'bigint' | 'int';

export interface Column {
  field: string;
  column: string;
  type: PgType;
}

/** A reference an imported row must satisfy; `exists` is SQL over the batch row `b` and `$projects`. */
export interface Reference {
  column: string;
  field: string;
  what: string;
  exists: string;
}

export interface TableSpec {
  type: RecordType;
  table: string;
  /** The id first; every column the record carries, in the record's field order. */
  columns: Column[];
  /** SQL over the row `t`: it belongs to one of the projects `$1` (uuid[]). */
  inProjects: string;
  /** Unique keys other than the id, as column lists: another row with the same values is a conflict. */
  uniques: string[][];
  /** References beyond the foreign keys: a row must point into its own project. */
  references: Reference[];
  /** The export's order over `t`, when the id's is not enough (it always ends with the id). */
  order?: string;
  /** The columns that name a row, when not the id (the first column) alone: a table keyed by a pair. */
  key?: string[];
}

const c = (field: string, column: string, type: PgType): Column => ({ field, column, type });
const ITEM_OF_DUMP = 't.feedback_id in (select f.id from feedback f where f.project_id = any($1::uuid[]))';
const ITEM_IN_PROJECTS: Reference = {
  column: 'feedback_id',
  field: 'itemId',
  what: "an item of the dump's projects",
  exists: 'select 1 from feedback f where f.id = b.feedback_id and f.project_id = any($projects::uuid[])',
};
/** An end user referenced by a row of an item must belong to that item's project. */
const userOfItem = (column: string, field: string): Reference => ({
  column,
  field,
  what: "a user of the item's project",
  exists: `select 1 from end_users u join feedback f on f.id = b.feedback_id where u.id = b.${column} and u.project_id = f.project_id`,
});

export const TABLES: Record<RecordType, TableSpec> = {
  project: {
    type: 'project',
    table: 'projects',
    columns: [c('id', 'id', 'uuid'), c('slug', 'slug', 'text'), c('name', 'name', 'text'), c('voterSalt', 'voter_salt', 'text'), c('createdAt', 'created_at', 'timestamptz')],
    inProjects: 't.id = any($1::uuid[])',
    uniques: [],
    references: [],
  },
  user: {
    type: 'user',
    table: 'end_users',
    columns: [
      c('id', 'id', 'uuid'),
      c('projectId', 'project_id', 'uuid'),
      c('externalId', 'external_id', 'text'),
      c('email', 'email', 'text'),
      c('name', 'name', 'text'),
      c('avatarUrl', 'avatar_url', 'text'),
      c('metadata', 'metadata', 'jsonb'),
      c('createdAt', 'created_at', 'timestamptz'),
      c('updatedAt', 'updated_at', 'timestamptz'),
      c('unsubscribedAt', 'unsubscribed_at', 'timestamptz'),
      c('emailSuppressedAt', 'email_suppressed_at', 'timestamptz'),
    ],
    inProjects: 't.project_id = any($1::uuid[])',
    uniques: [['project_id', 'external_id']],
    references: [],
  },
  item: {
    type: 'item',
    table: 'feedback',
    columns: [
      c('id', 'id', 'uuid'),
      c('projectId', 'project_id', 'uuid'),
      c('endUserId', 'end_user_id', 'uuid'),
      c('title', 'title', 'text'),
      c('description', 'description', 'text'),
      c('type', 'type', 'text'),
      c('status', 'status', 'text'),
      c('metadata', 'metadata', 'jsonb'),
      c('createdAt', 'created_at', 'timestamptz'),
    ],
    inProjects: 't.project_id = any($1::uuid[])',
    uniques: [],
    references: [
      {
        column: 'end_user_id',
        field: 'endUserId',
        what: "a user of the item's project",
        exists: 'select 1 from end_users u where u.id = b.end_user_id and u.project_id = b.project_id',
      },
    ],
  },
  vote: {
    type: 'vote',
    table: 'votes',
    columns: [c('id', 'id', 'uuid'), c('itemId', 'feedback_id', 'uuid'), c('voterKey', 'voter_key', 'text'), c('endUserId', 'end_user_id', 'uuid'), c('createdAt', 'created_at', 'timestamptz')],
    inProjects: ITEM_OF_DUMP,
    uniques: [['feedback_id', 'voter_key']],
    references: [ITEM_IN_PROJECTS, userOfItem('end_user_id', 'endUserId')],
  },
  comment: {
    type: 'comment',
    table: 'comments',
    columns: [
      c('id', 'id', 'uuid'),
      c('itemId', 'feedback_id', 'uuid'),
      c('authorEndUserId', 'author_end_user_id', 'uuid'),
      c('authorName', 'author_name', 'text'),
      c('isTeam', 'is_team', 'boolean'),
      c('content', 'content', 'text'),
      c('createdAt', 'created_at', 'timestamptz'),
      c('parentId', 'parent_id', 'uuid'),
      c('isInternal', 'is_internal', 'boolean'),
      c('isPinned', 'is_pinned', 'boolean'),
      c('editedAt', 'edited_at', 'timestamptz'),
    ],
    inProjects: ITEM_OF_DUMP,
    uniques: [],
    references: [
      ITEM_IN_PROJECTS,
      userOfItem('author_end_user_id', 'authorEndUserId'),
      {
        column: 'parent_id',
        field: 'parentId',
        what: 'a top-level comment of the same item',
        // Here already, or in the same batch (the statement's own inserts are not visible to it).
        exists: `select 1 from comments p where p.id = b.parent_id and p.feedback_id = b.feedback_id and p.parent_id is null
          union all select 1 from b p where p.id = b.parent_id and p.feedback_id = b.feedback_id and p.parent_id is null`,
      },
    ],
    // Top-level comments first, so every reply's parent is imported (in an earlier batch) before it:
    // ids alone do not order them, as comments from before time-ordered ids keep random ones.
    order: 't.parent_id is not null, t.id',
  },
  commentRevision: {
    type: 'commentRevision',
    table: 'comment_revisions',
    columns: [c('id', 'id', 'uuid'), c('commentId', 'comment_id', 'uuid'), c('content', 'content', 'text'), c('writtenAt', 'written_at', 'timestamptz'), c('replacedAt', 'replaced_at', 'timestamptz')],
    inProjects: 't.comment_id in (select cm.id from comments cm join feedback f on f.id = cm.feedback_id where f.project_id = any($1::uuid[]))',
    uniques: [],
    references: [
      {
        column: 'comment_id',
        field: 'commentId',
        what: "a comment of the dump's projects",
        exists: 'select 1 from comments cm join feedback f on f.id = cm.feedback_id where cm.id = b.comment_id and f.project_id = any($projects::uuid[])',
      },
    ],
  },
  // api_key_id is not carried: keys are not exported, and an imported change has none (null).
  statusChange: {
    type: 'statusChange',
    table: 'feedback_status_changes',
    columns: [
      c('id', 'id', 'bigint'),
      c('itemId', 'feedback_id', 'uuid'),
      c('from', 'from_status', 'text'),
      c('to', 'to_status', 'text'),
      c('actor', 'actor', 'text'),
      c('changedAt', 'changed_at', 'timestamptz'),
    ],
    inProjects: ITEM_OF_DUMP,
    uniques: [],
    references: [ITEM_IN_PROJECTS],
  },
  changelogEntry: {
    type: 'changelogEntry',
    table: 'changelog_entries',
    columns: [
      c('id', 'id', 'uuid'),
      c('projectId', 'project_id', 'uuid'),
      c('title', 'title', 'text'),
      c('body', 'body', 'text'),
      c('publishAt', 'publish_at', 'timestamptz'),
      c('announcedAt', 'announced_at', 'timestamptz'),
      c('createdAt', 'created_at', 'timestamptz'),
      c('updatedAt', 'updated_at', 'timestamptz'),
    ],
    inProjects: 't.project_id = any($1::uuid[])',
    uniques: [],
    references: [],
  },
  changelogLink: {
    type: 'changelogLink',
    table: 'changelog_entry_items',
    columns: [c('id', 'id', 'uuid'), c('entryId', 'entry_id', 'uuid'), c('itemId', 'feedback_id', 'uuid'), c('position', 'position', 'int')],
    inProjects: 't.entry_id in (select e.id from changelog_entries e where e.project_id = any($1::uuid[]))',
    uniques: [['entry_id', 'feedback_id']],
    references: [
      {
        column: 'feedback_id',
        field: 'itemId',
        what: "an item of the entry's project",
        exists: 'select 1 from changelog_entries e join feedback f on f.id = b.feedback_id where e.id = b.entry_id and f.project_id = e.project_id and e.project_id = any($projects::uuid[])',
      },
    ],
  },
  subscription: {
    type: 'subscription',
    table: 'subscriptions',
    columns: [
      c('itemId', 'feedback_id', 'uuid'),
      c('endUserId', 'end_user_id', 'uuid'),
      c('projectId', 'project_id', 'uuid'),
      c('reasons', 'reasons', 'int'),
      c('unsubscribedAt', 'unsubscribed_at', 'timestamptz'),
      c('createdAt', 'created_at', 'timestamptz'),
    ],
    key: ['feedback_id', 'end_user_id'],
    order: 't.feedback_id, t.end_user_id',
    inProjects: 't.project_id = any($1::uuid[])',
    uniques: [],
    references: [
      {
        column: 'feedback_id',
        field: 'itemId',
        what: "an item of the subscription's project",
        exists: 'select 1 from feedback f where f.id = b.feedback_id and f.project_id = b.project_id and f.project_id = any($projects::uuid[])',
      },
      {
        column: 'end_user_id',
        field: 'endUserId',
        what: "a user of the subscription's project",
        exists: 'select 1 from end_users u where u.id = b.end_user_id and u.project_id = b.project_id',
      },
    ],
  },
  // The moderation queue. Its item and parent comment are rows of earlier types, so in by now.
  heldPost: {
    type: 'heldPost',
    table: 'held_posts',
    columns: [
      c('id', 'id', 'uuid'),
      c('projectId', 'project_id', 'uuid'),
      c('kind', 'kind', 'text'),
      c('itemId', 'feedback_id', 'uuid'),
      c('parentId', 'parent_id', 'uuid'),
      c('endUserId', 'end_user_id', 'uuid'),
      c('voterKey', 'voter_key', 'text'),
      c('title', 'title', 'text'),
      c('description', 'description', 'text'),
      c('type', 'type', 'text'),
      c('metadata', 'metadata', 'jsonb'),
      c('content', 'content', 'text'),
      c('reason', 'reason', 'text'),
      c('createdAt', 'created_at', 'timestamptz'),
      c('editOf', 'comment_id', 'uuid'),
    ],
    inProjects: 't.project_id = any($1::uuid[])',
    // A comment has one edit waiting at most.
    uniques: [['comment_id']],
    references: [
      {
        column: 'feedback_id',
        field: 'itemId',
        what: "an item of the held post's project",
        exists: 'select 1 from feedback f where f.id = b.feedback_id and f.project_id = b.project_id and f.project_id = any($projects::uuid[])',
      },
      {
        column: 'parent_id',
        field: 'parentId',
        what: 'a top-level comment of the same item',
        exists: 'select 1 from comments p where p.id = b.parent_id and p.feedback_id = b.feedback_id and p.parent_id is null',
      },
      {
        column: 'end_user_id',
        field: 'endUserId',
        what: "a user of the held post's project",
        exists: 'select 1 from end_users u where u.id = b.end_user_id and u.project_id = b.project_id',
      },
      {
        column: 'comment_id',
        field: 'editOf',
        what: "a comment of the held edit's item, by its author",
        exists: 'select 1 from comments e where e.id = b.comment_id and e.feedback_id = b.feedback_id and e.author_end_user_id = b.end_user_id',
      },
    ],
  },
  postingBlock: {
    type: 'postingBlock',
    table: 'posting_blocks',
    columns: [
      c('id', 'id', 'uuid'),
      c('projectId', 'project_id', 'uuid'),
      c('voterKey', 'voter_key', 'text'),
      c('endUserId', 'end_user_id', 'uuid'),
      c('excerpt', 'excerpt', 'text'),
      c('createdAt', 'created_at', 'timestamptz'),
      c('expiresAt', 'expires_at', 'timestamptz'),
    ],
    // One block per author: a row of the same author is the same block (a version 4 dump's has no id of its own: format.ts).
    key: ['project_id', 'voter_key'],
    // In bytes ("C"): the same order under every database's collation, so the same bytes.
    order: 't.project_id, t.voter_key collate "C"',
    inProjects: 't.project_id = any($1::uuid[])',
    uniques: [],
    references: [
      {
        column: 'end_user_id',
        field: 'endUserId',
        what: "a user of the block's project",
        exists: 'select 1 from end_users u where u.id = b.end_user_id and u.project_id = b.project_id',
      },
    ],
  },
};
