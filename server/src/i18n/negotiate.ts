import { match } from '@formatjs/intl-localematcher';
import { LOCALES, type Locale } from './locales.js';

/** What the matcher answers when no supported locale is close enough (a valid tag that is none of ours). */
const NO_MATCH = 'und';

/**
 * The supported locale closest to what a browser asks for, or undefined. `wanted` is the
 * Accept-Language list already ordered by quality (Koa's `acceptsLanguages()`, from negotiator,
 * drops q=0). The matching is CLDR's (formatjs's "best fit", the algorithm of
 * Intl.LocaleMatcher): fr-CA finds fr, es-419 es, and pt-PT our only Portuguese, pt-BR, which a
 * reader of European Portuguese reads far better than English; Swedish alone finds nothing, so
 * the project's default decides. Tags that are no tags (`*`, garbage) are left out: the matcher
 * throws on them.
 */
export function negotiateLocale(wanted: readonly string[]): Locale | undefined {
  const tags = wanted.filter(isValidTag).slice(0, 20);
  if (tags.length === 0) return undefined;
  const found = match(tags, LOCALES, NO_MATCH, { algorithm: 'best fit' });
  return found === NO_MATCH ? undefined : (found as Locale);
}

function isValidTag(tag: string): boolean {
  if (tag === '*' || tag.length > 35) return false;
  try {
    Intl.getCanonicalLocales(tag);
    return true;
  } catch {
    return false;
  }
}
