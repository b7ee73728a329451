import { Command, Option } from 'commander';
import type { ExportSummary } from '@feedbackd/server';
import { wholeNumber } from '../flag-values.js';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { describeCounts, exportTime, fileSink, outputSink, streamSink, type DumpSink } from '../dump-io.js';
import { CliError, EXIT } from '../exit-codes.js';
import { withDatabase } from '../operator.js';
import { exactOutput, processOutput, type Output } from '../output.js';
import { noProgressBar, terminalProgressBar } from '../progress-bar.js';

interface ExportFlags extends DatabaseFlags {
  project?: string;
  output?: string;
  pageSize: string;
  json?: boolean;
}

const MAX_PAGE_SIZE = 100_000;

export function exportCommand(output: Output): Command {
  const command = new Command('export')
    .description('Write every project, or one, as JSON Lines: users, items, votes, comments and status history, ids and timestamps kept (docs/transfer.md)')
    .option('--project <slug>', 'export this project only')
    .option('-o, --output <file>', 'write the dump to this file (replaced only once the dump is complete) instead of stdout')
    .addOption(new Option('--page-size <rows>', 'rows read from the database per round trip').default('2000'))
    .option('--json', 'print the summary as JSON (on stderr when the dump goes to stdout)');
  addDatabaseOptions(command).action(async (flags: ExportFlags) => {
    const exportedAt = exportTime();
    const pageSize = wholeNumber(flags.pageSize, '--page-size', { min: 1, max: MAX_PAGE_SIZE });
    await withDatabase(databaseLocation(flags), async (orm, server) => {
      const sink: DumpSink = flags.output ? await fileSink(flags.output) : exactOutput(output) === processOutput ? streamSink(process.stdout) : outputSink(output);
      // The bar goes to stderr, and only to a terminal: a log or a pipe gets the summary alone.
      const bar = exactOutput(output) === processOutput && process.stderr.isTTY ? terminalProgressBar(process.stderr) : noProgressBar;
      let summary: ExportSummary;
      try {
        summary = await server.exportDump(orm, (chunk) => sink.write(chunk), {
          project: flags.project,
          exportedAt,
          pageSize,
          onProgress: (p) => bar.update(p.done, p.total, `${p.done}/${p.total} records, ${Math.round(p.done / Math.max(p.seconds, 0.001))} records/s`),
        });
        await sink.finish();
      } catch (error) {
        await sink.abort();
        if (error instanceof server.ProjectNotFoundError) throw new CliError(error.message, EXIT.notFound);
        throw error;
      } finally {
        bar.done();
      }
      // stdout carries the dump unless it went to a file: the summary then goes to stderr.
      const say = flags.output ? (text: string) => output.out(text) : (text: string) => output.err(text);
      say(flags.json ? JSON.stringify(summary, null, 2) : summaryLine(summary, flags.output));
    });
  });
  return command;
}

/** The one line printed without --json. */
export function summaryLine(summary: ExportSummary, file: string | undefined): string {
  const what = summary.project === null ? 'every project' : `project ${summary.project}`;
  return (
    `exported ${what} (${describeCounts(summary.counts)}) to ${file ?? 'stdout'} ` +
    `in ${summary.seconds.toFixed(2)} s: ${summary.recordsPerSecond} records/s`
  );
}
