import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { BOARD_LOCALES, SORT_ORDERS } from '@feedbackd/sdk/constants';
import type { SortBy } from '@feedbackd/sdk/contract';
import type { BoardSetting } from '@feedbackd/server';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import { withDatabase, type ServerModule } from '../operator.js';
import { printJson, type Output } from '../output.js';
import { boardCommentsCommand } from './board-comments.js';
import { boardModerationCommand } from './board-moderation.js';

interface BoardFlags extends DatabaseFlags {
  project: string;
  json?: boolean;
}

/**
 * `feedback board`: what a project's public board (docs/board.md) shows and to whom. Operator
 * commands on the database, like `feedback keys`: deciding what end users may read, who may sign
 * them in and who may frame the board is the operator's, not an API key's.
 * - `on|off`: whether the board and roadmap are served at /b/<slug>;
 * - `secret create|rotate|remove`: the identity secret the host app signs its visitors' links with;
 * - `embed`: the origins allowed to show the board in a frame;
 * - `brand`: its name, description, logo, accent colour and default order (the service PATCH
 *   /api/v1/board calls too).
 */
export function boardCommand(output: Output): Command {
  const board = new Command('board').description("A project's public board (/b/<slug>): on or off, its identity secret for signed-in visitors, who may frame it");
  for (const [state, description] of [
    ['on', "Serve the project's board and roadmap at /b/<slug>: anyone who can reach the server may read, vote and post there"],
    ['off', "Stop serving the project's board: its pages answer 404 (the API is not affected)"],
  ] as const) {
    board.addCommand(
      boardAction(new Command(state).description(description), output, (server, em, flags) => server.setBoardEnabled(em, flags.project, state === 'on'), (setting) =>
        setting.boardEnabled ? `the board of ${setting.project} is on, at ${setting.path}` : `the board of ${setting.project} is off`,
      ),
    );
  }
  board.addCommand(secretCommand(output));
  board.addCommand(brandCommand(output));
  board.addCommand(boardCommentsCommand(output, boardAction));
  board.addCommand(boardModerationCommand(output, boardAction));
  board.addCommand(
    boardAction(
      new Command('embed')
        .description('Allow these origins (and no other site) to show the board in a frame, e.g. inside the host app; --none refuses every frame again')
        .option('--origin <origin...>', 'an origin allowed to frame the board: scheme, host and port, e.g. https://app.example.com')
        .option('--none', 'allow no origin (the default): every frame is refused'),
      output,
      (server, em, flags: BoardFlags & { origin?: string[]; none?: boolean }) => {
        if (Boolean(flags.none) === Boolean(flags.origin)) throw new CliError('give --origin <origin...>, or --none', EXIT.usage);
        return server.setBoardFrameOrigins(em, flags.project, flags.none ? [] : flags.origin!);
      },
      (setting) =>
        setting.frameOrigins.length > 0 ? `the board of ${setting.project} may be framed by ${setting.frameOrigins.join(', ')}` : `the board of ${setting.project} may not be framed`,
    ),
  );
  return board;
}

/** `feedback board secret create|rotate|remove`: the host app's signing key for its visitors' sign-in links. */
function secretCommand(output: Output): Command {
  const secret = new Command('secret').description("The identity secret the host app's backend signs its users' board sign-in links with (docs/board.md)");
  const verbs = [
    ['create', 'Make the project\'s identity secret (shown once); refused when it has one: use rotate'],
    ['rotate', 'Replace the identity secret (shown once): links signed with the old one stop working, and every visitor is signed out'],
    ['remove', 'Remove the identity secret: the board takes no sign-in link and every visitor is signed out'],
  ] as const;
  for (const [action, description] of verbs) {
    secret.addCommand(
      boardAction(new Command(action).description(description), output, (server, em, flags) => server.changeIdentitySecret(em, flags.project, action), (setting) => {
        if (!('secret' in setting)) return `the board of ${setting.project} takes no sign-in links`;
        return [String(setting.secret), `\nThis secret is shown only once. Give it to the host app's backend, which signs its users' links with it (docs/board.md, "Identified visitors").`];
      }),
    );
  }
  return secret;
}

interface BrandFlags extends BoardFlags {
  name?: string;
  description?: string | false;
  logo?: string | false;
  accent?: string | false;
  defaultSort?: SortBy | false;
  locale?: string | false;
}

