import { Command, Option } from 'commander';
import { MODERATION_MODES } from '@feedbackd/sdk/constants';
import type { ModerationMode } from '@feedbackd/sdk/contract';
import type { BoardSetting } from '@feedbackd/server';
import type { DatabaseFlags } from '../database-options.js';
import type { ServerModule } from '../operator.js';
import type { Output } from '../output.js';

/** The flags of `board moderation`, as board.ts's action hands them over. */
type ModerationFlags = DatabaseFlags & { project: string; json?: boolean; holdLinks?: boolean };

/** board.ts's `boardAction`, handed over as board-comments.ts takes it (neither file imports the other). */
type BoardAction = (
  command: Command,
  output: Output,
  change: (server: ServerModule, em: Parameters<ServerModule['setBoardEnabled']>[0], flags: ModerationFlags) => Promise<BoardSetting>,
  describe: (setting: BoardSetting) => string,
) => Command;

/**
 * `feedback board moderation none|anonymous|all [--hold-links | --no-hold-links]`: whose posts
 * wait for the team (docs/moderation.md). An operator command on the database like the board's
 * others; PATCH /api/v1/board `moderation` and `moderationHoldLinks` call the same service.
 */
export function boardModerationCommand(output: Output, boardAction: BoardAction): Command {
  const command = new Command('moderation')
    .description("Whose posts wait for the team's approval: none (the default), anonymous (posts without an identified end user) or all (every end user's post)")
    .addArgument(new Command().createArgument('<mode>', 'none, anonymous or all').choices(MODERATION_MODES))
    .addOption(new Option('--hold-links', 'also hold any post with a link, whatever the mode'))
    .addOption(new Option('--no-hold-links', 'stop holding posts for their links'));
  return boardAction(
    command,
    output,
    (server, em, flags) => server.setModeration(em, flags.project, command.processedArgs[0] as ModerationMode, flags.holdLinks),
    (setting) => {
      const whose = { none: 'no post waits for the team', anonymous: 'posts without an identified end user wait for the team', all: "every end user's post waits for the team" }[setting.moderation];
      return `moderation on ${setting.project}: ${whose}${setting.moderationHoldLinks ? ', and any post with a link' : ''}`;
    },
  );
}
