import { Command, Option } from 'commander';
import type { BoardSetting } from '@feedbackd/server';
import type { DatabaseFlags } from '../database-options.js';
import type { ServerModule } from '../operator.js';
import type { Output } from '../output.js';

/** The flags of `board comments`, as board.ts's action hands them over. */
type CommentsFlags = DatabaseFlags & { project: string; json?: boolean; anonymous: 'on' | 'off' };

/**
 * board.ts's `boardAction`, which it hands over (so that neither file imports the other): the
 * project and database options, --json, and the line printed otherwise.
 */
type BoardAction = (
  command: Command,
  output: Output,
  change: (server: ServerModule, em: Parameters<ServerModule['setBoardEnabled']>[0], flags: CommentsFlags) => Promise<BoardSetting>,
  describe: (setting: BoardSetting) => string,
) => Command;

/**
 * `feedback board comments --anonymous on|off`: whether end users may comment without `endUser`
 * through the project's public keys (docs/api.md, "Comments"); off by default. An operator command
 * on the database like the board's others; PATCH /api/v1/board `anonymousComments` calls the same service.
 */
export function boardCommentsCommand(output: Output, boardAction: BoardAction): Command {
  return boardAction(
    new Command('comments')
      .description('Who may comment through the public API: with --anonymous on, also callers that name no end user (off by default)')
      .addOption(new Option('--anonymous <state>', 'accept comments without endUser (on) or refuse them with 403 (off)').choices(['on', 'off']).makeOptionMandatory()),
    output,
    (server, em, flags) => server.setAnonymousComments(em, flags.project, flags.anonymous === 'on'),
    (setting) => `anonymous comments on ${setting.project} are ${setting.anonymousComments ? 'on' : 'off'}`,
  );
}
