import { Command } from 'commander';
import { addApiOptions, apiFlags } from '../api-options.js';
import { parseMetadata } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { formatTime, printFields, printJson, printLine, type Output } from '../output.js';

interface IdentifyFlags {
  email?: string;
  name?: string;
  avatarUrl?: string;
  metadata?: string;
}

export function identifyCommand(output: Output): Command {
  const command = new Command('identify')
    .description('Create an end user, or update the one with this external id (omitted fields keep their values)')
    .argument('<externalId>', "the user's id in your own system")
    .option('--email <email>', 'email address')
    .option('--name <name>', 'display name')
    .option('--avatar-url <url>', 'http(s) URL of the avatar')
    .option('--metadata <json>', 'additional key-value data, as a JSON object');
  addApiOptions(command).action(async (externalId: string, flags: IdentifyFlags, self: Command) => {
    const api = apiFlags(self);
    const metadata = parseMetadata(flags.metadata);
    const user = await withClient(api, (client) =>
      client.users.identify({ externalId, email: flags.email, name: flags.name, avatarUrl: flags.avatarUrl, metadata }),
    );
    if (api.json) return printJson(output, { user });
    if (!output.isTty) return printLine(output, [user.id]);
    output.out(`Identified ${externalId}`);
    printFields(output, [
      ['ID', user.id],
      ['Name', user.name ?? ''],
      ['Email', user.email ?? ''],
      ['Avatar', user.avatarUrl ?? ''],
      ['Created', formatTime(user.createdAt)],
    ]);
  });
  return command;
}
