import type { ModerationMode } from '@feedbackd/sdk/contract';

/*
 * A project's moderation setting as the caches keep it: the key cache (http/access.ts), the
 * board's and the widget's projects (web/). The decision it feeds is hold-reason.ts's holdReason,
 * so deciding costs no round trip.
 */

/** A project's moderation setting (`feedback board moderation`, docs/moderation.md) where it holds something. */
export interface ModerationPolicy {
  mode: ModerationMode;
  holdLinks: boolean;
}

/**
 * The project's stored columns (`moderation`, `moderation_hold_links`) as a policy, or null where
 * the project holds nothing (mode `none`, links not held): a post of such a project then goes
 * out without asking moderation anything.
 */
export function moderationPolicy(mode: ModerationMode, holdLinks: boolean): ModerationPolicy | null {
  return mode === 'none' && !holdLinks ? null : { mode, holdLinks };
}
