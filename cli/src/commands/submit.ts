import { Command, Option } from 'commander';
import { FEEDBACK_TYPES } from '@feedbackd/sdk/constants';
import type { FeedbackType } from '@feedbackd/sdk/contract';
import { addApiOptions, apiFlags } from '../api-options.js';
import { parseMetadata } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { CliError, EXIT } from '../exit-codes.js';
import { printJson, printLine, type Output } from '../output.js';
import { itemFields } from './show.js';

interface SubmitFlags {
  description?: string;
  type?: FeedbackType;
  user?: string;
  userName?: string;
  userEmail?: string;
  metadata?: string;
}

export function submitCommand(output: Output): Command {
  const command = new Command('submit')
    .description('Submit a feedback item; it starts as "new" with one vote, the submitter\'s')
    .argument('<title>', 'title, at most 200 characters')
    .option('--description <text>', 'longer description')
    .addOption(new Option('--type <type>', 'kind of feedback (the server defaults to idea)').choices(FEEDBACK_TYPES))
    .option('--user <externalId>', 'submit as this end user (created if new); anonymous without it')
    .option('--user-name <name>', 'display name of the --user')
    .option('--user-email <email>', 'email address of the --user')
    .option('--metadata <json>', 'additional key-value data, as a JSON object');
  addApiOptions(command).action(async (title: string, flags: SubmitFlags, self: Command) => {
    const api = apiFlags(self);
    const metadata = parseMetadata(flags.metadata);
    if (flags.user === undefined && (flags.userName !== undefined || flags.userEmail !== undefined)) {
      throw new CliError('--user-name and --user-email describe the --user; give --user <externalId> too', EXIT.usage);
    }
    const endUser = flags.user === undefined ? undefined : { externalId: flags.user, name: flags.userName, email: flags.userEmail };
    const feedback = await withClient(api, (client) =>
      client.feedback.create({ title, description: flags.description, type: flags.type, metadata, endUser }),
    );
    if (api.json) return printJson(output, { feedback });
    // Piped, the new id alone, so that `id=$(feedback submit ...)` works.
    if (!output.isTty) return printLine(output, [feedback.id]);
    output.out(`Submitted ${feedback.id}`);
    itemFields(output, feedback);
    output.err(`\nShow it with: feedback show ${feedback.id}`);
  });
  return command;
}
