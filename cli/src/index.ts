import { Command, CommanderError } from 'commander';
import { addApiOptions, rejectApiOptionsOutsideApiCommands } from './api-client.js';
import { identifyCommand } from './commands/identify.js';
import { keysCommand } from './commands/keys.js';
import { listCommand } from './commands/list.js';
import { migrateCommand } from './commands/migrate.js';
import { seedCommand } from './commands/seed.js';
import { serveCommand } from './commands/serve.js';
import { showCommand } from './commands/show.js';
import { submitCommand } from './commands/submit.js';
import { voteCommand } from './commands/vote.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { processOutput, type Output } from './output.js';

const API_OPTIONS_HELP = `
--url, --api-key, --retries and --json are for the commands that call the API (identify, submit,
list, show, vote). They may come before or after the command name: \`feedback --json list\` and
\`feedback list --json\` are the same.`;

/** The `feedback` program. Every option that reads an environment variable names it in --help. */
export function buildProgram(output: Output = processOutput): Command {
  const program = new Command('feedback')
    .description('Self-hosted end-user feedback: run the server, manage it, and drive its API')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', API_OPTIONS_HELP)
    .addHelpText('after', EXIT_CODES_HELP)
    .configureOutput({ writeOut: (text) => output.out(text), writeErr: (text) => output.err(text) })
    .exitOverride()
    // Program options are read before the command name only, so that `feedback --json list` sets
    // the program's --json while `feedback keys list --json` still reaches keys' own --json.
    .enablePositionalOptions();
  // The API commands' options, also accepted before the command: `feedback --json list` = `feedback list --json`.
  addApiOptions(program).hook('preSubcommand', (self, subcommand) => rejectApiOptionsOutsideApiCommands(self, subcommand));
  const commands = [
    serveCommand(output),
    migrateCommand(output),
    keysCommand(output),
    seedCommand(output),
    identifyCommand(output),
    submitCommand(output),
    listCommand(output),
    showCommand(output),
    voteCommand(output),
  ];
  for (const command of commands) program.addCommand(command);
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
  if (output === processOutput) endQuietlyWhenStdoutCloses();
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

let stdoutGuarded = false;

/**
 * `feedback list --all | head -n 1`: once the reader has gone, writing to stdout fails with EPIPE.
 * The reader has what it wanted, so the command ends there with 0 instead of a stack trace.
 */
function endQuietlyWhenStdoutCloses(): void {
  if (stdoutGuarded) return;
  stdoutGuarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
}
