import { expect } from 'chai';
import { documentFrame, errorSummary, html } from '@feedbackd/server/testing';
import { ASSETS, HOSTILE, expectEscaped, expectLabelledControls, expectLandmarks, expectSummary } from './page-checks.js';

/** The view tests' checks fail on the faults they are there to find (else a passing view test would prove nothing). */

const frame = (body: ReturnType<typeof html>) => documentFrame({ title: 'T', assets: ASSETS, header: '', body, footer: '' });
/** Markup made without the tag's escaping, as a forgotten escape would make it. */
const unescaped = (text: string): ReturnType<typeof html> => ({ ...html``, text });

describe('page checks', () => {
  it('when hostile text is escaped by the html tag, then the check passes; when it is markup, then it fails', () => {
    expectEscaped(frame(html`<h1>${HOSTILE}</h1>`));
    expect(() => expectEscaped(frame(unescaped(`<h1>${HOSTILE}</h1>`)))).to.throw();
  });

  it('when a page has two h1 or no main, then the landmark check fails', () => {
    expectLandmarks(frame(html`<h1>One</h1>`));
    expect(() => expectLandmarks(frame(html`<h1>One</h1><h1>Two</h1>`))).to.throw(/h1/);
    expect(() => expectLandmarks(unescaped('<!doctype html>\n<html lang="en"><title>T</title><h1>x</h1>'))).to.throw();
  });

  it('when a control has no label for its id, then the label check fails; hidden fields and buttons need none', () => {
    expectLabelledControls(html`<label for="a">A</label><input id="a" name="a"><input type="hidden" name="h"><input type="submit">`);
    expect(() => expectLabelledControls(html`<input id="b" name="b">`)).to.throw(/label/);
    expect(() => expectLabelledControls(html`<select name="c"></select>`)).to.throw(/id/);
  });

  it('when a summary links a problem to a control the page lacks, then the summary check fails', () => {
    const problems = [{ field: 'title', message: 'Title is required' }];
    expectSummary(frame(html`<h1>x</h1>${errorSummary(problems)}<input id="title">`), problems);
    expect(() => expectSummary(frame(html`<h1>x</h1>${errorSummary(problems)}`), problems)).to.throw(/#title/);
    expect(() => expectSummary(frame(html`<h1>x</h1>${errorSummary([{ message: 'Title is required' }])}<input id="title">`), problems)).to.throw();
  });
});
