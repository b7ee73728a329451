import { createHmac } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Who casts or checks a vote. Stored as one non-null `voter_key`: an identified end user's id, or
 * for an anonymous caller an HMAC of the IP under the project's salt, so the raw address is never
 * stored and the same caller always maps to the same key.
 */
export type Voter = { kind: 'user'; endUserId: string } | { kind: 'anonymous'; ip: string };

/** The project salts never change once made, so each is read from the database once per process. */
const saltCache = new Map<string, string>();

/** The `voter_key` of a voter in a project. */
export async function voterKey(em: EntityManager, projectId: string, voter: Voter): Promise<string> {
  if (voter.kind === 'user') return voter.endUserId;
  const salt = await projectSalt(em, projectId);
  // The `ip:` prefix keeps the two kinds of key apart even in principle (a user key is a uuid).
  return `ip:${createHmac('sha256', salt).update(voter.ip).digest('base64url')}`;
}

async function projectSalt(em: EntityManager, projectId: string): Promise<string> {
  const cached = saltCache.get(projectId);
  if (cached) return cached;
  const rows = await em.execute<{ voter_salt: string }[]>('select voter_salt from projects where id = ?', [projectId]);
  const salt = rows[0]?.voter_salt;
  if (!salt) throw new Error(`project ${projectId} has no voter salt`);
  saltCache.set(projectId, salt);
  return salt;
}
