import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { ApiKey } from './api-key.entity.js';
import { Project } from './project.entity.js';

const p = defineEntity.properties;

/** How a team session was opened: a one-time link (`feedback open`), or a secret key typed into the sign-in form. */
export const TEAM_SESSION_OPENERS = ['link', 'key'] as const;

/**
 * A one-time sign-in link to the team's pages (docs/triage.md): only the SHA-256 of its token is
 * stored. It works once (`usedAt`), until `expiresAt` (10 minutes after it was made). `apiKey` is
 * the secret key that asked for it, or null when the operator made it on the database itself.
 */
export const TeamSignInLink = defineEntity({
  name: 'TeamSignInLink',
  tableName: 'team_sign_in_links',
  indexes: [{ name: 'team_sign_in_links_expires_at_index', properties: ['expiresAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    apiKey: p.manyToOne(ApiKey).nullable().deleteRule('cascade').updateRule('cascade'),
    tokenHash: p.text().unique(),
    /** Who the link is for, if `feedback open --name` said so: its session takes it. */
    name: p.text().nullable(),
    createdAt: p.datetime(3).defaultRaw('now()'),
    expiresAt: p.datetime(3),
    usedAt: p.datetime(3).nullable(),
  },
});

/**
 * A signed-in browser of the team: only the SHA-256 of its cookie's token is stored. It ends on
 * sign-out or by the operator (`endedAt`), after a period without requests (`lastSeenAt`), or
 * when the secret key that opened it (`apiKey`) is revoked.
 */
export const TeamSession = defineEntity({
  name: 'TeamSession',
  tableName: 'team_sessions',
  indexes: [
    { name: 'team_sessions_project_id_index', properties: ['project'] },
    { name: 'team_sessions_api_key_id_index', properties: ['apiKey'] },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('time_ordered_uuid()'),
    project: p.manyToOne(Project).deleteRule('cascade').updateRule('cascade'),
    apiKey: p.manyToOne(ApiKey).nullable().deleteRule('cascade').updateRule('cascade'),
    tokenHash: p.text().unique(),
    /** Who the member said they are (optional): it signs their replies and names them in the status history. */
    name: p.text().nullable(),
    openedWith: p.enum([...TEAM_SESSION_OPENERS]),
    createdAt: p.datetime(3).defaultRaw('now()'),
    lastSeenAt: p.datetime(3).defaultRaw('now()'),
    endedAt: p.datetime(3).nullable(),
  },
});

export type TeamSignInLink = InferEntity<typeof TeamSignInLink>;
export type TeamSession = InferEntity<typeof TeamSession>;
