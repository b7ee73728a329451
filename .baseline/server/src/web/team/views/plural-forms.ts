import type { MessageKey } from '../../../i18n/index.js';
import { html, type SafeHtml } from '../../kit/html.js';
import type { I18n } from '../../kit/i18n.js';

/** Counts tried for each plural category: small ones first, then the large ones some languages set apart (French's "many" is a million). */
const SAMPLES = [...Array.from({ length: 201 }, (_, n) => n), 1000, 1_000_000];

/**
 * A count message for the script (static/team.js), which writes counts the server cannot know
 * ("3 items selected" as boxes are ticked): one data attribute per plural category of the page's
 * language (`data-plural-one`, `data-plural-few`, ... `data-plural-other`), each the message
 * formatted for a count of that category with `{count}` where the number goes. The script picks
 * the category with Intl.PluralRules, as the server does, so it carries the catalogue's words and
 * no rules of its own (Arabic has six categories, Japanese one).
 */
export function pluralForms(i18n: I18n, key: MessageKey): SafeHtml {
  const rules = new Intl.PluralRules(i18n.lang);
  const forms = rules.resolvedOptions().pluralCategories.flatMap((category) => {
    const sample = SAMPLES.find((n) => rules.select(n) === category);
    if (sample === undefined) return [];
    const text = i18n.text(key, { count: sample }).replace(i18n.messages.number(sample), '{count}');
    return [html` data-plural-${category}="${text}"`];
  });
  return html`${forms}`;
}
