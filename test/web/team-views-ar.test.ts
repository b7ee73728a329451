import { expect } from 'chai';
import { deletePage, i18nFor, inboxPage, noticeOf, problemsIn, teamItemPage, teamProblem } from '@feedbackd/server/testing';
import { expectLabelledControls, listItem, occurrences, titleOf } from './page-checks.js';
import { ASSETS, COUNTS, inboxView, itemView, project } from './team-fixtures.js';

/** The team's pages in Arabic (right to left, six plural forms), rendered from fixtures. */

const ar = i18nFor('ar');
const notice = (query: string) => noticeOf(new URLSearchParams(query), ar)?.text;

describe('team views in Arabic', () => {
  it('when the inbox is rendered in Arabic, then it is right to left, its title, tabs, bar and rows are Arabic, and each tab counts with its plural form', () => {
    const page = inboxPage(inboxView({ counts: COUNTS, filters: { status: 'new,planned' }, i18n: ar }));
    expect(page.text).to.match(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(titleOf(page)).to.match(/^&#x2068;صندوق الوارد&#x2069; – /);
    expect(page.text).to.include('<h1>صندوق الوارد</h1>');
    expect(page.text).to.include('<nav class="status-tabs" aria-label="الحالات">');
    // All 21 (many), New 12 (many), Under review 3 (few), Planned 0 (zero), In progress 1 (one).
    const hidden = [...page.text.matchAll(/<span class="tab-label">([^<]*)<\/span> <span class="tab-count" aria-hidden="true">(\d+)<\/span><span class="visually-hidden">([^<]*)<\/span>/g)].map((m) => [m[1], m[2], m[3]]);
    expect(hidden.slice(0, 5)).to.deep.equal([
      ['الكل', '21', '21 عنصرًا'],
      ['جديد', '12', '12 عنصرًا'],
      ['قيد المراجعة', '3', '3 عناصر'],
      ['مخطط له', '0', 'لا عناصر'],
      ['قيد التنفيذ', '1', 'عنصر واحد'],
    ]);
    // Two items, with status New or Planned: the dual, and the language's own "or".
    expect(page.text).to.include('<p id="list-summary" aria-live="polite">عنصران بالحالة جديد أو مخطط له</p>');
    expect(page.text).to.include('<label for="select-all">تحديد الكل في هذه الصفحة</label>');
    expect(page.text).to.include('<option value="under-review" selected>قيد المراجعة</option>');
    expectLabelledControls(page);
  });

  it("when the inbox's bar is rendered in Arabic, then the script gets the selected count in each of Arabic's six plural forms", () => {
    const page = inboxPage(inboxView({ i18n: ar }));
    const output = /<output [^>]*>/.exec(page.text)![0];
    expect(output).to.include('data-plural-zero="لم يُحدَّد أي عنصر"');
    expect(output).to.include('data-plural-one="عنصر واحد محدد"');
    expect(output).to.include('data-plural-two="عنصران محددان"');
    expect(output).to.include('data-plural-few="{count} عناصر محددة"');
    expect(output).to.include('data-plural-many="{count} عنصرًا محددًا"');
    expect(output).to.include('data-plural-other="{count} عنصر محدد"');
    // Japanese has one form only.
    expect(occurrences(inboxPage(inboxView({ i18n: i18nFor('ja') })), /data-plural-/)).to.equal(1);
  });

  it("when a bulk change or an undo is told in Arabic, then each count takes its plural form and the status its Arabic name", () => {
    expect(notice('changed=1&to=planned')).to.equal('نُقل عنصر واحد إلى مخطط له.');
    expect(notice('changed=2&to=planned')).to.equal('نُقل عنصران إلى مخطط له.');
    expect(notice('changed=12&to=completed&missing=3')).to.equal('نُقل 12 عنصرًا إلى مكتمل. تعذّر العثور على 3 عناصر (حُذفت أو دُمجت في الأثناء).');
    expect(notice('restored=100&kept=1')).to.equal('عاد 100 عنصر إلى حالاتها السابقة. تغيّر عنصر واحد منذ ذلك الحين، فتُرك كما هو.');
    expect(notice('deleted=1')).to.equal('حُذف العنصر.');
    // English keeps its sentences, as before the catalogue.
    expect(noticeOf(new URLSearchParams('changed=12&to=planned&missing=1'), i18nFor('en'))?.text).to.equal('12 items moved to Planned. 1 item could not be found (deleted or merged meanwhile).');
  });

  it("when a team form's problem is shown in Arabic, then the team's messages and the contract's are said in Arabic, and any other is kept", () => {
    const problems = problemsIn(ar, [{ field: 'new-status', message: teamProblem('team.problem.selectItems') }, { message: teamProblem('team.problem.tooMany', { count: 100 }) }, { message: 'Status must be one of: new, under-review, planned, in-progress, completed, closed' }, { message: 'Something else' }]);
    expect(problems.map((p) => p.message)).to.deep.equal([ar.text('team.problem.selectItems'), 'غيّر 100 عنصر على الأكثر في المرة الواحدة', ar.text('contract.statusChoice', { choices: 'new, under-review, planned, in-progress, completed, closed' }), 'Something else']);
    expect(problems[0]!.field).to.equal('new-status');
  });

  it('when an item is rendered in Arabic, then it is right to left, its side column and its people are Arabic, and its counts take their plural forms', () => {
    const page = teamItemPage(itemView({ item: { ...itemView().item, voteCount: 2 }, i18n: ar }));
    expect(page.text).to.match(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(page.text).to.include('<aside class="item-side" aria-label="الفرز">');
    expect(page.text).to.include('<h2 id="status-title">تغيير الحالة</h2>');
    expect(page.text).to.include('صوتان · نُشر في <time datetime="2026-05-04T03:02:01.000Z">');
    expect(page.text).to.include('<p>مصوّت معروف واحد<br>لا أصوات مجهولة<br><span data-subscribers>مشتركان</span></p>');
    expect(page.text).to.include('<dt>المعرّف الخارجي</dt>');
    expect(page.text).to.include('<h2 id="merge-title">الدمج في عنصر آخر</h2>');
    expect(page.text).to.include('<button type="submit" class="button">نشر الرد</button>');
    expectLabelledControls(page);
    const confirm = deletePage(project, ASSETS, listItem({ voteCount: 11, commentCount: 2 }), ar);
    expect(confirm.text).to.include('<p>تُحذف معه 11 صوتًا وتعليقان وسجل حالاته.');
  });
});
