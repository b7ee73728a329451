import { Command } from 'commander';
import { configPath, removeCredentials } from '../config-file.js';
import { printJson, type Output } from '../output.js';

/** `feedback logout`: forgets what `feedback login` stored. */
export function logoutCommand(output: Output): Command {
  return new Command('logout')
    .description('Forget the server address and API key stored by `feedback login`')
    .option('--json', 'print {"removed": ..., "config": ...} as JSON')
    .action((flags: { json?: boolean }) => {
      const removed = removeCredentials();
      if (flags.json) return printJson(output, { removed, config: configPath() });
      output.out(removed ? `Logged out: removed ${configPath()}.` : `Not logged in (there is no ${configPath()}).`);
    });
}
