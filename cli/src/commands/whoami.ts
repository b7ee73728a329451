import { Command } from 'commander';
import { addApiOptions, apiFlags, serverUrl, type ValueSource } from '../api-options.js';
import { withClient } from '../api-call.js';
import { configPath, maskKey } from '../config-file.js';
import { CliError, EXIT } from '../exit-codes.js';
import { printFields, printJson, type Output } from '../output.js';

const FROM: Record<ValueSource, string> = {
  flag: 'from the command line',
  environment: 'from the environment',
  login: 'from `feedback login`',
  default: 'the default',
};

/** `feedback whoami`: which server and key the API commands would use, and whether the server accepts the key. */
export function whoamiCommand(output: Output): Command {
  const command = new Command('whoami').description('Show the server and API key the API commands use (the key masked), and check the key with the server');
  addApiOptions(command).action(async (_flags: unknown, self: Command) => {
    const api = apiFlags(self);
    const url = serverUrl(api);
    const key = api.apiKey?.trim();
    if (!key) throw new CliError('not logged in: no API key from --api-key, FEEDBACK_API_KEY or `feedback login`', EXIT.auth);
    // A refused key (exit 4) or an unreachable server (exit 1) ends here with the usual message.
    await withClient(api, (client) => client.feedback.list({ limit: 1 }));
    const keySource = api.sources.apiKey ?? 'default';
    if (api.json) return printJson(output, { url, urlSource: api.sources.url, key: maskKey(key), keySource, accepted: true, config: configPath() });
    printFields(
      output,
      [
        ['Server', `${url} (${FROM[api.sources.url]})`],
        ['API key', `${maskKey(key)} (${FROM[keySource]})`],
        ['Status', 'accepted by the server'],
        ['Login file', configPath()],
      ],
      '',
    );
  });
  return command;
}
