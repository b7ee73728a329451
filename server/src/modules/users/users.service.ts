import type { EntityManager } from '@mikro-orm/postgresql';
import type { EndUserInputSchema } from '@feedbackd/sdk/contract';
import type { z } from 'zod';
import { EndUser } from '../../db/entities/end-user.entity.js';

type EndUserInput = z.output<typeof EndUserInputSchema>;

/** The fields identify may change; an omitted one keeps its stored value. */
const PROFILE_FIELDS = ['email', 'name', 'avatarUrl', 'metadata'] as const;

/**
 * Creates the end user with this externalId in the project, or updates the fields given. One
 * `insert ... on conflict do update` statement: concurrent identifies of one externalId make one
 * row and never fail on the unique constraint.
 */
export async function identifyEndUser(em: EntityManager, projectId: string, input: EndUserInput): Promise<EndUser> {
  const given = PROFILE_FIELDS.filter((field) => input[field] !== undefined);
  const data = {
    project: projectId,
    externalId: input.externalId,
    ...Object.fromEntries(given.map((field) => [field, input[field]])),
    updatedAt: new Date(),
  };
  return em.upsert(EndUser, data, {
    onConflictFields: ['project', 'externalId'],
    onConflictAction: 'merge',
    // updatedAt is always merged, so the statement always returns the row, even when nothing else changes.
    onConflictMergeFields: [...given, 'updatedAt'],
  });
}
