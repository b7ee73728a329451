import { Command } from 'commander';
import { MAIL_STATES } from '@feedbackd/sdk/constants';
import type { MailState, Notification } from '@feedbackd/sdk/contract';
import { addApiOptions, apiFlags } from '../api-options.js';
import { withClient } from '../api-call.js';
import { CliError, EXIT } from '../exit-codes.js';
import { positiveInteger, requireId } from '../flag-values.js';
import { formatTime, printJson, printLine, printTable, truncate, type Output } from '../output.js';

/**
 * `feedback notifications ...`: what subscribers were told and where each one's mail stands
 * (docs/notifications.md), retrying failed mail, and the project's digest choice. A secret key.
 * Each prints for people on a terminal, tab-separated lines when piped, the API's answer with --json.
 */
export function notificationsCommand(output: Output): Command {
  const notifications = new Command('notifications').description("The notifications' log: what subscribers were told, and their mail (a secret key)");

  const list = new Command('list')
    .description('List notifications, newest first: one per change and recipient, with its mail state')
    .option('--state <state>', `only this mail state: ${MAIL_STATES.join(', ')}`)
    .option('--page <n>', 'page number, from 1')
    .option('--limit <n>', 'notifications per page, at most 100 (default 20)');
  notifications.addCommand(
    addApiOptions(list).action(async (flags: { state?: string; page?: string; limit?: string }, self: Command) => {
      const api = apiFlags(self);
      if (flags.state !== undefined && !(MAIL_STATES as readonly string[]).includes(flags.state)) throw new CliError(`--state must be one of ${MAIL_STATES.join(', ')}, not "${flags.state}"`, EXIT.usage);
      const query = { state: flags.state as MailState | undefined, page: positiveInteger(flags.page, '--page', 10_000_000), limit: positiveInteger(flags.limit, '--limit', 100) };
      const page = await withClient(api, (client) => client.notifications.list(query));
      if (api.json) return printJson(output, page);
      if (output.isTty && page.items.length === 0) return output.out('No notifications yet: subscribers are told when an item they follow moves, is answered, merged or shipped.');
      printTable(
        output,
        [
          { header: 'ID', value: (n: Notification) => n.id },
          { header: 'WHEN', value: (n: Notification) => formatTime(n.createdAt) },
          { header: 'KIND', value: (n: Notification) => n.kind },
          { header: 'RECIPIENT', value: (n: Notification) => n.recipient.externalId },
          { header: 'MAIL', value: (n: Notification) => n.mailState },
          { header: 'TRIES', value: (n: Notification) => String(n.attempts) },
          { header: 'LAST ERROR', value: (n: Notification) => truncate(n.lastError ?? '', 60) },
        ],
        page.items,
      );
    }),
  );

  const retry = new Command('retry').description('Send failed mail again: these notifications, or every failed one of the project').argument('[ids...]', 'ids of notifications (none: every failed one)');
  notifications.addCommand(
    addApiOptions(retry).action(async (ids: string[], _flags: unknown, self: Command) => {
      const api = apiFlags(self);
      const result = await withClient(api, (client) => client.notifications.retry(ids.length > 0 ? ids.map(requireId) : undefined));
      if (api.json) return printJson(output, result);
      if (!output.isTty) return printLine(output, [String(result.retried)]);
      output.out(`${result.retried} notification${result.retried === 1 ? '' : 's'} will be mailed again.`);
    }),
  );

  const digest = new Command('digest').description("Mail the project's subscribers one daily digest (on), or a message per coalescing window (off)").argument('<on|off>', 'on or off');
  notifications.addCommand(
    addApiOptions(digest).action(async (choice: string, _flags: unknown, self: Command) => {
      const api = apiFlags(self);
      if (choice !== 'on' && choice !== 'off') throw new CliError(`digest takes on or off, not "${choice}"`, EXIT.usage);
      const result = await withClient(api, (client) => client.notifications.settings({ digest: choice === 'on' }));
      if (api.json) return printJson(output, result);
      if (!output.isTty) return printLine(output, [result.digest ? 'on' : 'off']);
      output.out(result.digest ? 'Subscribers now get one daily digest.' : 'Subscribers now get a message per coalescing window (serve --notify-window).');
    }),
  );
  return notifications;
}
