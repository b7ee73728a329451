/*
 * A board's accent colour (`feedback board brand --accent`), held to WCAG AA (4.5:1) wherever the
 * board's stylesheet (web/board/static/board.css) draws with it: link text on the page and on the
 * panels (the header, the roadmap's columns), and the background of a button or a pressed vote
 * whose text is `--accent-fg` (white in the light theme, the page's near-black in the dark one).
 *
 * No one colour can pass in both themes (4.5:1 on white needs a dark colour, 4.5:1 on #161b22 a
 * light one), so the colour given is the light theme's, refused when it fails there; the dark
 * theme gets it as it is when it passes there, or else the same colour mixed with white just
 * enough to pass (darkThemeAccent). A test holds these backgrounds to board.css's.
 */

/** WCAG 2.x AA for normal text. */
export const MIN_CONTRAST = 4.5;

/** The light theme's colours the accent meets (board.css :root): the page, the panels, a button's text. */
export const LIGHT_THEME = { bg: '#ffffff', panel: '#f6f8fa', accentFg: '#ffffff' } as const;
/** The dark theme's (board.css, prefers-color-scheme: dark). */
export const DARK_THEME = { bg: '#0d1117', panel: '#161b22', accentFg: '#0d1117' } as const;

type Theme = typeof LIGHT_THEME | typeof DARK_THEME;

/** `#rgb` or `#rrggbb`, any case. */
const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A colour as `#rrggbb` in lower case, or undefined when it is not `#rgb` or `#rrggbb`. */
export function normalColour(given: string): string | undefined {
  const text = given.trim();
  if (!HEX_COLOUR.test(text)) return undefined;
  const digits = text.length === 4 ? [...text.slice(1)].map((d) => d + d).join('') : text.slice(1);
  return `#${digits.toLowerCase()}`;
}

function channels(colour: string): [number, number, number] {
  const n = Number.parseInt(colour.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hex([r, g, b]: readonly number[]): string {
  return `#${[r, g, b].map((c) => Math.round(c!).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance. */
function luminance(colour: string): number {
  const [r, g, b] = channels(colour).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The accent's weakest pair in a theme: against the page, a panel, or a button's text on it. */
function weakest(accent: string, theme: Theme): { ratio: number; against: string } {
  const pairs = [
    { ratio: contrast(accent, theme.bg), against: `the page (${theme.bg})` },
    { ratio: contrast(accent, theme.panel), against: `the panels (${theme.panel})` },
    { ratio: contrast(accent, theme.accentFg), against: `a button's text (${theme.accentFg})` },
  ];
  return pairs.reduce((a, b) => (b.ratio < a.ratio ? b : a));
}

function passes(accent: string, theme: Theme): boolean {
  return weakest(accent, theme).ratio >= MIN_CONTRAST;
}

/** The colour mixed step by step towards `towards` (black or white): the first mix that passes in the theme. */
function nearestPassing(accent: string, towards: string, theme: Theme): string {
  const from = channels(accent);
  const to = channels(towards);
  for (let step = 0; step <= 100; step++) {
    const mixed = hex(from.map((c, i) => c + ((to[i]! - c) * step) / 100));
    if (passes(mixed, theme)) return mixed;
  }
  return towards;
}

/** A ratio as the message shows it: rounded down, so 4.497 never reads as a passing 4.50. */
function ratioText(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}

/**
 * The problem with an accent for the light theme, in words (its weakest ratio, what it was
 * against, and a darker colour of the same hue that passes), or undefined when it passes.
 */
export function accentProblem(accent: string): string | undefined {
  const { ratio, against } = weakest(accent, LIGHT_THEME);
  if (ratio >= MIN_CONTRAST) return undefined;
  const suggestion = nearestPassing(accent, '#000000', LIGHT_THEME);
  return `the accent ${accent} has a contrast of ${ratioText(ratio)} against ${against} in the light theme; WCAG AA needs ${MIN_CONTRAST}:1 (links on the page and white text on buttons): try the darker ${suggestion}`;
}

/** The dark theme's accent: the colour itself when it passes there, or the nearest lighter one that does. */
export function darkThemeAccent(accent: string): string {
  return passes(accent, DARK_THEME) ? accent : nearestPassing(accent, '#ffffff', DARK_THEME);
}

/**
 * The stylesheet that gives a board its accent in both themes, or undefined when the stored
 * colour is not one (a row written by hand) or fails the light theme: then the board keeps its
 * own accent rather than show unreadable links.
 */
export function accentStyle(stored: string | null): string | undefined {
  const accent = stored === null ? undefined : normalColour(stored);
  if (accent === undefined || accentProblem(accent) !== undefined) return undefined;
  return `:root{--accent:${accent};--accent-fg:${LIGHT_THEME.accentFg}}@media (prefers-color-scheme: dark){:root{--accent:${darkThemeAccent(accent)};--accent-fg:${DARK_THEME.accentFg}}}`;
}
