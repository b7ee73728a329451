import { expect } from 'chai';
import { CreateFeedbackRequestSchema } from '@feedbackd/sdk/contract';
import {
  boardPage,
  type BoardProject,
  checkInputLimits,
  CONTRACT_MESSAGES,
  contractMessage,
  ENGLISH,
  i18nFor,
  itemPage,
  parseListQuery,
  submitPage,
  toValidationDetails,
  voteButton,
} from '@feedbackd/server/testing';
import { ASSETS, detail, listItem } from './page-checks.js';

/** The board's pages in other languages (docs/board.md, "Languages"): the contract's messages, Arabic's direction, plurals and dates. */

const project: BoardProject = { id: 'p1', slug: 'acme', name: 'Acme', voterSalt: 'salt', identitySecret: null, frameOrigins: [], origin: 'https://feedback.example.com' };
const arabic = i18nFor('ar');

/** Every message the contract (and the input limits before it) gives for the board's two forms, from inputs refused every way they can be. */
function contractMessagesOfTheForms(): Set<string> {
  const messages = new Set<string>();
  const add = (details: { formErrors: string[]; fieldErrors: Record<string, string[] | undefined> } | undefined) => {
    for (const message of details?.formErrors ?? []) messages.add(message);
    for (const list of Object.values(details?.fieldErrors ?? {})) for (const message of list ?? []) messages.add(message);
  };
  // The submit form: what a form can send is text, absent, or a repeated field (a list).
  const submissions: Record<string, unknown>[] = [
    {},
    { title: '' },
    { title: '   ' },
    { title: 'x'.repeat(201) },
    { title: ['a', 'b'], description: ['a', 'b'], type: ['bug', 'idea'] },
    { title: 'ok', description: 'x'.repeat(100_001), type: 'wish' },
  ];
  for (const input of submissions) {
    const parsed = CreateFeedbackRequestSchema.safeParse(input);
    if (!parsed.success) add(toValidationDetails(parsed.error));
  }
  for (const field of ['title', 'description', 'type', 'status', 'search', 'sortBy', 'page', 'limit']) {
    add(checkInputLimits({ [field]: 'a\u0000b' }));
    add(checkInputLimits({ [field]: 'a\ud800b' }));
  }
  // The list's query (parseListQuery checks the limits, then the contract).
  const queries: Record<string, unknown>[] = [
    { status: 'nope', type: 'wish', sortBy: 'best', page: '0', limit: '101', search: 'x'.repeat(201) },
    { status: 'new,', type: ',bug' },
    { status: ['new', ''], type: ['bug', ',,'], search: ['a', 'b'], page: 'two', limit: '-1' },
    { page: '99999999999' },
  ];
  for (const query of queries) {
    for (const problem of parseListQuery(query).problems ?? []) messages.add(problem.message);
  }
  return messages;
}

describe('the board in other languages', () => {
  it('when the board forms are refused in every way the contract can, then every message is mapped to a message of the catalogue, and in English it reads exactly as the API wrote it', () => {
    const produced = contractMessagesOfTheForms();
    expect(produced.size, 'the inputs produce many messages').to.be.at.least(20);
    const unmapped = [...produced].filter((message) => !CONTRACT_MESSAGES.has(message));
    expect(unmapped, 'contract messages without a key (web/kit/contract-messages.ts)').to.deep.equal([]);
    for (const message of CONTRACT_MESSAGES.keys()) expect(contractMessage(message, ENGLISH), 'English is the API word for word').to.equal(message);
    expect(contractMessage('Title is required', arabic)).to.equal('العنوان مطلوب');
    expect(contractMessage('A message the contract gained later', arabic), 'an unmapped message is shown as it was given').to.equal('A message the contract gained later');
  });

  it('when the submit form is refused in Arabic, then the summary and the field say the contract messages in Arabic, and the title says Error in Arabic', () => {
    const page = submitPage({ project, assets: ASSETS, values: { title: '' }, problems: [{ field: 'title', message: 'Title is required' }, { field: 'description', message: 'Description must be at most 100000 characters' }], i18n: arabic }).text;
    expect(page).to.match(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(page).to.include('<h2 id="error-summary-title">هناك مشكلة</h2>');
    expect(page).to.include('<li><a href="#title">العنوان مطلوب</a></li>');
    expect(page).to.include('<p class="field-error" id="title-error"><span class="visually-hidden">خطأ: </span>العنوان مطلوب</p>');
    expect(page).to.include('يجب ألا يزيد الوصف على 100000 حرف');
    expect(page).to.include('<title>&#x2068;خطأ: أرسل ملاحظة&#x2069;');
  });

  it("when a vote button is drawn in Arabic, then its word takes each of Arabic's plural forms for the count (zero, one, two, few, many, other)", () => {
    const word = (voteCount: number) => /data-count-label>([^<]*)</.exec(voteButton({ title: 't', voteCount }, false, undefined, arabic).text)![1];
    expect([0, 1, 2, 3, 11, 100].map(word)).to.deep.equal(['صوت', 'صوت', 'صوتان', 'أصوات', 'صوتًا', 'صوت']);
    expect(voteButton({ title: 't', voteCount: 3 }, false, undefined, arabic).text).to.include('<span class="visually-hidden"> – صوّت لـ «<bdi>t</bdi>»</span>');
    // English stays ASCII: the dash and the quotes are entities.
    expect(voteButton({ title: 't', voteCount: 1234 }, false).text).to.include('>1,234</span></span><span class="vote-label" data-count-label>votes</span><span class="visually-hidden"> &ndash; vote for &ldquo;<bdi>t</bdi>&rdquo;</span>');
  });

  it('when the board list is rendered in Arabic, then the summary is one plural sentence, the labels and filters are Arabic, and it is right to left', () => {
    const list = { items: [listItem({ status: 'planned', commentCount: 2 })], total: 41, page: 1, totalPages: 1 };
    const page = boardPage({ project, assets: ASSETS, filters: { search: 'تصدير' }, problems: [], voted: new Set(), here: '/b/acme', pageLink: (n) => `/b/acme?page=${n}`, list, i18n: arabic }).text;
    expect(page).to.match(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(page).to.include('<p id="list-summary" aria-live="polite">41 عنصرًا يطابق «<bdi>تصدير</bdi>»</p>');
    expect(page).to.include('<span class="visually-hidden">الحالة: </span>مخطط له</li>');
    expect(page).to.include('<li>تعليقان</li>');
    expect(page).to.include('<label for="sortBy">الترتيب حسب</label>');
  });

  it('when an item page is rendered in Arabic, then its dates are Arabic dates (the day in UTC), its history sentences and comments heading are Arabic', () => {
    const history = [{ from: 'new', to: 'planned', changedAt: '2026-05-06T23:59:00.000Z' }];
    const page = itemPage({ project, assets: ASSETS, item: detail(), voted: false, history, i18n: arabic }).text;
    expect(page).to.include('<time datetime="2026-05-04T03:02:01.000Z">نُشر في 4 مايو 2026</time>');
    expect(page).to.include('<span class="timeline-what">نُقل من جديد إلى مخطط له</span> <span class="hint"><time datetime="2026-05-06T23:59:00.000Z">6 مايو 2026</time></span>');
    expect(page).to.include('<h2 id="comments-title">تعليقان</h2>');
    expect(page).to.include('<span class="team-badge">الفريق</span>');
  });
});
