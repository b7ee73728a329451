import { expect } from 'chai';
import {
  type AppContext,
  bulkStatusForm,
  type FormInput,
  type FormResult,
  mergeForm,
  replyForm,
  signInForm,
  statusForm,
  submitForm,
} from '@feedbackd/server/testing';
import { ITEM_ID, OTHER_ID } from './page-checks.js';

/**
 * The pages' forms, each read by formInput from a posted body (no server): what each accepts, and
 * the problems it refuses with, each at the control the page shows it beside.
 */

function post<T>(form: FormInput<T>, body: Record<string, unknown>): FormResult<T> {
  return form({ request: { body } } as unknown as AppContext);
}

function problemsOf<T>(result: FormResult<T>) {
  if (result.ok) throw new Error(`the form was accepted: ${JSON.stringify(result.data)}`);
  return result.problems;
}

describe('form input', () => {
  it('when a submission is posted, then it is checked by the contract, empty optional fields are not given, and nothing else it sends is read', () => {
    const sent = post(submitForm, { title: ' A title ', description: '', type: '', metadata: { a: 1 }, endUser: { externalId: 'x' } });
    expect(sent).to.deep.equal({ ok: true, data: { intent: 'send', title: 'A title', description: undefined, type: 'idea' }, values: { title: ' A title ', description: '', type: '', intent: undefined } });
    expect(problemsOf(post(submitForm, { title: '', type: 'nonsense' }))).to.deep.equal([
      { field: 'title', message: 'Title is required' },
      { field: 'type', message: 'Type must be one of: bug, idea, question, other' },
    ]);
    // A repeated field is no text: refused as the API refuses it, and not written back into the form.
    const repeated = post(submitForm, { title: ['a', 'b'] });
    expect(problemsOf(repeated)).to.deep.equal([{ field: 'title', message: 'Title must be a string' }]);
    expect(repeated.values.title).to.equal(undefined);
  });

  it('when "look for similar feedback first" is posted, then nothing is checked, whatever the title', () => {
    expect(post(submitForm, { title: '', intent: 'similar' })).to.deep.include({ ok: true, data: { intent: 'similar', title: '' } });
    expect(post(submitForm, { title: 'x'.repeat(500), type: 'nonsense', intent: 'similar' }).ok).to.equal(true);
  });

  it('when the sign-in form is posted, then the key is trimmed, and it says one thing at a time: the key first, then the name', () => {
    expect(post(signInForm, { key: '  sk_abc  ', name: '  ' })).to.deep.include({ ok: true, data: { key: 'sk_abc', name: undefined } });
    expect(post(signInForm, { key: 'sk_abc', name: ' Ada ' })).to.deep.include({ ok: true, data: { key: 'sk_abc', name: 'Ada' } });
    expect(problemsOf(post(signInForm, { key: ' ', name: 'x'.repeat(500) }))).to.deep.equal([{ field: 'key', message: 'Enter a secret key' }]);
    expect(problemsOf(post(signInForm, { key: ['sk_a', 'sk_b'] }))).to.deep.equal([{ field: 'key', message: 'Enter a secret key' }]);
    expect(problemsOf(post(signInForm, { key: 'pk_abc' }))).to.deep.equal([{ field: 'key', message: 'That is a public key (pk_): the team pages need a secret key (sk_)' }]);
    const named = post(signInForm, { key: 'sk_abc', name: 'x'.repeat(500) });
    expect(problemsOf(named)).to.have.length(1);
    expect(problemsOf(named)[0]).to.include({ field: 'name' }).and.to.have.property('message').that.matches(/^name must be at most \d+ characters$/);
    expect(named.values).to.deep.equal({ key: 'sk_abc', name: 'x'.repeat(500) });
  });

  it('when an item status is posted, then a blank comment is none, and a bad status and a too-long comment are both said, at their controls', () => {
    expect(post(statusForm, { status: 'planned', comment: '   ' })).to.deep.include({ ok: true, data: { status: 'planned', comment: undefined } });
    expect(post(statusForm, { status: 'planned', comment: ' Soon ' })).to.deep.include({ ok: true, data: { status: 'planned', comment: 'Soon' } });
    const problems = problemsOf(post(statusForm, { status: ['planned', 'new'], comment: 'x'.repeat(20_000) }));
    expect(problems.map((p) => p.field)).to.deep.equal(['status', 'comment']);
    expect(problems[0]!.message).to.equal('Choose one of the statuses');
    expect(problems[1]!.message).to.match(/^Content must be at most \d+ characters$/);
  });

  it('when a reply is posted, then it is needed, with the contract\'s message at the reply', () => {
    expect(post(replyForm, { reply: ' Thanks ' })).to.deep.include({ ok: true, data: { reply: 'Thanks', parentId: undefined, internal: false } });
    expect(problemsOf(post(replyForm, { reply: '  ' }))).to.deep.equal([{ field: 'reply', message: 'Content is required' }]);
    expect(problemsOf(post(replyForm, {}))).to.deep.equal([{ field: 'reply', message: 'Content is required' }]);
  });

  it('when a merge is posted, then the chosen id is lower-cased, and no choice is said at the choice', () => {
    expect(post(mergeForm, { intoId: OTHER_ID.toUpperCase() })).to.deep.include({ ok: true, data: { intoId: OTHER_ID } });
    expect(problemsOf(post(mergeForm, {}))).to.deep.equal([{ field: 'intoId', message: 'Choose the item to merge this one into' }]);
    expect(problemsOf(post(mergeForm, { intoId: 'nonsense' }))).to.deep.equal([{ field: 'intoId', message: 'Choose the item to merge this one into' }]);
  });

  it('when a bulk change is posted, then the ids are read once each, the return path kept under /team, and every problem is at the status control', () => {
    const ok = post(bulkStatusForm, { id: [ITEM_ID, ITEM_ID.toUpperCase(), OTHER_ID], status: 'planned', return: '/team?status=new' });
    expect(ok).to.deep.include({ ok: true, data: { return: '/team?status=new', id: [ITEM_ID, OTHER_ID], status: 'planned' } });
    expect(post(bulkStatusForm, { id: ITEM_ID, status: 'planned', return: '//elsewhere.example/team' })).to.deep.include({ ok: true, data: { return: '/team', id: [ITEM_ID], status: 'planned' } });
    expect(problemsOf(post(bulkStatusForm, { status: 'nonsense' }))).to.deep.equal([
      { field: 'new-status', message: 'Select at least one item, then choose Change status' },
      { field: 'new-status', message: 'Choose one of the statuses' },
    ]);
    expect(problemsOf(post(bulkStatusForm, { id: [ITEM_ID, 'nonsense'], status: 'planned' }))).to.deep.equal([{ field: 'new-status', message: 'Select at least one item, then choose Change status' }]);
    const many = Array.from({ length: 101 }, (_, i) => `0190f1a2-3b4c-7d5e-8f60-${String(i).padStart(12, '0')}`);
    expect(problemsOf(post(bulkStatusForm, { id: many, status: 'planned' }))).to.deep.equal([{ field: 'new-status', message: 'Change at most 100 items at once' }]);
  });
});
