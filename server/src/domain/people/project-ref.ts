import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureProject } from '../projects/projects.service.js';

/** Whose end user: the key's project (the API), or a project named by its slug (the CLI's `--project`). */
export type ProjectRef = { projectId: string } | { projectSlug: string };

/** The project's id; ProjectNotFoundError for a slug no project has. */
export async function projectIdOf(em: EntityManager, project: ProjectRef): Promise<string> {
  return 'projectId' in project ? project.projectId : (await ensureProject(em, project.projectSlug)).project.id;
}
