import type { EntityManager } from '@mikro-orm/postgresql';
import { isUuid } from '../../db/uuid.js';
import { ensureProject } from './projects.service.js';
import { ApiKey } from '../../db/entities/api-key.entity.js';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey, type KeyKind } from './api-key-format.js';

/** A key as listings show it (never the key itself, which is not stored). */
export interface ApiKeySummary {
  id: string;
  name: string | null;
  prefix: string;
  /** `public` (pk_) or `secret` (sk_). */
  kind: KeyKind;
  project: string;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * Mints a key for a project (the default project, created when missing): public unless `kind` is
 * `secret`. The key is returned once.
 */
export async function createApiKey(
  em: EntityManager,
  options: { projectSlug?: string | undefined; name?: string | undefined; kind?: KeyKind | undefined } = {},
): Promise<{ key: string; summary: ApiKeySummary }> {
  const { project } = await ensureProject(em, options.projectSlug);
  const kind = options.kind ?? 'public';
  const key = generateApiKey(kind);
  const apiKey = em.create(ApiKey, {
    project,
    name: options.name ?? null,
    keyHash: hashApiKey(key),
    keyPrefix: displayPrefix(key),
    kind,
  });
  await em.flush();
  await em.refresh(apiKey);
  return { key, summary: summarize(apiKey, project.slug) };
}

export async function listApiKeys(em: EntityManager): Promise<ApiKeySummary[]> {
  const keys = await em.find(ApiKey, {}, { populate: ['project'], orderBy: { createdAt: 'asc', id: 'asc' } });
  return keys.map((key) => summarize(key, key.project.slug));
}

/** Revokes a key given its id or the key itself. Revoking twice is harmless. */
export async function revokeApiKey(em: EntityManager, idOrKey: string): Promise<ApiKeySummary> {
  const where = looksLikeApiKey(idOrKey) ? { keyHash: hashApiKey(idOrKey) } : isUuid(idOrKey) ? { id: idOrKey } : undefined;
  const apiKey = where ? await em.findOne(ApiKey, where, { populate: ['project'] }) : null;
  if (!apiKey) throw new ApiKeyNotFoundError(idOrKey);
  apiKey.revokedAt ??= new Date();
  await em.flush();
  return summarize(apiKey, apiKey.project.slug);
}

export class ApiKeyNotFoundError extends Error {
  constructor(idOrKey: string) {
    // Anything that starts like a key is cut to its prefix: the message must not print a secret.
    super(`no API key matches "${/^[ps]k_/.test(idOrKey) ? displayPrefix(idOrKey) + '…' : idOrKey}"`);
    this.name = 'ApiKeyNotFoundError';
  }
}

function summarize(key: ApiKey, project: string): ApiKeySummary {
  return {
    id: key.id,
    name: key.name ?? null,
    prefix: key.keyPrefix,
    kind: key.kind,
    project,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt ? key.revokedAt.toISOString() : null,
  };
}