/** `feedback board brand`: the board's look, each flag a field (`--no-<field>` clears it); what is not given is kept. */
function brandCommand(output: Output): Command {
  const command = new Command('brand')
    .description("The board's brand: its name, a one-line description, a logo, an accent colour, the list's default order and the pages' default language (what a flag does not name is kept)")
    .option('--name <name>', "the product's name: the pages' title, the header and link previews")
    .option('--description <text>', 'one line under the name, and the pages\' meta description and link previews')
    .option('--no-description', 'remove the description')
    .option('--logo <file>', 'a PNG, JPEG, WebP or GIF of at most 256 KB, known by its bytes whatever its name (SVG is refused); served by the board')
    .option('--no-logo', 'remove the logo')
    .option('--accent <colour>', "the links' and buttons' colour, #rgb or #rrggbb: refused below 4.5:1 contrast in the light theme (the message suggests one), lightened for the dark theme if it needs")
    .option('--no-accent', "go back to the board's own accent")
    .addOption(new Option('--default-sort <order>', "the list's order when a visitor picks none").choices(SORT_ORDERS))
    .option('--no-default-sort', 'go back to newest first')
    .addOption(new Option('--locale <language>', "the pages' language when a reader chose none and their browser asks for none the board has").choices(BOARD_LOCALES))
    .option('--no-locale', 'go back to English');
  return boardAction(
    command,
    output,
    async (server, em, flags: BrandFlags) => {
      const given = ['name', 'description', 'logo', 'accent', 'defaultSort', 'locale'] as const;
      if (given.every((flag) => flags[flag] === undefined)) throw new CliError('give at least one of --name, --description, --logo, --accent, --default-sort, --locale (or a --no-… to clear one)', EXIT.usage);
      const clear = <T>(value: T | false | undefined) => (value === false ? null : value);
      const logo = typeof flags.logo === 'string' ? await readLogo(flags.logo) : flags.logo === false ? null : undefined;
      return server.setBoardBrand(em, flags.project, { name: flags.name, description: clear(flags.description), accent: clear(flags.accent), defaultSort: clear(flags.defaultSort), locale: clear(flags.locale), logo });
    },
    (setting) => {
      const parts = [`"${setting.name}"`];
      if (setting.description) parts.push(`"${setting.description}"`);
      if (setting.accent) parts.push(`accent ${setting.accent} (dark theme ${setting.darkAccent})`);
      if (setting.logo) parts.push(`logo ${setting.logo.width}x${setting.logo.height} ${setting.logo.type} at ${setting.logo.path}`);
      parts.push(`sorted by ${setting.defaultSort ?? 'newest'}`);
      if (setting.locale) parts.push(`pages in ${setting.locale} unless the reader asks for another language`);
      return `the board of ${setting.project}: ${parts.join(', ')}`;
    },
  );
}

async function readLogo(file: string): Promise<Buffer> {
  return readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`cannot read the logo ${file}: ${error.code ?? error.message}`, EXIT.usage);
  });
}

/** One board setting's command: --project, the database options, --json, and a line of text otherwise. */
function boardAction<F extends BoardFlags, S extends BoardSetting>(
  command: Command,
  output: Output,
  change: (server: ServerModule, em: Parameters<ServerModule['setBoardEnabled']>[0], flags: F) => Promise<S>,
  /** The line printed without --json, and maybe a note for stderr after it. */
  describe: (setting: S) => string | [line: string, note: string],
): Command {
  command.addOption(new Option('--project <slug>', 'the project').default('default')).option('--json', 'print the board\'s settings as JSON');
  // The options are read from the command, not the action's first argument: a command with an
  // argument (`board moderation <mode>`) is handed that first.
  return addDatabaseOptions(command).action(async () => {
    const flags = command.opts<F>();
    return withDatabase(databaseLocation(flags), async (orm, server) => {
      const setting = await change(server, orm.em.fork(), flags).catch((error: unknown) => {
        if (error instanceof server.ProjectNotFoundError) throw new CliError(error.message, EXIT.notFound);
        if (error instanceof server.IdentitySecretExistsError || error instanceof server.InvalidOriginError) throw new CliError(error.message, EXIT.usage);
        if (error instanceof server.InvalidBrandError) throw new CliError(`--${error.field === 'defaultSort' ? 'default-sort' : error.field}: ${error.message}`, EXIT.usage);
        throw error;
      });
      if (flags.json) return printJson(output, setting);
      const [line, note] = [describe(setting)].flat();
      output.out(line!);
      if (note) output.err(note);
    });
  });
}
