import { Command } from 'commander';
import { addApiOptions, apiFlags } from '../api-options.js';
import { requireId } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { printJson, printLine, type Output } from '../output.js';

/**
 * `feedback unsubscribe [<id>] --user X`: unsubscribes an end user from one item, or without an
 * id from the whole project (docs/notifications.md). Either sticks: taking part again does not undo it.
 */
export function unsubscribeCommand(output: Output): Command {
  const command = new Command('unsubscribe')
    .description('Unsubscribe an end user from an item, or without an id from every item of the project')
    .argument('[id]', 'id of the feedback item (leave it out for the whole project)')
    .requiredOption('--user <externalId>', 'the end user');
  addApiOptions(command).action(async (id: string | undefined, flags: { user: string }, self: Command) => {
    const api = apiFlags(self);
    if (id !== undefined) requireId(id);
    const result = await withClient(api, (client) => client.subscriptions.unsubscribe(id ?? null, flags.user));
    if (api.json) return printJson(output, result);
    if (!output.isTty) return printLine(output, ['unsubscribed']);
    output.out(id === undefined ? `${flags.user} is unsubscribed from every item of the project.` : `${flags.user} is unsubscribed from ${id}.`);
  });
  return command;
}
