import { Command } from 'commander';
import { WEBHOOK_EVENT_TYPES } from '@feedbackd/sdk/constants';
import { addApiOptions, apiFlags } from '../api-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import { enumList } from '../flag-values.js';
import type { Output } from '../output.js';

const HELP = `
How it works: the server never connects to this machine (it may be behind NAT). It keeps the
events for a pull endpoint made for this run; this command pulls them, POSTs each to --forward-to
with the headers and body the server signed, and reports what your receiver answered, so that a
failure is retried as a real delivery is. Ctrl-C (or SIGTERM) deletes the endpoint; one left
behind is deleted by the server after an hour without pulls.

The server is FEEDBACK_URL, your \`feedback login\`, or \`feedback --url SERVER webhooks listen\`.`;

/**
 * `feedback webhooks listen --forward-to URL`: a developer's receiver gets the project's events on
 * their own machine (docs/webhooks.md, "Receiving on your own machine"). The flags are checked here;
 * the loop, with the SDK client and undici, is loaded only when it runs (webhook-forwarding.ts).
 */
export function webhooksListenCommand(output: Output): Command {
  const listen = new Command('listen')
    .description("Receive the project's events on this machine: pull them from the server and POST each to --forward-to, signed")
    .requiredOption('--forward-to <url>', 'your receiver, e.g. http://localhost:4000/hooks (localhost is fine: only this machine connects to it)')
    .option('--events <types>', `event types separated by commas (default every type): ${WEBHOOK_EVENT_TYPES.join(', ')}`)
    .addHelpText('after', HELP);
  return addApiOptions(listen, { serverUrl: false }).action(async (flags: { forwardTo: string; events?: string }, self: Command) => {
    const api = apiFlags(self);
    const events = enumList(flags.events, '--events', WEBHOOK_EVENT_TYPES);
    const forwardTo = httpUrl(flags.forwardTo);
    const { forwardWebhooks } = await import('../webhook-forwarding.js');
    await forwardWebhooks(api, { forwardTo, events }, output);
  });
}

/** `--forward-to`: an http(s) URL, checked before the server is asked for anything. */
function httpUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliError(`--forward-to must be an http:// or https:// URL, like http://localhost:4000/hooks, not "${text}"`, EXIT.usage);
  }
  return url.toString();
}
