import type { FeedbackListItem, FeedbackStatus, FeedbackType } from '@feedback/sdk/contract';

/**
 * SQL for a timestamp as the API shows it: ISO 8601 in UTC with milliseconds and a Z (spec 2.2).
 * Formatted by the database, so the text never depends on the driver's date parsing.
 */
export function isoTimestamp(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The columns of a FeedbackListItem, from `feedback f`, `feedback_counters c` and the submitter
 * `end_users u` (left joined: anonymous items have none). See FEEDBACK_ITEM_FROM.
 */
export const FEEDBACK_ITEM_COLUMNS = [
  'f.id',
  'f.title',
  'f.description',
  'f.type',
  'f.status',
  `${isoTimestamp('f.created_at')} as created_at`,
  'c.vote_count',
  'c.comment_count',
  'f.end_user_id',
  'u.name as end_user_name',
  'u.avatar_url as end_user_avatar_url',
].join(', ');

export const FEEDBACK_ITEM_FROM =
  'feedback f join feedback_counters c on c.feedback_id = f.id left join end_users u on u.id = f.end_user_id';

/** A row selected with FEEDBACK_ITEM_COLUMNS. */
export interface FeedbackItemRow {
  id: string;
  title: string;
  description: string | null;
  type: FeedbackType;
  status: FeedbackStatus;
  created_at: string;
  vote_count: number;
  comment_count: number;
  end_user_id: string | null;
  end_user_name: string | null;
  end_user_avatar_url: string | null;
}

/** A row as spec 2.2 shows it; `endUser` is null for an anonymous item (or a deleted submitter). */
export function toFeedbackListItem(row: FeedbackItemRow): FeedbackListItem {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type,
    status: row.status,
    voteCount: row.vote_count,
    commentCount: row.comment_count,
    createdAt: row.created_at,
    endUser: row.end_user_id === null ? null : { name: row.end_user_name, avatarUrl: row.end_user_avatar_url },
  };
}
