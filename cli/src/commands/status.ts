import { Argument, Command } from 'commander';
import { FEEDBACK_STATUSES } from '@feedbackd/sdk/constants';
import type { FeedbackStatus } from '@feedbackd/sdk/contract';
import { addApiOptions, apiFlags } from '../api-options.js';
import { requireId } from '../flag-values.js';
import { NOTIFYING_CALL, withClient } from '../api-call.js';
import { printJson, printLine, type Output } from '../output.js';
import { itemLine } from './list.js';

interface StatusFlags {
  actor?: string;
}

/** `feedback status <id> <status>`: moves an item (secret key); the change is recorded in its history. */
export function statusCommand(output: Output): Command {
  const command = new Command('status')
    .description("Change an item's status (needs a secret key); the change is recorded in its history")
    .argument('<id>', 'id of the feedback item')
    .addArgument(new Argument('<status>', 'the new status').choices(FEEDBACK_STATUSES))
    .option('--actor <name>', 'who made the change, for the history (the key is recorded anyway)');
  addApiOptions(command).action(async (id: string, status: FeedbackStatus, flags: StatusFlags, self: Command) => {
    const api = apiFlags(self);
    requireId(id);
    const feedback = await withClient(api, (client) => client.admin.update(id, { status, actor: flags.actor }, NOTIFYING_CALL));
    if (api.json) return printJson(output, { feedback });
    // Piped: the item as `list` prints it, so the new status is its second column.
    if (!output.isTty) return printLine(output, itemLine(feedback));
    output.out(`${feedback.id} is now ${feedback.status}: ${feedback.title}`);
  });
  return command;
}
