import { Command, Option } from 'commander';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import { withDatabase } from '../operator.js';
import { printJson, type Output } from '../output.js';

interface BoardFlags extends DatabaseFlags {
  project: string;
  json?: boolean;
}

/**
 * `feedback board on|off`: whether a project's public board and roadmap are served at /b/<slug>
 * (docs/board.md). An operator command on the database, like `feedback keys`: deciding what end
 * users may read is the operator's, not an API key's.
 */
export function boardCommand(output: Output): Command {
  const board = new Command('board').description("Turn a project's public board and roadmap (/b/<slug>) on or off");
  for (const [state, description] of [
    ['on', 'Serve the project\'s board and roadmap at /b/<slug>: anyone who can reach the server may read, vote and post there'],
    ['off', 'Stop serving the project\'s board: its pages answer 404 (the API is not affected)'],
  ] as const) {
    const command = new Command(state)
      .description(description)
      .addOption(new Option('--project <slug>', 'the project').default('default'))
      .option('--json', 'print {"project": ..., "boardEnabled": ..., "path": ...} as JSON');
    addDatabaseOptions(command).action(async (flags: BoardFlags) =>
      withDatabase(databaseLocation(flags), async (orm, server) => {
        const setting = await server.setBoardEnabled(orm.em.fork(), flags.project, state === 'on').catch((error: unknown) => {
          if (error instanceof server.ProjectNotFoundError) throw new CliError(error.message, EXIT.notFound);
          throw error;
        });
        if (flags.json) return printJson(output, setting);
        output.out(setting.boardEnabled ? `the board of ${setting.project} is on, at ${setting.path}` : `the board of ${setting.project} is off`);
      }),
    );
    board.addCommand(command);
  }
  return board;
}
