import { fstatSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Command } from 'commander';
import type { ImportSummary } from '@feedbackd/server';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { describeCounts } from '../dump-io.js';
import { CliError, EXIT } from '../exit-codes.js';
import { ensureMigrated, withDatabase, type ServerModule } from '../operator.js';
import { exactOutput, printJson, processOutput, type Output } from '../output.js';
import { noProgressBar, terminalProgressBar } from '../progress-bar.js';

interface ImportFlags extends DatabaseFlags {
  project?: string;
  json?: boolean;
}

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export function importCommand(output: Output): Command {
  const command = new Command('import')
    .description('Load a dump of `feedback export` in one transaction; rows already here are left alone, so a second run changes nothing (docs/transfer.md)')
    .argument('<file>', 'the dump, or - for stdin')
    .option('--project <slug>', "import the dump's one project under this slug (created if it does not exist)")
    .option('--json', 'print the summary as JSON');
  addDatabaseOptions(command).action(async (file: string, flags: ImportFlags) => {
    if (flags.project !== undefined && !SLUG.test(flags.project)) {
      throw new CliError('--project must be 1 to 100 letters, digits, ".", "_" or "-", starting with a letter or digit', EXIT.usage);
    }
    const server = await import('@feedbackd/server');
    const input = await openInput(file);
    try {
      // The file and its header are checked before the database is opened: a wrong path or a file
      // that is not a dump must not leave an empty database behind.
      const lines = server.dumpLines(input.stream)[Symbol.asyncIterator]();
      const first = await lines.next();
      if (first.done) throw new CliError(`${file} is empty: not a dump of \`feedback export\``, EXIT.usage);
      checkHeader(server, file, first.value);
      const bar = exactOutput(output) === processOutput && process.stderr.isTTY ? terminalProgressBar(process.stderr) : noProgressBar;
      const location = databaseLocation(flags);
      await withDatabase(
        location,
        async (orm) => {
          await ensureMigrated(orm, server, output);
          let summary: ImportSummary;
          try {
            summary = await server.importDump(orm, prepend(first.value, lines), {
              project: flags.project,
              // A pipe may be fed by a command that needs this database (`feedback export | feedback
              // import -`): read it to its end before the transaction begins (docs/transfer.md).
              spoolInput: !input.regularFile,
              // Only a dump of an older server needs it: its anonymous voters are re-keyed as this server keys them.
              voterSecret: () => server.voterSecretOf(orm, location),
              onProgress: (p) => bar.update(p.done, p.total, `${p.done}/${p.total} records, ${Math.round(p.done / Math.max(p.seconds, 0.001))} records/s`),
            });
          } catch (error) {
            if (error instanceof server.DumpFormatError) throw new CliError(`${file}: ${error.message}; nothing was imported`, EXIT.usage);
            if (error instanceof server.ImportConflictError) throw new CliError(error.message, EXIT.error);
            throw error;
          } finally {
            bar.done();
          }
          if (flags.json) printJson(output, summary);
          else output.out(summaryLine(summary));
          for (const project of summary.projects.filter((p) => p.voterSalt === 'kept')) {
            output.err(
              `note: project ${project.slug} kept its own voter salt (it has anonymous votes of its own): anonymous voters of the dump count as new voters if they vote again on its items`,
            );
          }
        },
        // Filling a database is import's job: it may create one, migrated first as serve would.
        'create',
      );
    } catch (error) {
      // A writer still feeding the pipe must not keep this process alive after a failure.
      if (file === '-') process.stdin.destroy();
      throw error;
    } finally {
      if (file !== '-') input.stream.destroy();
    }
  });
  return command;
}

/** The dump to read, and whether it is a regular file (which never waits on anyone, unlike a pipe). */
async function openInput(file: string): Promise<{ stream: Readable; regularFile: boolean }> {
  if (file === '-') return { stream: process.stdin, regularFile: fstatSync(0).isFile() };
  try {
    const handle = await open(file, 'r');
    return { stream: handle.createReadStream(), regularFile: (await handle.stat()).isFile() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`, code === 'ENOENT' ? EXIT.notFound : EXIT.error);
  }
}

function checkHeader(server: ServerModule, file: string, line: string): void {
  try {
    server.parseDumpHeader(line);
  } catch (error) {
    if (error instanceof server.DumpFormatError) throw new CliError(`${file}: ${error.message}; nothing was imported`, EXIT.usage);
    throw error;
  }
}

async function* prepend(first: string, rest: AsyncIterator<string>): AsyncIterable<string> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/** The one line printed without --json. */
export function summaryLine(summary: ImportSummary): string {
  const added = Object.values(summary.inserted).reduce((sum, n) => sum + n, 0);
  const read = Object.values(summary.records).reduce((sum, n) => sum + n, 0);
  const into = summary.projects.map((p) => (p.slug === p.from ? p.slug : `${p.from} as ${p.slug}`)).join(', ');
  return (
    `imported ${describeCounts(summary.records)} into ${into || 'no project'} in ${summary.seconds.toFixed(2)} s: ` +
    `${summary.recordsPerSecond} records/s; ${added} rows added, ${read - added} already there`
  );
}
