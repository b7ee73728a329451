import { expect } from 'chai';

/** A page as a test reads it. */
export interface Page {
  status: number;
  headers: Headers;
  text: string;
}

/** A request as a browser sends it: same-origin form posts carry the server's own Origin; `cookie` is the session's. */
export async function browse(
  server: { url: string },
  path: string,
  init: { method?: string; form?: Record<string, string | string[]>; headers?: Record<string, string>; cookie?: string } = {},
): Promise<Page> {
  const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  let body: string | undefined;
  if (init.form) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(init.form)) for (const one of Array.isArray(value) ? value : [value]) params.append(name, one);
    body = params.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if ((init.method ?? 'GET') === 'POST') headers.origin ??= server.url;
  const response = await fetch(server.url + path, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The session cookie a response sets, as the Cookie header sends it back (`name=value`). */
export function sessionCookie(page: Page): string {
  const set = page.headers.getSetCookie().find((line) => line.startsWith('feedback_team='));
  expect(set, 'a session cookie').to.be.a('string');
  return set!.split(';')[0]!;
}

/**
 * A bulk change's redirect split in two: the inbox's address with what it says (`changed`, `to`,
 * `missing`), and the signed undo token it carries when the change moved something (undo-token.ts).
 */
export function splitUndo(location: string | null): { location: string; undo: string | undefined } {
  expect(location, 'a redirect').to.be.a('string');
  const url = new URL(location!, 'http://team.invalid');
  const undo = url.searchParams.get('undo') ?? undefined;
  url.searchParams.delete('undo');
  return { location: url.pathname + url.search, undo };
}
