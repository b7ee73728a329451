/**
 * Whether the author `voterKey` (an expression: the end user's id as text, or an anonymous
 * caller's voter key) may post to project `project`: no block of the team's in force names them
 * (docs/moderation.md, "Blocks"). A block in force is one not yet expired (`expires_at` null: until
 * the team lifts it); an expired row stops nobody, whether or not the hourly sweep has deleted it
 * yet. The submit, comment and hold statements carry it as a condition; `posting_blocks` is
 * unique by the pair, so it is one index probe.
 */
export function notBlocked(project: string, voterKey: string): string {
  return `not exists (select 1 from posting_blocks pb where pb.project_id = ${project} and pb.voter_key = ${voterKey} and (pb.expires_at is null or pb.expires_at > now()))`;
}

/** Deletes the blocks that have ended (jobs/machine-jobs.ts, hourly): they stop nobody already; this keeps no address longer than needed. */
export const PRUNE_EXPIRED_BLOCKS = `delete from posting_blocks where expires_at <= now()`;
