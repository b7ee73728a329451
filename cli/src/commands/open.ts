import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { addApiOptions, apiFlags, serverUrl } from '../api-options.js';
import { withClient } from '../api-call.js';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import { withDatabase } from '../operator.js';
import { formatTime, printJson, type Output } from '../output.js';

/** The prefix of a public key (the server's api-key-format.ts; a secret key's is `sk_`). */
const PUBLIC_KEY_PREFIX = 'pk_';

interface OpenFlags extends DatabaseFlags {
  project: string;
  name?: string;
  print?: boolean;
  publicUrl?: string;
}

/**
 * `feedback open`: a one-time link to the team's pages (the inbox, docs/triage.md), printed and
 * opened in a browser. Two ways, like the other operator commands:
 * - on the database (`--data-dir`, `--database-url`, or neither and no key or a public one): the
 *   operator's own access, for any project (`--project`);
 * - with a secret key (`--api-key`/FEEDBACK_API_KEY or `feedback login`, and `--url`): through
 *   POST /api/v1/team/sign-in-links, for the key's project; revoking the key ends the sessions.
 * A public key cannot ask the server for a link (it is the one the customer's backend holds), so it
 * is no reason to leave the database: FEEDBACK_API_KEY=pk_... as the README's curl examples leave it
 * does not stop `feedback open` where the server's database is.
 * Either way the link is on the server's address as the API commands take it (`--url`,
 * FEEDBACK_URL, the stored login, or the default), or on its public URL when one is given
 * (`--public-url`, FEEDBACK_PUBLIC_URL: the variable `feedback serve` reads too).
 */
export function openCommand(output: Output): Command {
  const command = new Command('open')
    .description("Sign in to the team's inbox in a browser: prints a one-time link (10 minutes, usable once) and opens it")
    .addOption(new Option('--project <slug>', 'the project to sign in to (on the database; a secret key signs in to its own)').default('default'))
    .option('--name <name>', 'who the link is for: it signs your replies and status changes (otherwise the project\'s name and the session)')
    .option('--print', 'only print the link; do not open a browser')
    .addOption(
      new Option('--public-url <url>', "the server's public origin, as `feedback serve --public-url` (whose pages answer no other host): the link is made on it instead of --url").env('FEEDBACK_PUBLIC_URL'),
    )
    .addHelpText(
      'after',
      '\nWith --data-dir or --database-url (or no key at all, or a public one), the link is made on the database, for --project.\n' +
        'With a secret key (--api-key, FEEDBACK_API_KEY or `feedback login`), the server makes it, for the key\'s project.\n' +
        'The link is on --url, or on --public-url (FEEDBACK_PUBLIC_URL) when given. --json prints {"url", "expiresAt"} and opens nothing.',
    );
  addDatabaseOptions(command);
  addApiOptions(command).action(async (flags: OpenFlags, self: Command) => {
    const api = apiFlags(self);
    // The link is for a browser: on the public origin when the server has one (serve answers its pages for no other host).
    const base = flags.publicUrl?.trim() ? serverUrl({ ...api, url: flags.publicUrl }) : serverUrl(api);
    const databaseNamed = ['dataDir', 'databaseUrl'].some((name) => ['cli', 'env'].includes(self.getOptionValueSource(name) ?? ''));
    const publicKey = api.apiKey?.startsWith(PUBLIC_KEY_PREFIX) === true;
    const onDatabase = databaseNamed || api.apiKey === undefined || publicKey;
    if (!onDatabase && self.getOptionValueSource('project') === 'cli') {
      throw new CliError('--project applies on the database (--data-dir, --database-url); a secret key signs in to its own project', EXIT.usage);
    }
    const name = await memberName(flags.name);
    if (publicKey && !databaseNamed) await refuseWithoutDatabase(flags.dataDir);
    const link = onDatabase
      ? await withDatabase(databaseLocation(flags), async (orm, server) =>
          server.createSignInLink(orm.em.fork(), { projectSlug: flags.project }, { name }).catch((error: unknown) => {
            if (error instanceof server.ProjectNotFoundError) throw new CliError(error.message, EXIT.notFound);
            throw error;
          }),
        )
      : await withClient(api, (client) => client.admin.signInLink({ name }));
    const url = base + link.path;
    if (api.json) return printJson(output, { url, expiresAt: link.expiresAt });
    output.out(url);
    output.err(`This link signs in once, until ${formatTime(link.expiresAt)}. Run \`feedback open\` again for another.`);
    if (!flags.print) openInBrowser(url);
  });
  return command;
}

/**
 * With a public key and no database named, the default data directory is the last way left: when
 * it holds no database, one line says both ways to a link, instead of the missing database's
 * message, which says nothing about keys.
 */
async function refuseWithoutDatabase(dataDir: string): Promise<void> {
  const { embeddedDatabaseExists } = await import('@feedbackd/server');
  if (embeddedDatabaseExists(dataDir)) return;
  throw new CliError(
    `a public key (${PUBLIC_KEY_PREFIX}) cannot make a sign-in link, and there is no feedback database in ${resolve(dataDir)}: ` +
      'run `feedback open` where the server keeps its data (or give --data-dir or --database-url), ' +
      'or with a secret key in FEEDBACK_API_KEY (`feedback keys create --secret` makes one)',
    EXIT.auth,
  );
}

/**
 * `--name` checked by the contract's schema, so the database way refuses what the server would.
 * The contract (zod) is loaded here, when the command runs, not when the CLI starts.
 */
async function memberName(name: string | undefined): Promise<string | undefined> {
  if (name === undefined) return undefined;
  const { TeamMemberNameSchema } = await import('@feedbackd/sdk/contract');
  const parsed = TeamMemberNameSchema.safeParse(name);
  if (!parsed.success) throw new CliError(`--name: ${parsed.error.issues[0]?.message ?? 'not a name'}`, EXIT.usage);
  return parsed.data;
}

/**
 * Hands the link to the desktop's opener, where there is a desktop: `open` on macOS, `start` on
 * Windows, `xdg-open` on Linux and the BSDs when a display is set (without one, xdg-open may start
 * a text browser in this terminal). A missing opener or a failure changes nothing: the link is
 * printed already.
 */
function openInBrowser(url: string): void {
  const platform = process.platform;
  if (platform !== 'darwin' && platform !== 'win32' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return;
  const [command, args] = platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No opener: the printed link is the way in.
  }
}
