import { Command } from 'commander';
import { addApiOptions, apiFlags } from '../api-options.js';
import { requireId } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { printJson, printLine, type Output } from '../output.js';

/**
 * `feedback subscribe <id> --user X`: subscribes an end user to an item without a vote
 * (docs/notifications.md, "Subscriptions"); it undoes an earlier unsubscribe from that item.
 */
export function subscribeCommand(output: Output): Command {
  const command = new Command('subscribe')
    .description('Subscribe an end user to an item, so they are told when it moves (no vote needed)')
    .argument('<id>', 'id of the feedback item')
    .requiredOption('--user <externalId>', 'the end user (created if new)');
  addApiOptions(command).action(async (id: string, flags: { user: string }, self: Command) => {
    const api = apiFlags(self);
    requireId(id);
    const result = await withClient(api, (client) => client.subscriptions.subscribe(id, { externalId: flags.user }));
    if (api.json) return printJson(output, result);
    if (!output.isTty) return printLine(output, ['subscribed']);
    output.out(`${flags.user} is subscribed to ${id}.`);
  });
  return command;
}
