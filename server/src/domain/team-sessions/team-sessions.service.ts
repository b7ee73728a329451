import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ensureProject } from '../projects/projects.service.js';
import { isUuid } from '../../db/uuid.js';
import { LINK_LIFETIME, SESSION_IDLE_TIMEOUT } from './team-sessions.sql.js';

/*
 * The operator's side of the team's sign-in (docs/triage.md): making a one-time link (`feedback
 * open`, on the database or through POST /api/v1/team/sign-in-links with a secret key), listing
 * the sessions and ending them (`feedback sessions`). MikroORM's connection, as every operator
 * service; the pages' per-request look-ups are hot statements (sessions.sql.ts).
 */

/** Where a link signs in: the team's sign-in page, on the server's own address. */
export const SIGN_IN_PATH = '/team/sign-in';

/** A token of a link or a session: 32 random bytes (256 bits), base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The only form in which a link's or a session's token is stored and looked up. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new sign-in link: its path on the server (the token in it is shown once) and when it stops working. */
export interface SignInLink {
  /** `/team/sign-in?token=…`: the caller puts the server's address in front. */
  path: string;
  /** ISO 8601, UTC: 10 minutes after it was made. */
  expiresAt: string;
}

/** Who asks for a link: a project by slug (the operator on the database), or a secret key's project and id. */
export type LinkRequester = { projectSlug: string } | { projectId: string; keyId: string };

/**
 * Makes a one-time sign-in link to the team's pages of a project: usable once, for 10 minutes.
 * Only the SHA-256 of its token is stored. `name`, if given, is who the link is for: its session
 * signs replies and status changes with it. ProjectNotFoundError when no project has the slug.
 */
export async function createSignInLink(em: EntityManager, by: LinkRequester, options: { name?: string | null | undefined } = {}): Promise<SignInLink> {
  const projectId = 'projectId' in by ? by.projectId : (await ensureProject(em, by.projectSlug)).project.id;
  const keyId = 'keyId' in by ? by.keyId : null;
  const token = newToken();
  const [row] = await em.getConnection().execute<{ expires_at: string }[]>(
    `insert into team_sign_in_links (project_id, api_key_id, token_hash, name, expires_at)
     values (?, ?, ?, ?, now() + interval '${LINK_LIFETIME}')
     returning to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at`,
    [projectId, keyId, hashToken(token), options.name ?? null],
  );
  return { path: `${SIGN_IN_PATH}?token=${token}`, expiresAt: row!.expires_at };
}

/** A session as `feedback sessions list` shows it: never its token (which is not stored). */
export interface TeamSessionSummary {
  id: string;
  project: string;
  /** Who the member said they are, or null. */
  name: string | null;
  /** How it was opened: a one-time link, or a secret key in the sign-in form. */
  openedWith: 'link' | 'key';
  /** The prefix of the secret key that opened it (or asked for its link); null when made on the database. */
  keyPrefix: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** `active`, or why it works no more: `signed-out` (or ended by the operator), `idle`, `key-revoked`. */
  state: 'active' | 'ended' | 'idle' | 'key-revoked';
  endedAt: string | null;
}

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The sessions (of one project, or all), newest first; `all` includes those that work no more. */
export async function listTeamSessions(em: EntityManager, options: { projectSlug?: string | undefined; all?: boolean } = {}): Promise<TeamSessionSummary[]> {
  const state = `case when s.ended_at is not null then 'ended'
      when k.revoked_at is not null then 'key-revoked'
      when s.last_seen_at <= now() - interval '${SESSION_IDLE_TIMEOUT}' then 'idle'
      else 'active' end`;
  const rows = await em.getConnection().execute<Record<string, string | null>[]>(
    `select * from (
       select s.id::text as id, p.slug as project, s.name, s.opened_with, k.key_prefix, ${ISO('s.created_at')} as created_at,
              ${ISO('s.last_seen_at')} as last_seen_at, ${ISO('s.ended_at')} as ended_at, ${state} as state
       from team_sessions s join projects p on p.id = s.project_id left join api_keys k on k.id = s.api_key_id
       where (?::text is null or p.slug = ?)
     ) listed where ? or state = 'active'
     order by created_at desc, id desc`,
    [options.projectSlug ?? null, options.projectSlug ?? null, options.all ?? false],
  );
  return rows.map((row) => ({
    id: row.id!,
    project: row.project!,
    name: row.name ?? null,
    openedWith: row.opened_with as 'link' | 'key',
    keyPrefix: row.key_prefix ?? null,
    createdAt: row.created_at!,
    lastSeenAt: row.last_seen_at!,
    state: row.state as TeamSessionSummary['state'],
    endedAt: row.ended_at ?? null,
  }));
}

/**
 * Ends sessions on the server: one by id, or every live one (of a project, or of all). Their
 * cookies work no more from the next request. Returns the ids ended; TeamSessionNotFoundError
 * when an id names no session. Ending an ended session again is harmless.
 */
export async function endTeamSessions(em: EntityManager, which: { id: string } | { all: true; projectSlug?: string | undefined }): Promise<string[]> {
  const connection = em.getConnection();
  if ('id' in which) {
    if (!isUuid(which.id)) throw new TeamSessionNotFoundError(which.id);
    const rows = await connection.execute<{ id: string }[]>(
      `update team_sessions set ended_at = coalesce(ended_at, now()) where id = ? returning id::text`,
      [which.id],
    );
    if (rows.length === 0) throw new TeamSessionNotFoundError(which.id);
    return rows.map((row) => row.id);
  }
  const rows = await connection.execute<{ id: string }[]>(
    `update team_sessions s set ended_at = now() from projects p
     where p.id = s.project_id and s.ended_at is null and (?::text is null or p.slug = ?)
     returning s.id::text`,
    [which.projectSlug ?? null, which.projectSlug ?? null],
  );
  return rows.map((row) => row.id);
}

export class TeamSessionNotFoundError extends Error {
  constructor(id: string) {
    super(`no team session has the id "${id}"`);
    this.name = 'TeamSessionNotFoundError';
  }
}
