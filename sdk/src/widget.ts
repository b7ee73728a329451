/**
 * The feedback widget for a host app bundled with npm (docs/widget.md): `mountWidget` loads the
 * server's loader (the same one script a plain `<script>` tag includes, at most 3 KB gzip) and
 * mounts it. Nothing else is fetched until the visitor opens the widget.
 *
 * Also exported alone as `@feedbackd/sdk/widget`: browser code, without the client's undici. The
 * token is signed on the host's server (`signBoardToken` of `@feedbackd/sdk/board`), never here.
 *
 * @example
 * import { mountWidget } from '@feedbackd/sdk/widget';
 *
 * const widget = await mountWidget({
 *   serverUrl: 'https://feedback.example.com',
 *   project: 'acme',
 *   token: () => fetch('/feedback-token').then((r) => r.json()).then((b) => b.token),
 * });
 */

/** What the loader takes (its script tag's data- attributes say the same). */
export interface WidgetOptions {
  /** The feedback server's address (https://feedback.example.com): the loader and the panel are served there. */
  serverUrl: string | URL;
  /** The project's slug; its widget must be on for this page's origin (`feedback widget on --origin`). */
  project: string;
  /**
   * The signed-in user's token, asked each time the panel needs one (on opening, and about every
   * hour to renew its session): a function (maybe async) that gets it from the host's backend, or
   * a token itself. None: the visitor uses the widget anonymously.
   */
  token?: string | (() => string | Promise<string>);
  /** A path of the host's own that answers the token as `{ "token": "…" }` (instead of `token`). */
  tokenUrl?: string;
  /** The host's element that opens the panel (an element or a CSS selector); a floating button by default. */
  trigger?: string | object;
  /** The panel's theme; the visitor's own (light or dark) by default. */
  theme?: 'light' | 'dark';
  /** The panel's language, one of the board's locales; the visitor's browser's by default. */
  locale?: string;
  /** The floating button's text and the panel's accessible name ("Feedback"). */
  label?: string;
  /** The floating button's colour (a CSS colour). */
  color?: string;
}

/** The mounted widget. */
export interface WidgetHandle {
  open(): void;
  close(): void;
  /** Removes the button (when the widget made it), the panel and every listener. */
  destroy(): void;
}

/** The loader's path on the server. */
export const WIDGET_LOADER_PATH = '/w/loader.js';

/** Only what this module uses of the browser: the SDK is compiled without the DOM's types. */
interface Browser {
  document: {
    createElement(tag: 'script'): { src: string; async: boolean; onload: (() => void) | null; onerror: (() => void) | null };
    head: { appendChild(node: unknown): unknown };
  };
  FeedbackWidget?: { mount(options: Omit<WidgetOptions, 'serverUrl'> & { server: string }): WidgetHandle };
}

let loading: Promise<void> | undefined;

/** Loads the server's loader once per page, then mounts the widget with these options. */
export async function mountWidget(options: WidgetOptions): Promise<WidgetHandle> {
  const browser = globalThis as unknown as Browser;
  const server = new URL(String(options.serverUrl)).origin;
  loading ??= new Promise<void>((resolve, reject) => {
    if (browser.FeedbackWidget) return resolve();
    const script = browser.document.createElement('script');
    script.src = server + WIDGET_LOADER_PATH;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = undefined;
      reject(new Error(`the feedback widget's loader did not load from ${script.src}`));
    };
    browser.document.head.appendChild(script);
  });
  await loading;
  const { serverUrl: _, ...rest } = options;
  return browser.FeedbackWidget!.mount({ ...rest, server });
}
