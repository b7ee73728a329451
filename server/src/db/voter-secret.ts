import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { DatabaseLocation } from './database.js';
import { ormConnection } from './orm-connections.js';

/*
 * The server's voter secret (docs/operations.md, "Anonymous voters"): the key that, with a
 * project's voter salt, turns an address into an anonymous voter's key. The salt is in the
 * database and in every dump; the secret is not, so neither a dump nor the salt can be used to
 * try every IPv4 address against the stored keys. It is read once per process and held in memory.
 *
 * Where it lives, first match:
 * - FEEDBACK_VOTER_SECRET (the same value on every machine that serves one PostgreSQL database);
 * - the file `voter-secret` of the embedded database's data directory, beside `pgdata/` (made once,
 *   0600);
 * - on PostgreSQL without the variable, the `voter_secret` table, made once (never exported, but
 *   in a backup of the database: the variable keeps it out).
 * The table always holds the secret's fingerprint, so a process given another secret (a lost
 * file, a variable set on one machine only) refuses to start rather than count voters twice.
 */

export const VOTER_SECRET_VARIABLE = 'FEEDBACK_VOTER_SECRET';
export const VOTER_SECRET_FILE = 'voter-secret';
/** Shortest secret taken from the variable: 32 characters of `openssl rand -base64 32` are 192 bits and more. */
const MIN_SECRET_LENGTH = 32;

/** The voter secret is missing or not the one this database's anonymous voters were keyed with. */
export class VoterSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VoterSecretError';
  }
}

/** A fingerprint that tells secrets apart and says nothing of them. */
function fingerprintOf(secret: string): string {
  return createHmac('sha256', secret).update('feedback voter secret fingerprint v1').digest('base64url');
}

/** A connection that runs one statement with $n parameters (node-postgres's client or pool). */
export interface Queryable {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** The voter secret of the database `db` reaches, at `location`; made on the first call (docs above). */
export async function loadVoterSecret(db: Queryable, location: DatabaseLocation, environment: NodeJS.ProcessEnv = process.env): Promise<Buffer> {
  const given = environment[VOTER_SECRET_VARIABLE]?.trim() || undefined;
  if (given !== undefined && given.length < MIN_SECRET_LENGTH) {
    throw new VoterSecretError(`${VOTER_SECRET_VARIABLE} must be at least ${MIN_SECRET_LENGTH} characters (make one with \`openssl rand -base64 32\`)`);
  }
  const file = location.databaseUrl ? undefined : join(location.dataDir, VOTER_SECRET_FILE);
  const read = async () => (await db.query<{ fingerprint: string; secret: string | null }>('select fingerprint, secret from voter_secret where id = 1')).rows[0];
  let row = await read();
  let candidate = given ?? (file === undefined ? undefined : await readSecretFile(file, row === undefined));
  if (!row) {
    const made = candidate ?? randomBytes(32).toString('base64url');
    // Kept in the table only when it lives nowhere else (PostgreSQL without the variable).
    await db.query('insert into voter_secret (id, fingerprint, secret) values (1, $1, $2) on conflict (id) do nothing', [fingerprintOf(made), candidate === undefined ? made : null]);
    row = (await read())!;
  }
  const where = given !== undefined ? VOTER_SECRET_VARIABLE : file !== undefined ? file : 'the voter_secret table';
  if (candidate === undefined) {
    if (row.secret === null) {
      throw new VoterSecretError(
        file === undefined
          ? `this database's anonymous voters were keyed with ${VOTER_SECRET_VARIABLE}, which is not set: set it to the same value`
          : `the voter secret file ${file} is missing: restore the one this database's anonymous voters were keyed with, or set ${VOTER_SECRET_VARIABLE} to it (docs/operations.md, "Anonymous voters")`,
      );
    }
    candidate = row.secret;
  }
  if (fingerprintOf(candidate) !== row.fingerprint) {
    throw new VoterSecretError(
      `the voter secret in ${where} is not the one this database's anonymous voters were keyed with: restore the one it had (docs/operations.md, "Anonymous voters")`,
    );
  }
  // The operator has moved the secret out of the database (into the variable): it forgets it.
  if (given !== undefined && row.secret !== null) await db.query('update voter_secret set secret = null where id = 1');
  return Buffer.from(candidate);
}

/** loadVoterSecret on a connection of the ORM's pool, for the operator's commands (`feedback import`). */
export async function voterSecretOf(orm: MikroORM, location: DatabaseLocation, environment: NodeJS.ProcessEnv = process.env): Promise<Buffer> {
  const client = await ormConnection(orm);
  try {
    return await loadVoterSecret(client, location, environment);
  } finally {
    client.release();
  }
}

/** The file's secret; made (0600, never over another) when `create` and it does not exist yet. */
async function readSecretFile(file: string, create: boolean): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (!create) return undefined;
  const secret = randomBytes(32).toString('base64url');
  try {
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process made it first: theirs it is.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim();
    throw error;
  }
}

