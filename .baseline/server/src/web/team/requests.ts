import type { AppContext } from '../../http/context.js';
import type { TeamSession } from './session.js';
import { returnPathUnder } from '../kit/forms.js';
import { teamPaths } from './layout.js';

/** A request of a signed-in team member: its context and its live session (with the project). */
export interface TeamRequest {
  ctx: AppContext;
  session: TeamSession;
}

/** Where a team form may send the browser back: a path of the team's pages (kit/forms.ts). */
export function safeTeamReturn(value: unknown): string | undefined {
  return returnPathUnder(value, teamPaths.inbox);
}
