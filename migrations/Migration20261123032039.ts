import { Migration } from '@mikro-orm/migrations';

export class Migration20261123032039 extends Migration {

  override name = 'Migration20261123032039';

  override up(): void | Promise<void> {
    this.addSql(`create index "webhook_deliveries_pending_in_order" on "webhook_deliveries" ("endpoint_id", "event_sequence") where state = 'pending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_deliveries_pending_in_order";`);
  }

}
