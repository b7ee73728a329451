import type { Statement } from '../../db/pool.js';

/*
 * The team's sign-in and session statements (docs/triage.md). Hot side: parameterised SQL on the
 * pool, one round trip each, because the session is looked up on every team request. Tokens
 * reach these statements only as their SHA-256 (hex), never as themselves.
 */

/** How long a sign-in link works after it was made. */
export const LINK_LIFETIME = '10 minutes';

/**
 * How long a session lives without a request. Seen by the look-up itself, so an idle session is
 * refused at once, whether or not anything has swept it.
 */
export const SESSION_IDLE_TIMEOUT = '8 hours';

/**
 * Uses the link whose token hashes to $1: marked used by the very statement that checks that it
 * is unused and unexpired, so two concurrent uses cannot both succeed (the second finds
 * `used_at` set once the first commits). A link asked for by a key that has been revoked since
 * works no more. The session is opened in the same statement: a used link always has its session.
 * $2 is the new session's token hash. No row: the link is unknown, used or expired.
 */
export const USE_LINK: Statement = {
  name: 'team_use_link',
  text: `with used as (
      update team_sign_in_links l set used_at = now()
      where l.token_hash = $1 and l.used_at is null and l.expires_at > now()
        and (l.api_key_id is null or exists (select 1 from api_keys k where k.id = l.api_key_id and k.revoked_at is null))
      returning l.project_id, l.api_key_id, l.name
    )
    insert into team_sessions (project_id, api_key_id, token_hash, name, opened_with)
    select project_id, api_key_id, $2, name, 'link' from used
    returning id::text`,
};

/** Why a link did not work, asked only after it did not (for the page that says so). $1 token hash. */
export const LINK_STATE: Statement = {
  name: 'team_link_state',
  text: `select used_at is not null as used, expires_at <= now() as expired from team_sign_in_links where token_hash = $1`,
};

/**
 * Opens a session with a secret key typed into the sign-in form: the key whose hash is $1, if it
 * is a secret key and not revoked; $2 is the new session's token hash. One statement, so the key
 * cannot be revoked between the check and the insert. $3 is the name the member gave, or null.
 * No row: no such key (or not a secret one).
 */
export const OPEN_WITH_KEY: Statement = {
  name: 'team_open_with_key',
  text: `insert into team_sessions (project_id, api_key_id, token_hash, name, opened_with)
    select k.project_id, k.id, $2, $3, 'key' from api_keys k
    where k.key_hash = $1 and k.kind = 'secret' and k.revoked_at is null
    returning id::text`,
};

/**
 * The session whose token hashes to $1, with its project, if it is live: not ended, seen within
 * the idle timeout, and its key (if any) not revoked, all in this one statement. It also records
 * that the session was seen, at most once a minute (a write per request would cost every page
 * a row update and its WAL).
 */
export const FIND_SESSION: Statement = {
  name: 'team_find_session',
  text: `with live as (
      select s.id, s.api_key_id, s.name, s.last_seen_at, p.id as project_id, p.slug, p.name as project_name, p.board_enabled, p.board_locale
      from team_sessions s
      join projects p on p.id = s.project_id
      left join api_keys k on k.id = s.api_key_id
      where s.token_hash = $1 and s.ended_at is null
        and s.last_seen_at > now() - interval '${SESSION_IDLE_TIMEOUT}'
        and (s.api_key_id is null or k.revoked_at is null)
    ), seen as (
      update team_sessions t set last_seen_at = now()
      from live where t.id = live.id and live.last_seen_at < now() - interval '1 minute'
      returning t.id
    )
    select id::text, api_key_id::text, name as member, project_id::text, slug, project_name, board_enabled, board_locale from live`,
};

/** Ends the session whose token hashes to $1 (sign-out). Ending one twice is harmless. */
export const END_SESSION: Statement = {
  name: 'team_end_session',
  text: `update team_sessions set ended_at = coalesce(ended_at, now()) where token_hash = $1`,
};

/**
 * What the machine's jobs delete (jobs/machine-jobs.ts), hourly: links a day past their expiry
 * (used or not: they can never work again), and sessions that have not worked for 30 days (ended,
 * or idle since: a session of a revoked key stops being seen, so it goes too). Until then
 * `feedback sessions list --all` shows them.
 */
export const PRUNE_LINKS = `delete from team_sign_in_links where expires_at < now() - interval '1 day'`;
export const PRUNE_SESSIONS = `delete from team_sessions where coalesce(ended_at, last_seen_at) < now() - interval '30 days'`;
