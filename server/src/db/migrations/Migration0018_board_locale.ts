import { Migration } from '@mikro-orm/migrations';

/**
 * A board's default language (`feedback board brand --locale`, PATCH /api/v1/board; docs/board.md):
 * the pages' language when the reader chose none and their browser asks for none the server has.
 * Null is English. No check constraint: the list of languages grows with the catalogue
 * (server/src/i18n/), and a migration per new language would buy nothing, since the service checks
 * the value against the contract's list and the pages ignore one they do not know.
 */
export class Migration0018BoardLocale extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "board_locale" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "projects" drop column "board_locale";`);
  }
}
