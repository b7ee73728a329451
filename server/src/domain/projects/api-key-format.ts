import { createHash, randomBytes } from 'node:crypto';

/** What a key may call: `public` keys the spec's endpoints, `secret` keys every endpoint. */
export type KeyKind = 'public' | 'secret';

/** Public keys start with this prefix (spec part 5: "a fixed prefix that marks it as a public key"). */
export const PUBLIC_KEY_PREFIX = 'pk_';
/** Secret keys (an extension: the operator's endpoints) start with this one. */
export const SECRET_KEY_PREFIX = 'sk_';
const PREFIXES: Record<KeyKind, string> = { public: PUBLIC_KEY_PREFIX, secret: SECRET_KEY_PREFIX };
/** 40 base62 characters: about 238 bits of randomness. */
const RANDOM_LENGTH = 40;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^(?:pk|sk)_[0-9A-Za-z]{32,64}$/;

/** A new key: `pk_` (or `sk_`) + 40 random base62 characters, drawn without modulo bias. */
export function generateApiKey(kind: KeyKind = 'public'): string {
  let out = '';
  while (out.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH * 2)) {
      // 248 = 4 * 62: bytes at or above it would favour the first characters, so they are skipped.
      if (byte < 248 && out.length < RANDOM_LENGTH) out += BASE62[byte % 62];
    }
  }
  return PREFIXES[kind] + out;
}

/** The only form in which a key is stored and looked up. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** True when the text has the shape of a public or secret key (checked before any database look-up). */
export function looksLikeApiKey(text: string): boolean {
  return KEY_PATTERN.test(text);
}

/** What listings show of a key: enough to recognise it, too little to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, PUBLIC_KEY_PREFIX.length + 6);
}
