import { expect } from 'chai';

/**
 * The spam guard's fields of a board or widget form as its page gives them (web/kit/form-guard.ts):
 * the honeypot left empty and the signed stamp, which a browser sends back with the form. `form`
 * names the form: 'comment', 'submit', `reply-<comment id>`, or the widget's 'widget'.
 */
export function guardFields(pageText: string, form = 'comment'): Record<string, string> {
  const trap = pageText.indexOf(`id="website-${form}"`);
  expect(trap, `the ${form} form's guard`).to.be.greaterThan(-1);
  const stamp = /name="shown" value="([^"]+)"/.exec(pageText.slice(trap));
  return { website: '', shown: stamp![1]! };
}

/**
 * The guard's fields of a widget's submit form, as its Give feedback tab shows it now to the
 * visitor of `headers` (a panel session, or none): a stamp is spent by the post it lets through,
 * so each post reads the form first, as a browser does.
 */
export async function widgetGuardFields(serverUrl: string, slug: string, origin: string, headers: Record<string, string> = {}): Promise<Record<string, string>> {
  const response = await fetch(`${serverUrl}/w/${slug}?origin=${encodeURIComponent(origin)}`, { headers });
  expect(response.status, 'the Give feedback tab').to.equal(200);
  return guardFields(await response.text(), 'widget');
}
