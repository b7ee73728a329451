import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../db/entities/project.entity.js';

export const DEFAULT_PROJECT_SLUG = 'default';

/**
 * Returns the project with this slug, creating it when the slug is `default` and it does not
 * exist yet. Safe when several processes start at once: the insert is `on conflict do nothing`.
 */
export async function ensureProject(em: EntityManager, slug: string = DEFAULT_PROJECT_SLUG): Promise<{ project: Project; created: boolean }> {
  if (slug === DEFAULT_PROJECT_SLUG) {
    const inserted = await em
      .getConnection()
      .execute<{ id: string }[]>(
        'insert into projects (slug, name, voter_salt) values (?, ?, ?) on conflict (slug) do nothing returning id',
        [slug, 'Default project', randomBytes(32).toString('base64url')],
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
