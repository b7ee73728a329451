import { expect } from 'chai';
import { IntlMessageFormat } from 'intl-messageformat';
import {
  CATALOGUES,
  ENGLISH,
  html,
  i18nFor,
  LOCALES,
  type MessageKey,
  Messages,
  negotiateLocale,
  SOURCE_CATALOGUE,
} from '@feedbackd/server/testing';

/** The message catalogue (server/src/i18n/): every locale complete, every message valid ICU with English's arguments. */

const KEYS = Object.keys(SOURCE_CATALOGUE) as MessageKey[];

/** The names of a message's arguments (and whether each is a plural, a date, ...), from its parsed form. */
function argumentsOf(message: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (elements: unknown[]): void => {
    for (const element of elements as { type: number; value?: unknown; options?: Record<string, { value: unknown[] }> }[]) {
      // Types 1 to 6 are an argument, a number, a date, a time, a select and a plural, each named by `value`.
      if (element.type >= 1 && element.type <= 6) names.add(`${element.value as string}:${element.type}`);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, locale, undefined, { ignoreTag: true }).getAst());
  return [...names].sort();
}

describe('message catalogue', () => {
  it('when every locale is read, then it has every key of English and no other', () => {
    for (const locale of LOCALES) {
      expect(Object.keys(CATALOGUES[locale]).sort(), locale).to.deep.equal([...KEYS].sort());
    }
  });

  it("when every message is parsed, then it is valid ICU and takes exactly English's arguments, of the same kinds", () => {
    for (const locale of LOCALES) {
      for (const key of KEYS) {
        const message = CATALOGUES[locale][key];
        expect(message.trim(), `${locale} ${key} is empty`).not.to.equal('');
        expect(() => argumentsOf(message, locale), `${locale} ${key}`).not.to.throw();
        expect(argumentsOf(message, locale), `${locale} ${key}`).to.deep.equal(argumentsOf(SOURCE_CATALOGUE[key], 'en'));
      }
    }
  });

  it('when the messages are read, then none writes a time of day (Messages keeps a date\'s results by its day: a time would need that changed)', () => {
    for (const key of KEYS) expect(argumentsOf(SOURCE_CATALOGUE[key], 'en').filter((name) => name.endsWith(':4')), key).to.deep.equal([]);
  });

  it('when a message is formatted with values, then each value takes its place, and a date is written in the locale (in UTC)', () => {
    const french = new Messages('fr');
    expect(french.t('board.signedInAs', { name: 'Ada' })).to.equal('Connecté en tant que Ada');
    expect(french.date('2026-05-04T23:30:00.000Z')).to.equal('4 mai 2026');
    expect(new Messages('en').date('2026-05-04T23:30:00.000Z')).to.equal('May 4, 2026');
    expect(new Messages('ar').dir).to.equal('rtl');
    expect(new Messages('de').dir).to.equal('ltr');
  });

  it("when a count is formatted, then the locale's own plural forms are used (CLDR's, through Intl.PluralRules), and English stays ASCII", () => {
    const votes = (locale: (typeof LOCALES)[number], count: number) => new Messages(locale).t('item.votes', { count });
    expect([1, 2, 12345].map((n) => votes('en', n))).to.deep.equal(['1 vote', '2 votes', '12,345 votes']);
    // Arabic's six forms; CLDR's default digits for plain ar are Latin ones.
    expect([0, 1, 2, 3, 11, 100].map((n) => votes('ar', n))).to.deep.equal(['لا أصوات', 'صوت واحد', 'صوتان', '3 أصوات', '11 صوتًا', '100 صوت']);
    expect([0, 1, 2].map((n) => votes('fr', n)), 'French: 0 is singular').to.deep.equal(['0 vote', '1 vote', '2 votes']);
    expect(ENGLISH.t('item.postedOn', { when: new Date('2026-05-04T03:02:01.000Z') }).text).to.equal('Posted on May 4, 2026');
    // In UTC whatever the server's zone, and kept by day: late the same UTC day is the same text.
    expect(ENGLISH.t('item.postedOn', { when: new Date('2026-05-04T23:59:59.000Z') }).text).to.equal('Posted on May 4, 2026');
    expect(ENGLISH.t('item.postedOn', { when: new Date('2026-05-05T00:00:00.000Z') }).text).to.equal('Posted on May 5, 2026');
    expect([1, 2, 1].map((count) => ENGLISH.t('item.votes', { count }).text), 'a kept result is the right one').to.deep.equal(['1 vote', '2 votes', '1 vote']);
  });

  it('when an English message has a typographic character, then the page gets it as an entity and stays ASCII; other languages keep UTF-8', () => {
    const title = ENGLISH.t('board.pageTitle', { title: 'A', project: 'B' });
    expect(title.text).to.equal('A &ndash; B');
    // Each message with a value for each of its arguments, by kind: a count (plural, number), a date, or text.
    const sample = (argument: string) => {
      const [name, kind] = argument.split(':') as [string, string];
      return [name, kind === '2' || kind === '6' ? 1234 : kind === '3' ? new Date(0) : name === 'command' ? html`<code>c</code>` : 'x'];
    };
    for (const key of KEYS) expect(ENGLISH.t(key, Object.fromEntries(argumentsOf(SOURCE_CATALOGUE[key], 'en').map(sample))).text, key).to.match(/^[\x20-\x7e]*$/);
    expect(i18nFor('fr').t('refusal.404').text).to.equal('Page introuvable');
    // Markup given as a value is kept; text around it and text given as a value are escaped.
    expect(ENGLISH.t('board.signedInAs', { name: html`<strong>A</strong>` }).text).to.equal('Signed in as <strong>A</strong>');
    expect(ENGLISH.t('board.signedInAs', { name: '<b>&' }).text).to.equal('Signed in as &lt;b&gt;&amp;');
  });

  it('when a message is formatted twice, then it is compiled once (kept per locale and key)', () => {
    const messages = new Messages('es');
    const compiled = (messages as unknown as { compiled: Map<MessageKey, unknown> }).compiled;
    messages.t('refusal.404');
    const first = compiled.get('refusal.404');
    messages.t('refusal.404');
    expect(compiled.get('refusal.404')).to.equal(first);
    expect(i18nFor('es')).to.equal(i18nFor('es'));
  });

  it('when Accept-Language is matched, then quality order, regions and near languages are honoured, and garbage is ignored', () => {
    expect(negotiateLocale(['de-AT', 'en'])).to.equal('de');
    expect(negotiateLocale(['pt-PT'])).to.equal('pt-BR');
    expect(negotiateLocale(['es-419'])).to.equal('es');
    expect(negotiateLocale(['sv', 'fr'])).to.equal('fr');
    expect(negotiateLocale(['sv'])).to.equal(undefined);
    expect(negotiateLocale(['*', 'not a tag!', 'ar-EG'])).to.equal('ar');
    expect(negotiateLocale([])).to.equal(undefined);
  });
});
