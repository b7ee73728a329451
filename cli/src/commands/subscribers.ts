import { Command } from 'commander';
import type { Subscriber } from '@feedbackd/sdk/contract';
import { addApiOptions, apiFlags } from '../api-options.js';
import { positiveInteger, requireId } from '../flag-values.js';
import { withClient } from '../api-call.js';
import { formatTime, printJson, printTable, truncate, type Output } from '../output.js';

/** `feedback subscribers <id>`: who is told when the item moves, and why (secret key). */
export function subscribersCommand(output: Output): Command {
  const command = new Command('subscribers')
    .description("List an item's subscribers, oldest first, with why each is subscribed (needs a secret key)")
    .argument('<id>', 'id of the feedback item')
    .option('--page <n>', 'page number, from 1')
    .option('--limit <n>', 'subscribers per page, at most 500 (default 50)');
  addApiOptions(command).action(async (id: string, flags: { page?: string; limit?: string }, self: Command) => {
    const api = apiFlags(self);
    requireId(id);
    const query = { page: positiveInteger(flags.page, '--page', 10_000_000), limit: positiveInteger(flags.limit, '--limit', 500) };
    const page = await withClient(api, (client) => client.subscriptions.list(id, query));
    if (api.json) return printJson(output, page);
    if (output.isTty && page.items.length === 0) return output.out(`No one is subscribed to ${id}.`);
    printTable(
      output,
      [
        { header: 'USER', value: (s: Subscriber) => s.externalId },
        { header: 'EMAIL', value: (s: Subscriber) => s.email ?? '' },
        { header: 'REASONS', value: (s: Subscriber) => s.reasons.join(',') },
        { header: 'SINCE', value: (s: Subscriber) => formatTime(s.subscribedAt) },
        { header: 'NAME', value: (s: Subscriber) => truncate(s.name ?? '', 40) },
      ],
      page.items,
    );
    if (output.isTty && page.totalPages > 1) output.out(`Page ${page.page} of ${page.totalPages} (${page.total} subscribers).`);
  });
  return command;
}
