import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/**
 * Headless Chromium for the board's browser tests: Debian's package (`apt-get install -y
 * chromium`, which .ci/run does when it is missing), or the executable named by FEEDBACK_CHROMIUM.
 * Driven by playwright-core, which downloads no browser of its own.
 */
export const CHROMIUM = process.env.FEEDBACK_CHROMIUM || '/usr/bin/chromium';

/**
 * The flags of DESIGN.md §7: without the networking ones Chromium floods this closed network with
 * its own requests (updates, sync, QUIC probes).
 */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/** A browser context whose pages' console errors and uncaught exceptions are collected, to fail the test that caused them. */
export interface WatchedContext {
  context: BrowserContext;
  newPage(): Promise<Page>;
  /** Every console error and page error seen so far, but those `expectRefusal` allowed. */
  errors: string[];
  /**
   * The test expects this URL to answer with an error status (a 404 page, a refused post):
   * Chromium's console line about that load ("Failed to load resource") is then no error.
   */
  expectRefusal(url: string): void;
  close(): Promise<void>;
}

export async function watchedContext(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedContext> {
  const context = await browser.newContext(options);
  const errors: string[] = [];
  const refusals = new Set<string>();
  context.on('page', (page) => {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const url = message.location().url;
      if (message.text().startsWith('Failed to load resource') && refusals.has(url)) return;
      errors.push(`console: ${message.text()} (${url || page.url()})`);
    });
    page.on('pageerror', (error) => errors.push(`page error: ${error.message} (${page.url()})`));
  });
  return { context, errors, expectRefusal: (url) => refusals.add(url), newPage: () => context.newPage(), close: () => context.close() };
}

/**
 * Runs axe-core in the page and fails on any serious or critical violation, naming the rule and
 * the elements. axe is added through the page's own evaluation, not as a <script> element, so the
 * board's Content-Security-Policy does not stop it (and stays as strict as it is).
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  // A string, evaluated in the page: the tests are compiled without the DOM's types.
  const violations = (await page.evaluate(`axe.run(document).then((result) => result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)),
  })))`)) as { id: string; impact: string | null; help: string; targets: string[] }[];
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(grave, `${page.url()}: ${grave.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`).join('; ')}`).to.deep.equal([]);
}

/**
 * The hooks of a suite of browser tests: one Chromium for the suite, a watched context for each
 * test (`watched`), and a test that leaves a console error or an uncaught exception on any page
 * it opened fails. Call it inside the suite's `describe`.
 */
export function browserSuite(): { readonly browser: Browser; readonly watched: WatchedContext } {
  const suite = {} as { browser: Browser; watched: WatchedContext };
  before(async () => {
    suite.browser = await launchChromium();
  });
  after(async () => suite.browser?.close());
  beforeEach(async () => {
    suite.watched = await watchedContext(suite.browser);
  });
  afterEach(async function () {
    const errors = suite.watched.errors;
    await suite.watched.close();
    if (this.currentTest?.state !== 'failed') expect(errors, 'console errors').to.deep.equal([]);
  });
  return suite;
}
