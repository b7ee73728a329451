import { Command } from 'commander';
import { addApiOptions, apiFlags, serverUrl } from '../api-options.js';
import { withClient } from '../api-call.js';
import { maskKey, writeCredentials } from '../config-file.js';
import { CliError, EXIT } from '../exit-codes.js';
import { printJson, type Output } from '../output.js';

/** `feedback login`: checks an address and key against the server, then stores them (as `gh auth login` does). */
export function loginCommand(output: Output): Command {
  const command = new Command('login').description(
    'Check a server address and API key against the server, then store them for the other API commands (in a file only you can read)',
  );
  addApiOptions(command).action(async (_flags: unknown, self: Command) => {
    const api = apiFlags(self);
    const key = api.apiKey?.trim();
    if (!key) throw new CliError('no API key to store: pass --api-key or set FEEDBACK_API_KEY', EXIT.usage);
    const url = serverUrl(api);
    // One cheap authenticated request: a 401 (exit 4) or an unreachable server stores nothing.
    await withClient(api, (client) => client.feedback.list({ limit: 1 }));
    const path = writeCredentials({ url, apiKey: key });
    if (api.json) return printJson(output, { url, key: maskKey(key), config: path });
    output.out(`Logged in to ${url} with ${maskKey(key)}.`);
    output.err(`Stored in ${path} (readable by you only). Flags and FEEDBACK_URL / FEEDBACK_API_KEY still take precedence.`);
  });
  return command;
}
