import { expect } from 'chai';
import { i18nFor, teamItemPage } from '@feedbackd/server/testing';
import { itemView } from './team-fixtures.js';

/** The team's item page says how many subscribers a status change tells, before it is saved (docs/notifications.md). */
describe('team item page: subscribers told', () => {
  it('when an item has subscribers, then the status form says how many a change tells, and the save button is described by it', () => {
    const page = teamItemPage(itemView({ subscribers: 3 })).text;
    expect(page).to.include('<p class="hint" id="status-notifies">Saving a new status tells 3 subscribers.</p>');
    expect(page).to.match(/<button type="submit" class="button" aria-describedby="status-notifies">/);
    expect(teamItemPage(itemView({ subscribers: 0 })).text).to.include('tells no subscriber.');
  });

  it('when the page is in French or Arabic, then the sentence is translated with the locale plural', () => {
    expect(teamItemPage(itemView({ subscribers: 1, i18n: i18nFor('fr') })).text).to.include('prévient 1 abonné.');
    expect(teamItemPage(itemView({ subscribers: 2, i18n: i18nFor('ar') })).text).to.include('مشتركَين');
  });
});
