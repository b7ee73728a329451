import { Command, Option } from 'commander';
import type { TeamSessionSummary } from '@feedbackd/server';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import { withDatabase } from '../operator.js';
import { printJson, printTable, type Output } from '../output.js';

interface SessionFlags extends DatabaseFlags {
  project?: string;
  all?: boolean;
  json?: boolean;
}

/**
 * `feedback sessions list|end`: the team's browser sessions (docs/triage.md), an operator command
 * on the database like `feedback keys`. Ending a session takes effect at its next request.
 */
export function sessionsCommand(output: Output): Command {
  const sessions = new Command('sessions').description("List and end the team's browser sessions (from `feedback open` or the sign-in form)");

  const list = new Command('list')
    .description('List live sessions, newest first (with --all, also those ended, idle or whose key was revoked)')
    .addOption(new Option('--project <slug>', 'only the sessions of this project'))
    .option('--all', 'include sessions that work no more')
    .option('--json', 'print the sessions as a JSON array');
  addDatabaseOptions(list).action(async (flags: SessionFlags) =>
    withDatabase(databaseLocation(flags), async (orm, server) => {
      const rows = await server.listTeamSessions(orm.em.fork(), { projectSlug: flags.project, all: flags.all ?? false });
      if (flags.json) return printJson(output, rows);
      printTable(
        output,
        [
          { header: 'ID', value: (row: TeamSessionSummary) => row.id },
          { header: 'PROJECT', value: (row: TeamSessionSummary) => row.project },
          { header: 'NAME', value: (row: TeamSessionSummary) => row.name ?? '' },
          { header: 'OPENED WITH', value: (row: TeamSessionSummary) => (row.keyPrefix ? `${row.openedWith} (${row.keyPrefix}…)` : `${row.openedWith} (database)`) },
          { header: 'CREATED', value: (row: TeamSessionSummary) => row.createdAt },
          { header: 'LAST SEEN', value: (row: TeamSessionSummary) => row.lastSeenAt },
          { header: 'STATE', value: (row: TeamSessionSummary) => row.state },
        ],
        rows,
      );
    }),
  );

  const end = new Command('end')
    .description('End a session by its id (from `sessions list`), or every live one with --all: the browser is signed out at its next request')
    .argument('[id]', 'the session id')
    .option('--all', 'end every live session (of --project, or of all projects)')
    .addOption(new Option('--project <slug>', 'with --all: only the sessions of this project'))
    .option('--json', 'print {"ended": [ids]} as JSON');
  addDatabaseOptions(end).action(async (id: string | undefined, flags: SessionFlags) => {
    if ((id === undefined) === !flags.all) throw new CliError('give a session id or --all, not both', EXIT.usage);
    if (id !== undefined && flags.project !== undefined) throw new CliError('--project goes with --all', EXIT.usage);
    return withDatabase(databaseLocation(flags), async (orm, server) => {
      const ended = await server
        .endTeamSessions(orm.em.fork(), id !== undefined ? { id } : { all: true, projectSlug: flags.project })
        .catch((error: unknown) => {
          if (error instanceof server.TeamSessionNotFoundError) throw new CliError(error.message, EXIT.notFound);
          throw error;
        });
      if (flags.json) return printJson(output, { ended });
      output.out(ended.length === 1 ? `ended session ${ended[0]}` : `ended ${ended.length} sessions`);
    });
  });

  return sessions.addCommand(list).addCommand(end);
}
