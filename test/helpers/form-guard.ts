import { expect } from 'chai';

/**
 * The spam guard's fields of a board form as its page gives them (web/kit/form-guard.ts): the
 * honeypot left empty and the signed stamp, which a browser sends back with the form. `form`
 * names the form: 'comment', 'submit', or `reply-<comment id>`.
 */
export function guardFields(pageText: string, form = 'comment'): Record<string, string> {
  const trap = pageText.indexOf(`id="website-${form}"`);
  expect(trap, `the ${form} form's guard`).to.be.greaterThan(-1);
  const stamp = /name="shown" value="([^"]+)"/.exec(pageText.slice(trap));
  return { website: '', shown: stamp![1]! };
}
