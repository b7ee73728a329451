import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../../db/entities/project.entity.js';
import { normalOrigin } from './board-settings.service.js';
import { ProjectNotFoundError } from './projects.service.js';

/**
 * What an operator decides about a project's widget (docs/widget.md): whether its loader and panel
 * answer, and which host origins may frame the panel and talk to it. The panel reads these through
 * a cache of about a second (web/widget/widget-project.ts), as the board reads its settings.
 */
export interface WidgetSetting {
  project: string;
  widgetEnabled: boolean;
  /** The host origins allowed to frame the panel (frame-ancestors) and exchange messages with it. */
  origins: string[];
  /** Where the loader is served on this server; the host page's script tag points at it. */
  loaderPath: string;
  /** Where the panel is served on this server (the loader frames it). */
  panelPath: string;
}

/** The loader's path: one script for every project (the project is its tag's data-project). */
export const WIDGET_LOADER_PATH = '/w/loader.js';

/**
 * Turns a project's widget on for these host origins (each an exact origin: normalOrigin refuses
 * wildcards and paths), or off. `on` with no origin is refused: a panel no host may frame helps no
 * one. `off` keeps no origins, so turning it on again names them afresh.
 */
export async function setWidget(em: EntityManager, slug: string, enabled: boolean, origins: readonly string[] = []): Promise<WidgetSetting> {
  if (enabled && origins.length === 0) throw new WidgetOriginsMissingError();
  const normal = enabled ? [...new Set(origins.map(normalOrigin))] : [];
  const project = await em.findOne(Project, { slug });
  if (!project) throw new ProjectNotFoundError(slug);
  project.widgetEnabled = enabled;
  project.widgetOrigins = normal;
  await em.flush();
  return widgetSettingOf(project);
}

/** The widget's settings as they are. */
export async function widgetSetting(em: EntityManager, slug: string): Promise<WidgetSetting> {
  const project = await em.findOne(Project, { slug });
  if (!project) throw new ProjectNotFoundError(slug);
  return widgetSettingOf(project);
}

function widgetSettingOf(project: Project): WidgetSetting {
  return {
    project: project.slug,
    widgetEnabled: project.widgetEnabled,
    origins: [...(project.widgetOrigins ?? [])],
    loaderPath: WIDGET_LOADER_PATH,
    panelPath: `/w/${encodeURIComponent(project.slug)}`,
  };
}

export class WidgetOriginsMissingError extends Error {
  constructor() {
    super('give the host app\'s origin: --origin https://app.example.com (repeatable); only those origins may show the widget');
    this.name = 'WidgetOriginsMissingError';
  }
}
