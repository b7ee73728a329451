import { Command, CommanderError } from 'commander';
import { keysCommand } from './commands/keys.js';
import { migrateCommand } from './commands/migrate.js';
import { serveCommand } from './commands/serve.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { processOutput, type Output } from './output.js';

/** The `feedback` program. Every option that reads an environment variable names it in --help. */
export function buildProgram(output: Output = processOutput): Command {
  const program = new Command('feedback')
    .description('Self-hosted end-user feedback: run the server, manage it, and drive its API')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    .configureOutput({ writeOut: (text) => output.out(text), writeErr: (text) => output.err(text) })
    .exitOverride();
  for (const command of [serveCommand(output), migrateCommand(output), keysCommand(output)]) program.addCommand(command);
  // Sub-commands report usage errors through the same override, so every one exits with EXIT.usage.
  const override = (command: Command) => {
    command.exitOverride().configureOutput({ writeOut: (text) => output.out(text), writeErr: (text) => output.err(text) });
    command.commands.forEach(override);
  };
  program.commands.forEach(override);
  return program;
}

/** Runs the CLI and returns the process exit code. */
export async function main(argv: string[], output: Output = processOutput): Promise<number> {
  try {
    await buildProgram(output).parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      output.err(`feedback: ${error.message}`);
      return error.exitCode;
    }
    output.err(`feedback: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.FEEDBACK_DEBUG && error instanceof Error && error.stack) output.err(error.stack);
    return EXIT.error;
  }
}
