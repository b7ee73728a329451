import { Command, Option } from 'commander';
import type { Erasure } from '@feedbackd/server';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import { withDatabase, type ServerModule } from '../operator.js';
import { printJson, type Output } from '../output.js';

interface UserFlags extends DatabaseFlags {
  project: string;
}

/**
 * `feedback users erase|export`: one end user's data, for an erasure or an access request (docs/api.md,
 * "Erasing and exporting one end user"); an operator command on the database like `feedback keys`,
 * running the services of DELETE /api/v1/users/:externalId and GET …/export.
 */
export function usersCommand(output: Output): Command {
  const users = new Command('users').description("One end user's data by externalId: erase it, or export it as JSON");
  const project = () => new Option('--project <slug>', 'project the end user belongs to').default('default');

  const erase = new Command('erase')
    .description('Erase an end user: profile and votes deleted (counts kept exact), submissions and comments anonymised unless --delete-content; sends user.erased')
    .argument('<externalId>', "the end user's id in your application")
    .addOption(project())
    .option('--delete-content', 'delete their submissions (with their votes and comments) and their comments instead of keeping them anonymised')
    .option('--json', 'print {"erased": ..., "counts": {...}} as JSON');
  addDatabaseOptions(erase).action(async (externalId: string, flags: UserFlags & { deleteContent?: boolean; json?: boolean }) =>
    withDatabase(databaseLocation(flags), async (orm, server) => {
      const content = flags.deleteContent ? 'delete' : 'anonymise';
      const result = await server.eraseEndUser(orm.em.fork(), { projectSlug: flags.project }, externalId, content).catch(rethrowAsCliError(server));
      if (flags.json) return printJson(output, result);
      output.out(describeErasure(result));
    }),
  );

  const exportUser = new Command('export')
    .description('Print everything stored about an end user (profile, submissions, votes, comments, subscriptions, held posts, notifications, blocks) as one JSON document')
    .argument('<externalId>', "the end user's id in your application")
    .addOption(project());
  addDatabaseOptions(exportUser).action(async (externalId: string, flags: UserFlags) =>
    withDatabase(databaseLocation(flags), async (orm, server) => {
      const document = await server.exportEndUser(orm.em.fork(), { projectSlug: flags.project }, externalId).catch(rethrowAsCliError(server));
      if (!document) throw new CliError(`no end user "${externalId}" in project "${flags.project}"`, EXIT.notFound);
      printJson(output, document);
    }),
  );

  return users.addCommand(erase).addCommand(exportUser);
}

/** One line per kind that was touched, or that nothing was held. */
function describeErasure({ erased, counts }: Erasure): string {
  if (!erased) return 'nothing held of this end user (never seen, or erased before): nothing to do';
  const lines = Object.entries(counts).map(([kind, n]) => `${kind.padEnd(22)}${n}`);
  return ['erased:', ...lines].join('\n');
}

function rethrowAsCliError(server: ServerModule): (error: unknown) => never {
  return (error) => {
    if (error instanceof server.ProjectNotFoundError) throw new CliError(error.message, EXIT.notFound);
    throw error;
  };
}

