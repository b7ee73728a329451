import { Command, Option } from 'commander';
import type { Output } from '../output.js';
import type { BoardFlags, BoardAction } from './board.js';

/**
 * `feedback board comments --anonymous on|off`: whether end users may comment without `endUser`
 * through the project's public keys (docs/api.md, "Comments"); off by default. An operator command
 * on the database like the board's others (board.ts hands over its `boardAction`, so neither file
 * imports the other at run time); PATCH /api/v1/board `anonymousComments` calls the same service.
 */
export function boardCommentsCommand(output: Output, boardAction: BoardAction): Command {
  return boardAction(
    new Command('comments')
      .description('Who may comment through the public API: with --anonymous on, also callers that name no end user (off by default)')
      .addOption(new Option('--anonymous <state>', 'accept comments without endUser (on) or refuse them with 403 (off)').choices(['on', 'off']).makeOptionMandatory()),
    output,
    (server, em, flags: BoardFlags & { anonymous: 'on' | 'off' }) => server.setAnonymousComments(em, flags.project, flags.anonymous === 'on'),
    (setting) => `anonymous comments on ${setting.project} are ${setting.anonymousComments ? 'on' : 'off'}`,
  );
}
