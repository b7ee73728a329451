import { createRequire } from 'node:module';
import { accessSync, constants, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { runDir } from './templates.js';
import { until } from './until.js';

/**
 * Headless Chromium for the board's browser tests: Debian's package (`apt-get install -y
 * chromium`, which .ci/run does when it is missing), or the executable named by FEEDBACK_CHROMIUM.
 * Driven by playwright-core, which downloads no browser of its own.
 */
export const CHROMIUM = process.env.FEEDBACK_CHROMIUM || '/usr/bin/chromium';

/**
 * Chromium's own background traffic (update checks, sync, component downloads, QUIC probes) has
 * nowhere to go on a closed network and floods it with retries, so the networking flags turn it
 * off; --no-sandbox because the tests may run as root in a container, where the sandbox cannot start.
 */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Set (to 1) by .ci/run: a missing browser then fails the browser suites instead of skipping them, so CI never skips them. */
export const REQUIRE_BROWSER_VARIABLE = 'FEEDBACK_REQUIRE_BROWSER';

/** Why Chromium cannot be started, and how to get it; undefined when CHROMIUM is an executable file. */
export function missingChromium(): string | undefined {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return undefined;
  } catch {
    const named = process.env.FEEDBACK_CHROMIUM ? `FEEDBACK_CHROMIUM names ${CHROMIUM}, which is not an executable file` : `no Chromium at ${CHROMIUM}`;
    return `${named}; install it with \`apt-get install -y chromium\`, or set FEEDBACK_CHROMIUM to a Chromium executable.`;
  }
}

/**
 * Prints the line once per mocha run, however many browser suites and parallel workers there are:
 * the first to create the marker file in the run's scratch directory (made by global-setup.ts,
 * removed after the run) prints it.
 */
function noticeOnce(line: string): void {
  try {
    closeSync(openSync(join(runDir(), 'browser-notice'), 'wx'));
  } catch {
    return;
  }
  console.log(`\n  ${line}\n`);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function launchChromium(extraFlags: readonly string[] = []): Promise<Browser> {
  // Loaded on the first launch: a run without Chromium skips the browser suites without loading it.
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...extraFlags] });
}

/**
 * One Chromium per test process, shared by the browser suites that run in it one after another
 * (a parallel run's worker runs many files): starting and closing one took 1 to 2 s a suite on a
 * busy machine, once per file. Each test still gets a context of its own,
 * and a suite closes every context left at its end, so suites share nothing but the process.
 * Once no suite has used it for IDLE_CLOSE_MS it is closed, so that a process whose last browser
 * suite is done (a serial run, say) is not kept alive by it. The pause between two suites can be
 * long: the one ending closes its server and drops its database after giving the browser back.
 */
let shared: { browser: Promise<Browser>; users: number; idle?: NodeJS.Timeout } | undefined;
const IDLE_CLOSE_MS = 15_000;

async function borrowChromium(): Promise<Browser> {
  if (shared) {
    const browser = await shared.browser.catch(() => undefined);
    if (!browser?.isConnected()) shared = undefined;
  }
  shared ??= { browser: launchChromium(), users: 0 };
  clearTimeout(shared.idle);
  shared.users += 1;
  return shared.browser;
}

async function giveBackChromium(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((context) => context.close()));
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  const idle = shared;
  idle.idle = setTimeout(() => {
    if (shared === idle) shared = undefined;
    void browser.close();
  }, IDLE_CLOSE_MS).unref();
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
export async function expectAccessible(page: Pick<Page, 'evaluate' | 'url'>): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  // A string, evaluated in the page: the tests are compiled without the DOM's types.
  const violations = (await page.evaluate(`axe.run(document).then((result) => result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)),
  })))`)) as { id: string; impact: string | null; help: string; targets: string[] }[];
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(grave, `${page.url()}: ${grave.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`).join('; ')}`).to.deep.equal([]);
}

/**
 * The hooks of a suite of browser tests: the process's Chromium (borrowChromium), a watched
 * context for each test (`watched`), and a test that leaves a console error or an uncaught exception on any page
 * it opened fails. Without Chromium the suite is skipped, with one line printed for the whole run
 * saying what is missing (a failure instead when FEEDBACK_REQUIRE_BROWSER is set). Call it first
 * inside the suite's `describe`, before withServer and the suite's own hooks.
 */
export function browserSuite(extraFlags: readonly string[] = []): { readonly browser: Browser; readonly watched: WatchedContext } {
  const suite = {} as { browser: Browser; watched: WatchedContext };
  // Registered before the suite's other hooks (call browserSuite() first in the describe), so a
  // skip here also skips them: no test server is started for tests that will not run.
  before(function () {
    const missing = missingChromium();
    if (!missing) return;
    if (process.env[REQUIRE_BROWSER_VARIABLE]) throw new Error(`Browser tests cannot run, and ${REQUIRE_BROWSER_VARIABLE} is set: ${missing}`);
    noticeOnce(`Browser tests skipped: ${missing}`);
    this.skip();
  });
  before(async () => {
    // A suite with flags of its own (the widget's blocked third-party cookies) has its own Chromium.
    suite.browser = extraFlags.length > 0 ? await launchChromium(extraFlags) : await borrowChromium();
  });
  after(async () => {
    if (!suite.browser) return;
    if (extraFlags.length > 0) await suite.browser.close();
    else await giveBackChromium(suite.browser);
  });
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

/**
 * Waits until `predicate`, run in the page, is true. Playwright's `page.waitForFunction` polls by
 * evaluating its predicate inside the page, which our pages' Content-Security-Policy (no
 * 'unsafe-eval') refuses as soon as the first check is false: a slow machine then fails the test.
 * `page.evaluate` runs through the DevTools protocol, which the policy does not govern.
 */
export async function waitInPage(page: Page, predicate: () => boolean, what: string, ms = 15_000): Promise<void> {
  await until(() => page.evaluate(predicate), ms, what);
}

/**
 * Saves a picture of the page as `<name>.png` in the directory FEEDBACK_SCREENSHOTS names
 * (default: test-results/screenshots/ at the repository's root, which git ignores), for a person
 * to look at: the tests assert what they can, the eye catches the rest. The whole page by
 * default; `viewport: true` takes only what the window shows (a sticky bar after a scroll).
 */
export async function screenshot(page: Page, name: string, options: { viewport?: boolean } = {}): Promise<string> {
  const dir = process.env.FEEDBACK_SCREENSHOTS || fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: !options.viewport });
  return path;
}
