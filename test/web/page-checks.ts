import { expect } from 'chai';
import type { FeedbackDetail, FeedbackListItem } from '@feedbackd/sdk/contract';
import type { SafeHtml } from '@feedbackd/server/testing';

/*
 * What every page rendered from fixtures is checked for, without a server or a browser (as
 * govuk-frontend tests its components): hostile text stays text, the landmarks are there, every
 * control has its label, and an error summary links each problem to its control.
 */

/** Text a visitor or a member could type: markup, both quotes, an ampersand and an entity, a bidi override, a control character. */
export const HOSTILE = `<script>alert("x")</script><img src=x onerror='y'> & &amp; \u202eevil\u0007`;
/** HOSTILE as the `html` tag escapes it: the five characters of markup only (bidi and control characters are text, left as typed). */
export const HOSTILE_ESCAPED = `&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt; &amp; &amp;amp; \u202eevil\u0007`;

export const ASSETS = { css: '/assets/board.abc.css', js: '/assets/board.abc.js' };
export const ITEM_ID = '0190f1a2-3b4c-7d5e-8f60-718293a4b5c6';
export const OTHER_ID = '0190f1a2-3b4c-7d5e-8f60-718293a4b5c7';

export function listItem(overrides: Partial<FeedbackListItem> = {}): FeedbackListItem {
  return {
    id: ITEM_ID,
    title: HOSTILE,
    description: HOSTILE,
    type: 'idea',
    status: 'in-progress',
    voteCount: 1,
    commentCount: 2,
    createdAt: '2026-05-04T03:02:01.000Z',
    endUser: { name: HOSTILE, avatarUrl: null },
    ...overrides,
  };
}

export function detail(overrides: Partial<FeedbackDetail> = {}): FeedbackDetail {
  return {
    ...listItem(),
    userHasVoted: false,
    comments: [
      { id: 'c1', content: HOSTILE, createdAt: '2026-05-04T04:00:00.000Z', author: { name: HOSTILE } },
      { id: 'c2', content: 'Thanks', createdAt: '2026-05-05T04:00:00.000Z', author: { name: 'Acme', isTeam: true } },
    ],
    ...overrides,
  };
}

/** How many times `pattern` occurs in the page. */
export function occurrences(page: SafeHtml, pattern: RegExp): number {
  return [...page.text.matchAll(new RegExp(pattern.source, 'g'))].length;
}

/** The page's <title>, its entities as written. */
export function titleOf(page: SafeHtml): string {
  return /<title>([^<]*)<\/title>/.exec(page.text)?.[1] ?? '';
}

/**
 * Text people wrote is isolated for the bidi algorithm wherever it is shown (issue 37): each
 * HOSTILE (which holds an unterminated U+202E) in the page's text is a `<bdi>` of its own, and in
 * the <title> it is between U+2068 and U+2069. Attribute values, a textarea's text and a notice
 * (the server's own words) are not inline text beside anything, and are left out.
 */
export function expectIsolated(page: SafeHtml): void {
  const title = titleOf(page);
  expect(title.split(HOSTILE_ESCAPED).length, 'in the <title>').to.equal(title.split(`&#x2068;${HOSTILE_ESCAPED}&#x2069;`).length);
  const text = page.text
    .replace(/<title>[^<]*<\/title>/, '')
    .replace(/<textarea[^>]*>[^<]*<\/textarea>/g, '')
    .replace(/<p class="notice"[^>]*>[^<]*<\/p>/g, '')
    .replace(/="[^"]*"/g, '=""');
  const shown = text.split(HOSTILE_ESCAPED).length - 1;
  expect(shown, 'the page shows the hostile text').to.be.greaterThan(0);
  expect(text.split(`<bdi>${HOSTILE_ESCAPED}</bdi>`).length - 1, 'each time in a <bdi> of its own').to.equal(shown);
}

/** The hostile text appears only escaped: no tag, attribute or entity of it survives as markup. */
export function expectEscaped(page: SafeHtml): void {
  expect(page.text).to.include(HOSTILE_ESCAPED);
  expect(page.text).not.to.include('<script>alert');
  expect(page.text).not.to.include('<img src=x');
  expect(page.text).not.to.match(/onerror='/);
}

/**
 * The frame's landmarks: the language, a title, one h1, one main (the skip link's target), a
 * header and a footer; `nav`, when given, is the navigation's label.
 */
export function expectLandmarks(page: SafeHtml, nav?: string): void {
  const text = page.text;
  expect(text).to.match(/^<!doctype html>\n<html lang="en" dir="ltr">/);
  expect(titleOf(page)).not.to.equal('');
  expect(occurrences(page, /<h1[ >]/), 'h1').to.equal(1);
  expect(occurrences(page, /<main[ >]/), 'main').to.equal(1);
  expect(text).to.include('<main id="main"');
  expect(text).to.include('<a class="skip-link" href="#main">');
  expect(occurrences(page, /<header[ >]/), 'header').to.equal(1);
  expect(occurrences(page, /<footer[ >]/), 'footer').to.equal(1);
  if (nav) expect(text).to.include(`<nav class="site-nav" aria-label="${nav}">`);
  else expect(text).not.to.include('class="site-nav"');
}

/** Every control a person fills in (not hidden fields, not buttons) has an id and a <label for> it. */
export function expectLabelledControls(page: SafeHtml): void {
  const controls = [...page.text.matchAll(/<(input|select|textarea)\b([^>]*)>/g)].filter(([, , attributes]) => !/type="(hidden|submit)"/.test(attributes!));
  for (const [tag] of controls) {
    const id = /\sid="([^"]+)"/.exec(tag)?.[1];
    expect(id, `an id on ${tag}`).to.be.a('string');
    expect(page.text, `a label for ${tag}`).to.include(`<label for="${id}"`);
  }
}

/** The error summary: a list of `messages`, each a link to the id of the control it is about (or plain text, for none). */
export function expectSummary(page: SafeHtml, problems: readonly { field?: string; message: string }[]): void {
  const summary = /<div class="error-summary" role="alert"[^>]*>([\s\S]*?)<\/div>/.exec(page.text)?.[1];
  expect(summary, 'an error summary').to.be.a('string');
  const items = [...summary!.matchAll(/<li>([\s\S]*?)<\/li>/g)].map(([, item]) => item!);
  expect(items).to.deep.equal(problems.map((p) => (p.field ? `<a href="#${p.field}">${p.message}</a>` : p.message)));
  for (const { field } of problems) if (field) expect(page.text, `the control #${field}`).to.match(new RegExp(`\\sid="${field}"`));
}

export function expectNoSummary(page: SafeHtml): void {
  expect(page.text).not.to.include('error-summary');
}
