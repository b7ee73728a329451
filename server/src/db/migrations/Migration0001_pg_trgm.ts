import { Migration } from '@mikro-orm/migrations';

/** pg_trgm serves the substring search of GET /api/v1/feedback; it must exist before the indexes that use it. */
export class Migration0001PgTrgm extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists pg_trgm;');
  }

  override async down(): Promise<void> {
    this.addSql('drop extension if exists pg_trgm;');
  }
}
