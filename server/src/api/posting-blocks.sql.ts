/**
 * Whether the author `voterKey` (an expression: the end user's id as text, or an anonymous
 * caller's voter key) may post to project `project`: no block of the team's names them
 * (docs/moderation.md). The submit, comment and hold statements carry it as a condition;
 * `posting_blocks` is keyed by the pair, so it is one index probe.
 */
export function notBlocked(project: string, voterKey: string): string {
  return `not exists (select 1 from posting_blocks pb where pb.project_id = ${project} and pb.voter_key = ${voterKey})`;
}
