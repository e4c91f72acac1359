import { Migration } from '@mikro-orm/migrations';

/**
 * events had a plain index on (account_id, sequence) beside the unique constraint on the same
 * columns, whose index answers the same lookups: every event written updated both.
 */
export class Migration20261129035304 extends Migration {

  override name = 'Migration20261129035304';

  override up(): void | Promise<void> {
    this.addSql(`drop index "events_account_id_sequence_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "events_account_id_sequence_index" on "events" ("account_id", "sequence");`);
  }

}
