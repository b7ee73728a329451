import { Command, CommanderError } from 'commander';
import { addApiOptions, API_COMMANDS, rejectApiOptionsOutsideApiCommands, secretKeyCommands, takesApiOptions } from './api-options.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { exactOutput, jsonText, processOutput, visibleOutput, type Output } from './output.js';
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

/** A module that defines a command: its name, options and help, and an action that loads the rest. */
type CommandLoader = () => Promise<(output: Output) => Command>;

/**
 * Every command, in the order --help lists them, each behind a dynamic import: a run loads the
 * module of the command it names and no other (`feedback --version` none), so that the CLI's
 * start does not grow with every command added. What a command's action needs beyond its
 * definition (the SDK client, the server) its module loads in turn when the action runs.
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: CommandLoader]> = [
  ['serve', async () => (await import('./commands/serve.js')).serveCommand],
  ['migrate', async () => (await import('./commands/migrate.js')).migrateCommand],
  ['keys', async () => (await import('./commands/keys.js')).keysCommand],
  ['board', async () => (await import('./commands/board.js')).boardCommand],
  ['widget', async () => (await import('./commands/widget.js')).widgetCommand],
  ['seed', async () => (await import('./commands/seed.js')).seedCommand],
  ['export', async () => (await import('./commands/export.js')).exportCommand],
  ['import', async () => (await import('./commands/import.js')).importCommand],
  ['identify', async () => (await import('./commands/identify.js')).identifyCommand],
  ['submit', async () => (await import('./commands/submit.js')).submitCommand],
  ['list', async () => (await import('./commands/list.js')).listCommand],
  ['similar', async () => (await import('./commands/similar.js')).similarCommand],
  ['show', async () => (await import('./commands/show.js')).showCommand],
  ['vote', async () => (await import('./commands/vote.js')).voteCommand],
  ['status', async () => (await import('./commands/status.js')).statusCommand],
  ['comment', async () => (await import('./commands/comment.js')).commentCommand],
  ['subscribe', async () => (await import('./commands/subscribe.js')).subscribeCommand],
  ['unsubscribe', async () => (await import('./commands/unsubscribe.js')).unsubscribeCommand],
  ['subscribers', async () => (await import('./commands/subscribers.js')).subscribersCommand],
  ['merge', async () => (await import('./commands/merge.js')).mergeCommand],
  ['delete', async () => (await import('./commands/delete.js')).deleteCommand],
  ['login', async () => (await import('./commands/login.js')).loginCommand],
  ['logout', async () => (await import('./commands/logout.js')).logoutCommand],
  ['whoami', async () => (await import('./commands/whoami.js')).whoamiCommand],
  ['webhooks', async () => (await import('./commands/webhooks.js')).webhooksCommand],
  ['changelog', async () => (await import('./commands/changelog.js')).changelogCommand],
  ['notifications', async () => (await import('./commands/notifications.js')).notificationsCommand],
  ['open', async () => (await import('./commands/open.js')).openCommand],
  ['sessions', async () => (await import('./commands/sessions.js')).sessionsCommand],
  ['users', async () => (await import('./commands/users.js')).usersCommand],
  ['moderation', async () => (await import('./commands/moderation.js')).moderationCommand],
];

/** The program's options that take a value: the word after one of them is not a command name. */
const PROGRAM_VALUE_OPTIONS = new Set(['--url', '--api-key', '--retries']);

/**
 * The commands a run needs defined: the one it names; none for `feedback --version`; every one
 * otherwise (--help, `help`, no command, a mistyped one: the help and the suggestions list them all).
 */
export function commandsFor(argv: readonly string[]): readonly string[] {
  const all = COMMANDS.map(([name]) => name);
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (!arg.startsWith('-')) return all.includes(arg) ? [arg] : all;
    if (PROGRAM_VALUE_OPTIONS.has(arg)) i += 1;
  }
  const options = args.slice(0, args.includes('--') ? args.indexOf('--') : undefined);
  const versionOnly = options.some((arg) => arg === '--version' || arg === '-V') && !options.some((arg) => arg === '--help' || arg === '-h');
  return versionOnly ? [] : all;
}

/**
 * The `feedback` program with the commands named in `only` (by default every one). Every option
 * that reads an environment variable names it in --help. With `jsonErrors`, commander prints no
 * error of its own: `main` prints it as JSON instead.
 */
export async function buildProgram(
  output: Output = processOutput,
  jsonErrors = false,
  only: readonly string[] = COMMANDS.map(([name]) => name),
): Promise<Command> {
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
  const definitions = await Promise.all(COMMANDS.filter(([name]) => only.includes(name)).map(([, load]) => load()));
  for (const define of definitions) {
    const command = define(output);
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
export async function main(argv: string[], to: Output = processOutput): Promise<number> {
  if (exactOutput(to) === processOutput) endQuietlyWhenStdoutCloses();
  // Everything a command prints goes through this filter: a title or a name can hold escape sequences.
  const output = visibleOutput(to);
  const json = wantsJson(argv);
  try {
    await (await buildProgram(output, json, commandsFor(argv))).parseAsync(argv);
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
  exactOutput(output).err(jsonText(body));
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
