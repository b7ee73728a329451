import { Command, Option } from 'commander';
import type { SeedSummary } from '@feedbackd/server';
import { wholeNumber } from '../flag-values.js';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import { ensureMigrated, withDatabase } from '../operator.js';
import { exactOutput, printJson, processOutput, type Output } from '../output.js';
import { noProgressBar, terminalProgressBar } from '../progress-bar.js';

interface SeedFlags extends DatabaseFlags {
  count: string;
  project: string;
  seed: string;
  searchMarkers?: boolean;
  json?: boolean;
}

const MAX_COUNT = 100_000_000;
const MAX_SEED = 2_147_483_647;

export function seedCommand(output: Output): Command {
  const command = new Command('seed')
    .description('Fill a project with realistic feedback: items of every type and status, their votes, comments and users (the same --seed gives the same rows)')
    .addOption(new Option('--count <n>', 'number of feedback items to create').default('1000'))
    .addOption(new Option('--project <slug>', 'project to fill (created if it does not exist)').default('default'))
    .addOption(new Option('--seed <n>', 'seed of the generator; seeding again with the same seed adds only what is missing').default('1'))
    .option('--search-markers', 'put search words of known frequency (quokka, axolotl, narwhal) into some descriptions, for benchmarks')
    .option('--json', 'print the summary as JSON');
  addDatabaseOptions(command).action(async (flags: SeedFlags) => {
    const count = wholeNumber(flags.count, '--count', { min: 1, max: MAX_COUNT });
    const seed = wholeNumber(flags.seed, '--seed', { min: 0, max: MAX_SEED });
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/.test(flags.project)) {
      throw new CliError('--project must be 1 to 100 letters, digits, ".", "_" or "-", starting with a letter or digit', EXIT.usage);
    }
    // The bar goes to stderr, and only to a terminal: a log or a pipe gets the summary alone.
    const bar = exactOutput(output) === processOutput && process.stderr.isTTY ? terminalProgressBar(process.stderr) : noProgressBar;
    // Filling a database is this command's job: it may create and migrate one (need 'create').
    await withDatabase(
      databaseLocation(flags),
      async (orm, server) => {
        await ensureMigrated(orm, server, output);
        let summary: SeedSummary;
        try {
          summary = await server.seedProject(orm, {
            count,
            seed,
            project: flags.project,
            searchMarkers: flags.searchMarkers ?? false,
            onProgress: (p) => bar.update(p.done, p.count, `${p.done}/${p.count} items, ${p.rows} rows, ${Math.round(p.rows / Math.max(p.seconds, 0.001))} rows/s`),
          });
        } finally {
          bar.done();
        }
        if (flags.json) return printJson(output, summary);
        output.out(summaryLine(summary));
        if (output.isTty) {
          if (summary.markers.length > 0) output.err(`Search words of known frequency: ${summary.markers.map((m) => `"${m.word}" in ${m.items} items`).join(', ')}.`);
          output.err(`End users: seed-${summary.seed}-user-1 to seed-${summary.seed}-user-${summary.userPool}.`);
          const keys = await server.listApiKeys(orm.em.fork());
          if (!keys.some((key) => key.project === summary.project && key.revokedAt === null)) {
            output.err(`The project has no API key yet: make one with \`feedback keys create --project ${summary.project}\`.`);
          }
        }
      },
      'create',
    );
  });
  return command;
}

/** The one line printed without --json (also what a script or a log gets). */
export function summaryLine(summary: SeedSummary): string {
  const skipped = summary.skippedItems > 0 ? ` (${summary.skippedItems} items of this seed were there already)` : '';
  return (
    `seeded ${summary.items} items, ${summary.votes} votes, ${summary.comments} comments and ${summary.users} users ` +
    `into project ${summary.project} (seed ${summary.seed}) in ${summary.seconds.toFixed(2)} s: ${summary.rowsPerSecond} rows/s${skipped}`
  );
}
