import { Migration } from '@mikro-orm/migrations';

const TABLES = ['sites', 'customers', 'meters'];

/**
 * A site, customer or meter read by its id is kept in memory too (with the custom attribute names
 * it shows), so every update or deletion of one, by the service or by hand, notifies
 * `<table>:<account id>` on `ebbs_changes` when it commits. An insert needs no notice: an id that
 * was not found is never kept.
 */
export class Migration20261126100000 extends Migration {

  override name = 'Migration20261126100000';

  override up(): void | Promise<void> {
    for (const table of TABLES) {
      this.addSql(`create trigger "${table}_notify_change" after update or delete on "${table}" for each row execute function "ebbs_notify_change"('${table}');`);
    }
  }

  override down(): void | Promise<void> {
    for (const table of TABLES) this.addSql(`drop trigger "${table}_notify_change" on "${table}";`);
  }

}
