import { BOARD_LOCALES } from '@feedbackd/sdk/contract';
import type { AppContext } from '../../http/context.js';

/** The panel's tabs, in the order they are shown; the first is the panel's first view. */
export const TABS = ['feedback', 'board', 'changes', 'mine'] as const;
export type Tab = (typeof TABS)[number];

/**
 * What every page of the panel carries from the loader, in its links and hidden fields: the host
 * origin (checked against the project's, widget.ts), the theme and the language the loader asked
 * for. The session is never among them: it travels in a header or a posted field only.
 */
export interface PanelState {
  /** The panel's own path: /w/<slug>. */
  base: string;
  origin: string;
  theme: 'light' | 'dark' | undefined;
  lang: (typeof BOARD_LOCALES)[number] | undefined;
}

/** The state a request names, from its query (a page) or its form (a post); the origin unchecked yet. */
export function panelState(ctx: AppContext, base: string): PanelState | undefined {
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const value = (name: string): string | undefined => {
    const given = ctx.method === 'POST' ? body[name] : ctx.query[name];
    return typeof given === 'string' ? given : undefined;
  };
  const origin = value('origin');
  const theme = value('theme');
  const lang = value('lang');
  if (origin === undefined) return undefined;
  return { base, origin, theme: theme === 'light' || theme === 'dark' ? theme : undefined, lang: BOARD_LOCALES.find((locale) => locale === lang) };
}

/** A tab's address with the state (and more query, such as `sent=1`). */
export function panelLink(state: PanelState, tab: Tab, more: Record<string, string> = {}): string {
  const query = new URLSearchParams({ origin: state.origin, tab });
  if (state.theme) query.set('theme', state.theme);
  if (state.lang) query.set('lang', state.lang);
  for (const [name, value] of Object.entries(more)) query.set(name, value);
  return `${state.base}?${query.toString()}`;
}

/** The state as a form's hidden fields (the session field is added by the script when it has one). */
export function stateFields(state: PanelState): { name: string; value: string }[] {
  const fields = [{ name: 'origin', value: state.origin }];
  if (state.theme) fields.push({ name: 'theme', value: state.theme });
  if (state.lang) fields.push({ name: 'lang', value: state.lang });
  return fields;
}
