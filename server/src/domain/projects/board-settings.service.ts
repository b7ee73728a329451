import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BOARD_LOCALES, type BoardSettings, type ModerationMode } from '@feedbackd/sdk/contract';
import { boardPaths } from '../../board-paths.js';
import { Project } from '../../db/entities/project.entity.js';
import { exactOrigin } from '../../origins.js';
import { ProjectNotFoundError } from './projects.service.js';
import { darkThemeAccent } from './brand/accent.js';
import type { LogoType } from './brand/logo.js';

/**
 * What an operator decides about a project's public board (docs/board.md): whether it is served,
 * whether it takes the host app's signed visitors, and who may frame it. The pages read these
 * settings through a cache of about a second (web/board/projects.ts), so a running server follows
 * a change within that.
 */
export type BoardSetting = BoardSettings;

/** Whose board: a project's slug (the CLI's --project), or its id (an API key's project). */
export type BoardOf = string | { id: string };

/** The board's settings as they are. */
export async function boardSetting(em: EntityManager, which: BoardOf): Promise<BoardSetting> {
  return change(em, which, () => {});
}

/** Turns a project's public board and roadmap on or off. */
export async function setBoardEnabled(em: EntityManager, slug: string, enabled: boolean): Promise<BoardSetting> {
  return change(em, slug, (project) => {
    project.boardEnabled = enabled;
  });
}

/** The identity secret just made: shown once, to be given to the host app's backend. */
export interface IdentitySecret extends BoardSetting {
  secret: string;
}

/** What `feedback board secret` does: make the first secret, replace it, or remove it. */
export type IdentitySecretAction = 'create' | 'rotate' | 'remove';

/**
 * Makes, replaces or removes the project's identity secret. `create` refuses to replace one (an
 * operator who means to must say `rotate`, which ends every visitor's session at once: their
 * cookies are signed with a key derived from it). `remove` turns identified visits off.
 */
export async function changeIdentitySecret(em: EntityManager, slug: string, action: IdentitySecretAction): Promise<IdentitySecret | BoardSetting> {
  const project = await em.findOne(Project, { slug }, { populate: ['identitySecret'] });
  if (!project) throw new ProjectNotFoundError(slug);
  if (action === 'create' && project.identitySecret) throw new IdentitySecretExistsError(slug);
  if (action === 'remove') {
    project.identitySecret = null;
    await em.flush();
    return settingOf(project);
  }
  // 32 random bytes, as a webhook secret: more than HS256's 256 bits of key need.
  const secret = `bis_${randomBytes(32).toString('base64url')}`;
  project.identitySecret = secret;
  await em.flush();
  return { ...settingOf(project), secret };
}

/**
 * The origins allowed to frame the board (none: every frame refused). Each is a scheme, host and
 * port as a browser names an origin (`https://app.example.com`); anything else is InvalidOriginError.
 */
export async function setBoardFrameOrigins(em: EntityManager, slug: string, origins: readonly string[]): Promise<BoardSetting> {
  const normal = [...new Set(origins.map(normalOrigin))];
  return change(em, slug, (project) => {
    project.boardFrameOrigins = normal;
  });
}

/**
 * An origin as CSP's frame-ancestors takes it: http(s), an exact host, maybe a port; nothing more
 * (origins.ts). A wildcard (`https://*`, `https://*.com`) would let every site, or a whole
 * domain of strangers, frame the board: refused like any other text that is not one origin.
 */
export function normalOrigin(given: string): string {
  const origin = exactOrigin(given);
  if (origin === undefined) throw new InvalidOriginError(given);
  return origin;
}

/** Allows or refuses anonymous comments (without `endUser`) through the project's public keys (docs/api.md, "Comments"). */
export async function setAnonymousComments(em: EntityManager, which: BoardOf, allowed: boolean): Promise<BoardSetting> {
  return change(em, which, (project) => {
    project.anonymousComments = allowed;
  });
}

/**
 * Whose posts wait for the team (docs/moderation.md), and whether any post with a link does;
 * `holdLinks` left out keeps its value. The API reads the setting through its key cache and the
 * board through its settings cache, both of about a second.
 */
export async function setModeration(em: EntityManager, which: BoardOf, mode: ModerationMode | undefined, holdLinks?: boolean): Promise<BoardSetting> {
  return change(em, which, (project) => {
    if (mode !== undefined) project.moderation = mode;
    if (holdLinks !== undefined) project.moderationHoldLinks = holdLinks;
  });
}

/** Loads the project (its lazy `logo` too when `withLogo`, so that a change of it is seen), applies the change, flushes. */
export async function change(em: EntityManager, which: BoardOf, apply: (project: Project) => void, withLogo = false): Promise<BoardSetting> {
  const where = typeof which === 'string' ? { slug: which } : which;
  const project = await em.findOne(Project, where, { populate: withLogo ? ['identitySecret', 'boardLogo'] : ['identitySecret'] });
  if (!project) throw new ProjectNotFoundError(typeof which === 'string' ? which : which.id);
  apply(project);
  await em.flush();
  return settingOf(project);
}

export function settingOf(project: Project): BoardSetting {
  const path = boardPaths.board(project.slug);
  const accent = project.boardAccent ?? null;
  return {
    project: project.slug,
    boardEnabled: project.boardEnabled,
    path,
    identifiedVisitors: Boolean(project.identitySecret),
    frameOrigins: [...(project.boardFrameOrigins ?? [])],
    name: project.name,
    description: project.boardDescription ?? null,
    accent,
    darkAccent: accent === null ? null : darkThemeAccent(accent),
    defaultSort: project.boardDefaultSort ?? null,
    // A language this version no longer offers (a row written by a newer one) reads as none.
    locale: BOARD_LOCALES.find((locale) => locale === project.boardLocale) ?? null,
    anonymousComments: project.anonymousComments,
    moderation: project.moderation,
    moderationHoldLinks: project.moderationHoldLinks,
    logo: project.boardLogoHash ? { path: boardPaths.logo(project.slug, project.boardLogoHash), type: project.boardLogoType as LogoType, width: project.boardLogoWidth!, height: project.boardLogoHeight! } : null,
  };
}

export class IdentitySecretExistsError extends Error {
  constructor(slug: string) {
    super(`the project "${slug}" has an identity secret already; \`feedback board secret rotate\` replaces it (and signs every visitor out)`);
    this.name = 'IdentitySecretExistsError';
  }
}

export class InvalidOriginError extends Error {
  constructor(given: string) {
    super(`"${given}" is not an origin: give http:// or https://, one exact host (no wildcard such as * or *.example.com), and a port if not the usual one (https://app.example.com), with no path`);
    this.name = 'InvalidOriginError';
  }
}
