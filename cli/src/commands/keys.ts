import { Command, Option } from 'commander';
import type { ApiKeySummary } from '@feedbackd/server';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import { withDatabase, type ServerModule } from '../operator.js';
import { printJson, printTable, type Output } from '../output.js';

interface KeyFlags extends DatabaseFlags {
  json?: boolean;
}

export function keysCommand(output: Output): Command {
  const keys = new Command('keys').description('Create, list and revoke API keys (public pk_, or secret sk_ for the operator commands)');

  const create = new Command('create')
    .description('Mint an API key: public (pk_) by default, secret (sk_) with --secret (shown once: only its hash is stored)')
    .option('--name <name>', 'a label to recognise the key by')
    .option('--secret', 'mint a secret key (sk_), which may also call the operator endpoints (status, comment, merge, delete)')
    .addOption(new Option('--project <slug>', 'project the key belongs to').default('default'))
    .option('--json', 'print {"key": ..., ...} as JSON');
  addDatabaseOptions(create).action(async (flags: KeyFlags & { name?: string; project: string; secret?: boolean }) =>
    withDatabase(databaseLocation(flags), async (orm, server) => {
      const { key, summary } = await server
        .createApiKey(orm.em.fork(), { projectSlug: flags.project, name: flags.name, kind: flags.secret ? 'secret' : 'public' })
        .catch(rethrowAsCliError(server));
      if (flags.json) return printJson(output, { key, ...summary });
      output.out(key);
      output.err('\nThis key is shown only once (only its hash is stored). Send it in the x-api-key header of every API request.');
    }),
  );

  const list = new Command('list').description('List API keys (prefixes only)').option('--json', 'print the keys as a JSON array');
  addDatabaseOptions(list).action(async (flags: KeyFlags) =>
    withDatabase(databaseLocation(flags), async (orm, server) => {
      const rows = await server.listApiKeys(orm.em.fork());
      if (flags.json) return printJson(output, rows);
      printTable(
        output,
        [
          { header: 'ID', value: (row: ApiKeySummary) => row.id },
          { header: 'PREFIX', value: (row: ApiKeySummary) => `${row.prefix}…` },
          { header: 'KIND', value: (row: ApiKeySummary) => row.kind },
          { header: 'NAME', value: (row: ApiKeySummary) => row.name ?? '' },
          { header: 'PROJECT', value: (row: ApiKeySummary) => row.project },
          { header: 'CREATED', value: (row: ApiKeySummary) => row.createdAt },
          { header: 'STATUS', value: (row: ApiKeySummary) => (row.revokedAt ? `revoked ${row.revokedAt}` : 'active') },
        ],
        rows,
      );
    }),
  );

  const revoke = new Command('revoke')
    .description('Revoke a key, given its id (from `keys list`) or the key itself')
    .argument('<id-or-key>', 'key id or the full key')
    .option('--json', 'print the revoked key as JSON');
  addDatabaseOptions(revoke).action(async (idOrKey: string, flags: KeyFlags) =>
    withDatabase(databaseLocation(flags), async (orm, server) => {
      const summary = await server.revokeApiKey(orm.em.fork(), idOrKey).catch(rethrowAsCliError(server));
      if (flags.json) return printJson(output, summary);
      output.out(`revoked ${summary.prefix}… (${summary.id})`);
    }),
  );

  return keys.addCommand(create).addCommand(list).addCommand(revoke);
}

function rethrowAsCliError(server: ServerModule): (error: unknown) => never {
  return (error) => {
    if (error instanceof server.ApiKeyNotFoundError || error instanceof server.ProjectNotFoundError) throw new CliError(error.message, EXIT.notFound);
    throw error;
  };
}
