import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../../db/entities/project.entity.js';
import { DEFAULT_PROJECT_SLUG } from '../../serve-defaults.js';

/**
 * Returns the project with this slug. A missing one is created when the slug is `default` (the
 * project of a first start) or when `createAny` says so (the seeder fills a project of any slug,
 * named by it); otherwise it is ProjectNotFoundError. Safe when several processes do it at once:
 * the insert is `on conflict do nothing`, and its voter salt random, as any project's.
 */
export async function ensureProject(
  em: EntityManager,
  slug: string = DEFAULT_PROJECT_SLUG,
  options: { createAny?: boolean } = {},
): Promise<{ project: Project; created: boolean }> {
  if (slug === DEFAULT_PROJECT_SLUG || options.createAny) {
    const inserted = await em
      .getConnection()
      .execute<{ id: string }[]>(
        'insert into projects (slug, name, voter_salt, board_enabled) values (?, ?, ?, ?) on conflict (slug) do nothing returning id',
        // The first start's project shows its board (the quick start opens it in a browser);
        // any other project's board stays off until an operator turns it on (docs/board.md).
        [slug, slug === DEFAULT_PROJECT_SLUG ? 'Default project' : slug, randomBytes(32).toString('base64url'), slug === DEFAULT_PROJECT_SLUG],
      );
    const project = await em.findOneOrFail(Project, { slug });
    return { project, created: inserted.length > 0 };
  }
  const project = await em.findOne(Project, { slug });
  if (!project) throw new ProjectNotFoundError(slug);
  return { project, created: false };
}

/** True when the database holds no project at all (a first start). */
export async function hasNoProjects(em: EntityManager): Promise<boolean> {
  return (await em.count(Project, {})) === 0;
}

export class ProjectNotFoundError extends Error {
  constructor(slug: string) {
    super(`no project has the slug "${slug}"`);
    this.name = 'ProjectNotFoundError';
  }
}
