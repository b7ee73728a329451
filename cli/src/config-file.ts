import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from './exit-codes.js';

/** What `feedback login` stores: the server and the key the API commands use when no flag or variable says otherwise. */
export interface StoredCredentials {
  url: string;
  apiKey: string;
}

/**
 * `$XDG_CONFIG_HOME/feedback/config.json`, or `~/.config/feedback/config.json`, as `gh` keeps its
 * hosts file. Mode 0600 in a 0700 directory: the key is a secret of the user who logged in.
 */
export function configPath(): string {
  const base = process.env.XDG_CONFIG_HOME?.trim() || join(homedir(), '.config');
  return join(base, 'feedback', 'config.json');
}

/** The stored credentials, or undefined when nobody logged in. A file that is not ours is an error, never ignored. */
export function readCredentials(): StoredCredentials | undefined {
  const path = configPath();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not valid JSON; fix it or run \`feedback logout\` and log in again`, EXIT.usage);
  }
  const { url, apiKey } = (parsed ?? {}) as Partial<Record<keyof StoredCredentials, unknown>>;
  if (typeof url !== 'string' || typeof apiKey !== 'string') {
    throw new CliError(`${path} has no "url" and "apiKey"; run \`feedback logout\` and log in again`, EXIT.usage);
  }
  return { url, apiKey };
}

/** Writes the credentials readable by this user only, replacing the file in one step. */
export function writeCredentials(credentials: StoredCredentials): string {
  const path = configPath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // A umask can only remove bits; chmod makes sure of 0600 whatever it was.
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
  return path;
}

/** Removes the stored credentials; false when there were none. */
export function removeCredentials(): boolean {
  const path = configPath();
  try {
    rmSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** A key as it may be shown: its prefix and a few characters, never enough to use it. */
export function maskKey(key: string): string {
  return key.length <= 12 ? `${key.slice(0, 3)}…` : `${key.slice(0, 7)}…${key.slice(-2)}`;
}