/**
 * An anonymous voter's key: `ip2:` and HMAC(secret, HMAC(salt, address)). The API and the board
 * ask for it through domain/votes/votes.ts (voterKeyOf), which keeps the keys it made lately.
 */
export function hashVoterKey(secret: Buffer, voterSalt: string, ip: string): string {
  return rekeyed(secret, createHmac('sha256', voterSalt).update(ip).digest());
}

/** A key of an older server or dump (`ip:` and HMAC(salt, address) in base64url). */
export const LEGACY_VOTER_KEY = /^ip:[A-Za-z0-9_-]{43}$/;

/** A legacy key as this server keys its voter: the same as hashVoterKey for the same address and salt. */
export function rekeyLegacyVoterKey(secret: Buffer, legacyKey: string): string {
  return rekeyed(secret, Buffer.from(legacyKey.slice(3), 'base64url'));
}

function rekeyed(secret: Buffer, salted: Buffer): string {
  return `ip2:${createHmac('sha256', secret).update(salted).digest('base64url')}`;
}

/**
 * Anonymous voters' keys made before the voter secret (`ip:` and an HMAC of the address under the
 * project's salt, from an older server or an older dump) re-keyed as the server keys them now:
 * `ip2:` and an HMAC of that HMAC under the secret (domain/votes/votes.ts, voterKeyOf), so their voters
 * are still recognised and the salt alone reverses nothing. The HMAC is taken in SQL from the
 * secret's inner and outer pads (RFC 2104), with the database's sha256(): the secret itself is
 * never sent. A voter with both keys on one item (a vote through a server of this version while
 * an older one still ran) keeps one vote, and the item's count loses the other. In batches, in
 * the caller's transaction if it has one. Returns the keys changed.
 */
export async function rekeyLegacyVoters(db: Queryable, secret: Buffer): Promise<number> {
  const key = Buffer.alloc(64);
  (secret.length > 64 ? createHash('sha256').update(secret).digest() : secret).copy(key);
  const pad = (byte: number) => Buffer.from(key.map((b) => b ^ byte));
  let total = 0;
  for (;;) {
    const [row] = (await db.query<{ rekeyed: number; doubled: number }>(REKEY_LEGACY_VOTERS, [pad(0x36), pad(0x5c)])).rows;
    const changed = (row?.rekeyed ?? 0) + (row?.doubled ?? 0);
    total += changed;
    if (changed === 0) return total;
  }
}

/** $1 the secret's inner pad, $2 its outer pad; a batch of legacy keys at most. */
const REKEY_LEGACY_VOTERS = `with legacy as (
    select v.id, v.feedback_id,
      'ip2:' || rtrim(translate(encode(sha256($2::bytea || sha256($1::bytea || decode(translate(substr(v.voter_key, 4), '-_', '+/') || '=', 'base64'))), 'base64'), '+/', '-_'), '=') as new_key
    from votes v where v.voter_key ~ '^ip:[A-Za-z0-9_-]{43}$' limit 10000
  ), keyed as (
    select l.*, exists (select 1 from votes w where w.feedback_id = l.feedback_id and w.voter_key = l.new_key) as twice from legacy l
  ), dropped as (
    delete from votes v using keyed k where v.id = k.id and k.twice returning v.feedback_id
  ), uncounted as (
    update feedback_counters c set vote_count = c.vote_count - d.n
    from (select feedback_id, count(*)::int as n from dropped group by feedback_id) d where c.feedback_id = d.feedback_id
    returning 1
  ), moved as (
    update votes v set voter_key = k.new_key from keyed k where v.id = k.id and not k.twice returning 1
  )
  select (select count(*) from moved)::int as rekeyed, (select count(*) from dropped)::int as doubled, (select count(*) from uncounted)::int as items`;
