import { Command, Option } from 'commander';
import type { WidgetSetting } from '@feedbackd/server';
import { addDatabaseOptions, databaseLocation, type DatabaseFlags } from '../database-options.js';
import { CliError, EXIT } from '../exit-codes.js';
import { withDatabase } from '../operator.js';
import { printJson, type Output } from '../output.js';

interface WidgetFlags extends DatabaseFlags {
  project: string;
  origin?: string[];
  json?: boolean;
}

/**
 * `feedback widget on|off`: whether a project's widget (docs/widget.md) answers, and for which host
 * origins. An operator command on the database, like `feedback board embed`: who may frame the
 * panel and talk to it is the operator's decision, not an API key's.
 */
export function widgetCommand(output: Output): Command {
  const widget = new Command('widget').description("A project's embeddable widget (/w/loader.js): on for the host app's origins, or off");
  const on = new Command('on')
    .description('Serve the widget to these host origins (and no other): they may frame its panel and exchange messages with it')
    .option('--origin <origin...>', 'a host origin allowed to show the widget: scheme, host and port, e.g. https://app.example.com (repeatable)');
  const off = new Command('off').description("Stop serving the project's widget: its panel answers 404 and every host origin is forgotten");
  widget.addCommand(widgetAction(on, output, true));
  widget.addCommand(widgetAction(off, output, false));
  return widget;
}

function widgetAction(command: Command, output: Output, enabled: boolean): Command {
  command.addOption(new Option('--project <slug>', 'the project').default('default')).option('--json', "print the widget's settings as JSON");
  return addDatabaseOptions(command).action(async (flags: WidgetFlags) =>
    withDatabase(databaseLocation(flags), async (orm, server) => {
      if (enabled && !flags.origin?.length) throw new CliError('give --origin <origin...>: the host app origins allowed to show the widget', EXIT.usage);
      const setting: WidgetSetting = await server.setWidget(orm.em.fork(), flags.project, enabled, flags.origin ?? []).catch((error: unknown) => {
        if (error instanceof server.ProjectNotFoundError) throw new CliError(error.message, EXIT.notFound);
        if (error instanceof server.InvalidOriginError || error instanceof server.WidgetOriginsMissingError) throw new CliError(error.message, EXIT.usage);
        throw error;
      });
      if (flags.json) return printJson(output, setting);
      output.out(setting.widgetEnabled ? `the widget of ${setting.project} is on for ${setting.origins.join(', ')}: its loader is at ${setting.loaderPath}` : `the widget of ${setting.project} is off`);
    }),
  );
}
