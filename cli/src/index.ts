import { Command, CommanderError } from 'commander';
import { addApiOptions, API_COMMANDS, rejectApiOptionsOutsideApiCommands, secretKeyCommands, takesApiOptions } from './api-options.js';
import { boardCommand } from './commands/board.js';
import { commentCommand } from './commands/comment.js';
import { deleteCommand } from './commands/delete.js';
import { exportCommand } from './commands/export.js';
import { identifyCommand } from './commands/identify.js';
import { importCommand } from './commands/import.js';
import { keysCommand } from './commands/keys.js';
import { listCommand } from './commands/list.js';
import { loginCommand } from './commands/login.js';
import { logoutCommand } from './commands/logout.js';
import { mergeCommand } from './commands/merge.js';
import { openCommand } from './commands/open.js';
import { migrateCommand } from './commands/migrate.js';
import { seedCommand } from './commands/seed.js';
import { sessionsCommand } from './commands/sessions.js';
import { serveCommand } from './commands/serve.js';
import { showCommand } from './commands/show.js';
import { similarCommand } from './commands/similar.js';
import { statusCommand } from './commands/status.js';
import { submitCommand } from './commands/submit.js';
import { voteCommand } from './commands/vote.js';
import { webhooksCommand } from './commands/webhooks.js';
import { whoamiCommand } from './commands/whoami.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { processOutput, type Output } from './output.js';
import { CLI_VERSION } from './version.js';

const publicKeyCommands = Object.keys(API_COMMANDS).filter((name) => API_COMMANDS[name as keyof typeof API_COMMANDS] === 'public');
const API_OPTIONS_HELP = `\n${wrap(
  `--url, --api-key, --retries and --json are for the commands that call the API (${publicKeyCommands.join(', ')}, ` +
    `and with a secret key ${secretKeyCommands()}). They may come before or after the command name: ` +
    '`feedback --json list` and `feedback list --json` are the same. A flag beats its environment variable, ' +
    'which beats what `feedback login` stored.',
  100,
)}`;

/** `text` in lines of at most `width` characters, broken between words. */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

/** Every error line starts with this, whoever raised it (commander says "error:" by itself). */
const ERROR_PREFIX = 'feedback: ';

/**
 * The `feedback` program. Every option that reads an environment variable names it in --help.
 * With `jsonErrors`, commander prints no error of its own: `main` prints it as JSON instead.
 */
export function buildProgram(output: Output = processOutput, jsonErrors = false): Command {
  const outputConfig = {
    writeOut: (text: string) => output.out(text),
    writeErr: (text: string) => (jsonErrors ? undefined : output.err(text)),
    outputError: (text: string, write: (text: string) => void) => write(text.replace(/^error: /, ERROR_PREFIX)),
  };
  const program = new Command('feedback')
    .description('Self-hosted end-user feedback: run the server, manage it, and drive its API')
    .version(CLI_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', API_OPTIONS_HELP)
    .addHelpText('after', EXIT_CODES_HELP)
    .configureOutput(outputConfig)
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
    boardCommand(output),
    seedCommand(output),
    exportCommand(output),
    importCommand(output),
    identifyCommand(output),
    submitCommand(output),
    listCommand(output),
    similarCommand(output),
    showCommand(output),
    voteCommand(output),
    statusCommand(output),
    commentCommand(output),
    mergeCommand(output),
    deleteCommand(output),
    loginCommand(output),
    logoutCommand(output),
    whoamiCommand(output),
    webhooksCommand(output),
    openCommand(output),
    sessionsCommand(output),
  ];
  for (const command of commands) {
    // API_COMMANDS is the list the help and the checks read: it must name exactly these.
    // A command with subcommands (webhooks) is an API command when its subcommands take the options.
    const apiCommand = takesApiOptions(command) || command.commands.some(takesApiOptions);
    if (apiCommand !== Object.hasOwn(API_COMMANDS, command.name())) {
      throw new Error(`API_COMMANDS and the commands that take the API options disagree about ${command.name()}`);
    }
    program.addCommand(command);
  }
  // Sub-commands report usage errors through the same override, so every one exits with EXIT.usage.
  const override = (command: Command) => {
    command.exitOverride().configureOutput(outputConfig);
    command.commands.forEach(override);
  };
  program.commands.forEach(override);
  return program;
}

/** Runs the CLI and returns the process exit code. */
export async function main(argv: string[], output: Output = processOutput): Promise<number> {
  if (output === processOutput) endQuietlyWhenStdoutCloses();
  const json = wantsJson(argv);
  try {
    await buildProgram(output, json).parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0.
      if (error.exitCode === 0) return EXIT.ok;
      if (json) printError(output, { error: error.message.replace(/^error: /, ''), exitCode: EXIT.usage });
      return EXIT.usage;
    }
    if (error instanceof CliError) {
      if (json) printError(output, { error: error.message, exitCode: error.exitCode, ...(error.details ? { details: error.details } : {}) });
      else output.err(`${ERROR_PREFIX}${error.message}`);
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (json) printError(output, { error: message, exitCode: EXIT.error });
    else output.err(`${ERROR_PREFIX}${message}`);
    if (process.env.FEEDBACK_DEBUG && error instanceof Error && error.stack) output.err(error.stack);
    return EXIT.error;
  }
}

/** `--json` anywhere before a lone `--`: the command's errors are then JSON too, for scripts. */
function wantsJson(argv: readonly string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/** A failure as one JSON object on stderr: `error`, `exitCode`, and the server's `details` of a 400. */
function printError(output: Output, body: { error: string; exitCode: number; details?: unknown }): void {
  output.err(JSON.stringify(body));
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
